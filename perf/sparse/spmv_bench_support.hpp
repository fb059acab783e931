#pragma once
// What bench_spmv shares between its benchmarks: the generated matrices (one cached at a time, released by a
// Kokkos finalize hook), their float64 host reference products, the byte count behind the GB/s figures, and
// median/spread statistics of per-apply times.
#include <cstdint>
#include <string>
#include <vector>

#include "ppl/sparse/csr.hpp"

namespace ppl::bench {

struct bench_matrix {
  int components = 1;  // 1: 27 nonzeros per interior row, 3: 81
  int n = 0;           // elements per side
  crs_matrix A;
  vector_view x;
  std::vector<double> y_ref;  // float64 host loop
  std::vector<double> bound;  // sum |a_ij x_j| per row
  std::vector<int> terms;
};

// The Q1 convection-diffusion matrix with at least `rows` rows (cached: asking for another one frees this one).
const bench_matrix& matrix_for(int components, std::int64_t rows);

// Effective bytes moved by one y = A x, counting every array once (x assumed cached after its first read):
// 12 bytes per nonzero (8 value + 4 column index) + the row map + x read + y written.
double spmv_bytes(const crs_matrix& A);

// |y - y_ref| / (2 (terms + 1) eps sum|a x|), the largest over rows: <= 1 passes (same rule as the unit tests).
double max_error_over_tolerance(const bench_matrix& m, const_vector_view y);

struct time_stats {
  double median = 0, min = 0, max = 0, p10 = 0, p90 = 0;
};
time_stats stats_of(std::vector<double> seconds);

// Sizes to run, from PPL_SPMV_ROWS (comma-separated row counts) or the backend's default.
std::vector<std::int64_t> row_counts();
// Timed repeats per benchmark, from PPL_SPMV_REPEATS or the backend's default.
int repeats();
// Bytes of the copy-bandwidth View, from PPL_COPY_GIB (default 2 GiB).
std::size_t copy_bytes();

// The copy bandwidth measured by the copy benchmark of this run (0 until it has run).
double& measured_copy_gbps();
// Registers that benchmark, copy/deep_copy (bench_spmv, bench_vector_ops; register it first): fenced deep copies of
// copy_bytes(), counted as read + write; it sets measured_copy_gbps().
void register_copy_benchmark();

}  // namespace ppl::bench
