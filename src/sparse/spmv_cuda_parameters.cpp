// The declared parameters of the CUDA-only SpMV strategies, in portable code so that every build lists them
// (`ppl strategies --parameters`); their factories are in src/sparse/cuda/.
#include "spmv_factories.hpp"

namespace ppl {

const parameter_fields<vector_cuda_spmv_params>& vector_cuda_spmv_params::fields() {
  static const auto f = parameter_fields<vector_cuda_spmv_params>().integer_of_or_auto(
      "threads_per_row", &vector_cuda_spmv_params::threads_per_row, {1, 2, 4, 8, 16, 32},
      "lanes of a warp per row; auto: the largest power of two <= mean nonzeros per row / 3");
  return f;
}

const parameter_fields<stream_cuda_spmv_params>& stream_cuda_spmv_params::fields() {
  static const auto f = parameter_fields<stream_cuda_spmv_params>().integer_of_or_auto(
      "rows_per_team", &stream_cuda_spmv_params::rows_per_team, {8, 16, 32, 64, 128},
      "R, the rows of a 256-thread block; auto: the largest power of two in [8, 128] with R x mean nonzeros per row "
      "<= 2048");
  return f;
}

}  // namespace ppl
