#pragma once
// Factories of the SpMV strategies, one per file, collected into the registry by register.cpp.
#include <memory>

#include "ppl/core/config.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl {

std::unique_ptr<spmv_strategy> make_spmv_scalar(const config_node* params);
std::unique_ptr<spmv_strategy> make_spmv_vector(const config_node* params);
std::unique_ptr<spmv_strategy> make_spmv_auto(const config_node* params);
std::unique_ptr<spmv_strategy> make_spmv_kokkos_kernels(const config_node* params);
std::unique_ptr<spmv_strategy> make_spmv_stream(const config_node* params);
#if defined(KOKKOS_ENABLE_CUDA)
std::unique_ptr<spmv_strategy> make_spmv_vector_cuda(const config_node* params);
#endif

// Threads per row of vector_cuda when not given: the largest power of two <= mean_nnz / 3, in [1, 32]
// (27 per row -> 8, 81 -> 16: the fastest on the H200, perf/results/h200-run4).
int cuda_threads_per_row(double mean_nnz);

// Threads per row of `auto` for a mean of `mean_nnz` nonzeros per row (docs/solver.md states the rule).
int auto_threads_per_row(double mean_nnz);

// Reads and checks `threads_per_row` (a power of two in [1, 32]) and `rows_per_team` from `params`.
struct vector_mapping {
  int threads_per_row = 8;
  int rows_per_team = 0;  // 0: chosen from threads_per_row (a 256-thread team on GPUs)
};
vector_mapping read_vector_mapping(const config_node* params, int default_threads_per_row);

}  // namespace ppl
