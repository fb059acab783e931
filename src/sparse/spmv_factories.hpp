#pragma once
// What the SpMV strategy files share (private to src/sparse/): the public typed factories and parameter structs,
// the defaults' rules, and the guard of the strategies that run only on the default execution space.
#include <string>

#include "ppl/core/execution.hpp"
#include "ppl/sparse/spmv_defaults.hpp"
#include "ppl/sparse/spmv_strategies.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl {

// Throws ppl::error (failure) unless `space` is the default execution space: for strategies whose kernels cannot
// be launched on another one (Kokkos Kernels' spmv takes no execution space instance in 3.4; CUDA kernels).
void require_default_space(const execution& space, const std::string& strategy);

// The vector mapping's shape (spmv_vector.hpp): `vector` from its parameters, `auto` from its rule.
struct vector_mapping {
  int threads_per_row = 8;
  int rows_per_team = 0;  // 0: chosen from threads_per_row (a 256-thread team on GPUs)
};

}  // namespace ppl
