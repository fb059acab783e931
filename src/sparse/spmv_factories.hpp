#pragma once
// Factories of the SpMV strategies, one per file, collected into the registry by register.cpp.
#include <memory>

#include "ppl/jobs/config.hpp"
#include "ppl/sparse/spmv_defaults.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl {

std::unique_ptr<spmv_strategy> make_spmv_scalar(const config_node* params);
std::unique_ptr<spmv_strategy> make_spmv_vector(const config_node* params);
std::unique_ptr<spmv_strategy> make_spmv_auto(const config_node* params);
std::unique_ptr<spmv_strategy> make_spmv_kokkos_kernels(const config_node* params);
std::unique_ptr<spmv_strategy> make_spmv_stream(const config_node* params);
#if defined(KOKKOS_ENABLE_CUDA)
std::unique_ptr<spmv_strategy> make_spmv_vector_cuda(const config_node* params);
std::unique_ptr<spmv_strategy> make_spmv_stream_cuda(const config_node* params);
#endif
#if defined(PPL_HAS_X86_SIMD)
std::unique_ptr<spmv_strategy> make_spmv_scalar_avx2(const config_node* params);
#endif

// Reads and checks `threads_per_row` (a power of two in [1, 32]) and `rows_per_team` from `params`.
struct vector_mapping {
  int threads_per_row = 8;
  int rows_per_team = 0;  // 0: chosen from threads_per_row (a 256-thread team on GPUs)
};
vector_mapping read_vector_mapping(const config_node* params, int default_threads_per_row);

}  // namespace ppl
