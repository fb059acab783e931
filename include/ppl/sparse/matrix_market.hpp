#pragma once
// Matrix Market files (https://math.nist.gov/MatrixMarket/formats.html).
//
// In: `matrix coordinate real|integer|pattern general|symmetric` (symmetric is expanded to both triangles),
// 1-based indices, '%' comment lines and blank lines anywhere after the header, duplicate entries summed, columns
// sorted within each row. Vectors: `matrix array real general` with one column. Every error is a ppl::input_error
// naming "file:line" (bad or missing header, bad size line, bad entry, index out of range, NaN/Inf value, too
// few or too many entries). Kokkos Kernels 3.4's reader is not used: docs/solver.md says why.
//
// Out: `matrix coordinate real general` and `matrix array real general`, through write_file_atomically, with
// 17 significant digits so a round trip is exact.
#include <string>
#include <vector>

#include "ppl/sparse/csr.hpp"

namespace ppl {

host_csr read_matrix_market_host(const std::string& path);
crs_matrix read_matrix_market(const std::string& path);  // on the default execution space

void write_matrix_market(const std::string& path, const crs_matrix& A, const std::string& comment = "");
void write_matrix_market(const std::string& path, const host_csr& A, const std::string& comment = "");

// Dense vectors (`array real general`, n x 1).
std::vector<double> read_matrix_market_vector_host(const std::string& path);
vector_view read_matrix_market_vector(const std::string& path);
void write_matrix_market_vector(const std::string& path, const_vector_view x, const std::string& comment = "");
void write_matrix_market_vector(const std::string& path, const std::vector<double>& x, const std::string& comment = "");

}  // namespace ppl
