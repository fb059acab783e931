#pragma once
// CSR matrices and vectors: Kokkos Kernels' CrsMatrix (double values, int column indices) on the default
// execution space.
#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ppl {

using sparse_space = Kokkos::DefaultExecutionSpace;
using crs_matrix = KokkosSparse::CrsMatrix<double, int, sparse_space>;
using vector_view = Kokkos::View<double*, sparse_space>;
using const_vector_view = Kokkos::View<const double*, sparse_space>;

// A CSR matrix on the host in plain vectors (what the Matrix Market reader builds; tests and references use it).
struct host_csr {
  int rows = 0;
  int cols = 0;
  std::vector<std::int64_t> row_map;  // rows + 1 offsets
  std::vector<int> entries;           // column indices (the reader sorts them within each row)
  std::vector<double> values;
};

// A registry entry's configuration-time check of a matrix read from a file (the sparse families' registry
// `Check`): throws ppl::input_error naming the first row (1-based) the entry cannot take; the job prefixes the file.
using matrix_check = std::function<void(const host_csr& A)>;

host_csr to_host(const crs_matrix& A);
// Throws ppl::input_error if the sizes are inconsistent or the nonzeros exceed the device row-map type.
crs_matrix to_device(const host_csr& A, const std::string& label = "ppl::A");
std::vector<double> to_host(const_vector_view x);
vector_view to_device(const std::vector<double>& x, const std::string& label = "ppl::x");

}  // namespace ppl
