#pragma once
// Matrix Market files (https://math.nist.gov/MatrixMarket/formats.html).
//
// In: `matrix coordinate real|integer|pattern general|symmetric|skew-symmetric` (symmetric is expanded to both
// triangles), 1-based indices, '%' comment lines and blank lines anywhere after the header, duplicate entries
// summed, columns sorted within each row. Vectors: `matrix array real|integer general` with one column. Every error
// is a ppl::input_error naming "file:line" (bad or missing header, complex field, bad size line, bad entry, index
// out of range, NaN/Inf value, too few or too many entries, far more rows or columns than entries). Nothing is
// allocated from the size line: entries are stored as they are read and their count is checked at the end.
// Kokkos Kernels 3.4's reader is not used: docs/solver.md says why.
//
// Out: `matrix coordinate real general` and `matrix array real general`, through write_file_atomically, with
// 17 significant digits so a round trip is exact.
#include <cstdint>
#include <string>
#include <vector>

#include "ppl/sparse/csr.hpp"

namespace ppl {

enum class matrix_market_object { sparse_matrix, vector };

// The banner and the size line, checked as the readers check them, without reading the entries (cheap: the solve
// job checks its input files with it before any work, so `ppl validate` catches what a run would).
struct matrix_market_header {
  std::string format, field, symmetry;  // lower case; field "double" is read as "real"
  std::int64_t rows = 0, cols = 0;      // each in [0, 2^31 - 1]
  std::int64_t entries = 0;    // coordinate: entry lines declared (symmetric: one triangle); array: rows x cols
  std::int64_t size_line = 0;  // line number of the size line
};
matrix_market_header read_matrix_market_header(const std::string& path, matrix_market_object what);

// The row offsets take 8 bytes a row even for an empty row, so a sparse matrix may have at most this many more rows
// (or columns) than stored entries (after symmetric expansion); a size line that claims more is an input error.
constexpr std::int64_t matrix_market_max_empty_rows = std::int64_t(1) << 20;

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
