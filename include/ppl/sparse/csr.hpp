#pragma once
// CSR matrices and vectors: Kokkos Kernels' CrsMatrix (double values, int column indices) on the default
// execution space.
#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

namespace ppl {

using sparse_space = Kokkos::DefaultExecutionSpace;
using crs_matrix = KokkosSparse::CrsMatrix<double, int, sparse_space>;
using vector_view = Kokkos::View<double*, sparse_space>;
using const_vector_view = Kokkos::View<const double*, sparse_space>;

}  // namespace ppl
