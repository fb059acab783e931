#pragma once
// The Krylov solvers' one device -> host transfer per iteration, split so that device work queued between its two
// halves overlaps it: begin() queues a copy of the device scalars behind the work queued so far on the solve's
// execution space, wait() returns
// once that copy has landed, whatever was queued after it. On CUDA (src/sparse/cuda/scalar_transfer_cuda.cpp):
// pinned host memory, cudaMemcpyAsync on Kokkos' stream and an event to wait on; elsewhere a synchronous
// deep_copy in begin(), so work queued after it runs after the copy, as it would with one fetch. Private to
// src/sparse/.
#include <Kokkos_Macros.hpp>
#include <memory>

#include "ppl/core/execution.hpp"

namespace ppl::krylov_detail {

class scalar_transfer {
 public:
  virtual ~scalar_transfer() = default;
  // n doubles: the last copy's values after wait(); the host may also write them (for a push to the device).
  virtual double* host() = 0;
  virtual void begin(const double* device) = 0;
  virtual void wait() = 0;
};

// For n doubles, the best transfer for work queued on `space` (on CUDA: the instance's stream).
std::unique_ptr<scalar_transfer> make_scalar_transfer(const execution& space, int n);
#if defined(KOKKOS_ENABLE_CUDA)
std::unique_ptr<scalar_transfer> make_scalar_transfer_cuda(const Kokkos::Cuda& space, int n);
#endif

}  // namespace ppl::krylov_detail
