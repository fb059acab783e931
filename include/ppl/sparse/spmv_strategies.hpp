#pragma once
// The SpMV strategies' parameters and typed factories. Each strategy's parameters are one struct whose default member
// initializers are its defaults and whose fields() declares them (include/ppl/core/parameters.hpp); the registry
// (spmv_strategies(), src/sparse/register.cpp) lists that declaration and builds the struct from a job's `spmv` map.
// A factory checks the struct against its declaration first (parameter_error for a value outside it). "auto" (0):
// chosen from the matrix when the strategy is applied, by the rules of include/ppl/sparse/spmv_defaults.hpp.
#include <memory>

#include "ppl/core/parameters.hpp"
#include "ppl/core/registry.hpp"
#include "ppl/sparse/spmv_defaults.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl {

// `vector`: threads_per_row lanes per row, rows_per_team rows per team.
struct vector_spmv_params {
  int threads_per_row = vector_default_threads_per_row;
  int rows_per_team = 0;  // auto: vector_rows_per_team
  static const parameter_fields<vector_spmv_params>& fields();
};

// `auto`: rows per team of the portable vector path (a build without a specialised mapping).
struct auto_spmv_params {
  int rows_per_team = 0;  // auto: vector_rows_per_team
  static const parameter_fields<auto_spmv_params>& fields();
};

// `stream`: R, the rows of a team.
struct stream_spmv_params {
  int rows_per_team = 0;  // auto: stream_rows_per_team
  static const parameter_fields<stream_spmv_params>& fields();
};

// `vector_cuda`: the lanes per row.
struct vector_cuda_spmv_params {
  int threads_per_row = 0;  // auto: cuda_threads_per_row
  static const parameter_fields<vector_cuda_spmv_params>& fields();
};

// `stream_cuda`: R, the rows of a 256-thread block.
struct stream_cuda_spmv_params {
  int rows_per_team = 0;  // auto: stream_rows_per_team (GPU rule)
  static const parameter_fields<stream_cuda_spmv_params>& fields();
};

std::unique_ptr<spmv_strategy> make_scalar_spmv(const no_parameters& = {});
std::unique_ptr<spmv_strategy> make_vector_spmv(const vector_spmv_params& = {});
std::unique_ptr<spmv_strategy> make_auto_spmv(const auto_spmv_params& = {});
std::unique_ptr<spmv_strategy> make_stream_spmv(const stream_spmv_params& = {});
std::unique_ptr<spmv_strategy> make_kokkos_kernels_spmv(const no_parameters& = {});
#if defined(PPL_HAS_X86_SIMD)
// Only where the CPU has AVX2 and FMA (spmv_strategies().find("scalar_avx2") says so).
std::unique_ptr<spmv_strategy> make_scalar_avx2_spmv(const no_parameters& = {});
#endif
#if defined(KOKKOS_ENABLE_CUDA)
std::unique_ptr<spmv_strategy> make_vector_cuda_spmv(const vector_cuda_spmv_params& = {});
std::unique_ptr<spmv_strategy> make_stream_cuda_spmv(const stream_cuda_spmv_params& = {});
#endif

}  // namespace ppl
