// The CUDA scalar transfer (scalar_transfer.hpp): pinned host memory, an asynchronous copy on the solve's stream and an
// event recorded after it, so the host waits for the copy and not for the kernels queued behind it.
#include <cuda_runtime.h>

#include <Kokkos_Core.hpp>
#include <string>

#include "../scalar_transfer.hpp"
#include "ppl/core/error.hpp"

namespace ppl::krylov_detail {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw error(exit_code::failure, std::string("scalar transfer: ") + what + ": " + cudaGetErrorString(e));
}

class cuda_transfer final : public scalar_transfer {
 public:
  cuda_transfer(const Kokkos::Cuda& space, int n)
      : stream_(space.cuda_stream()), bytes_(sizeof(double) * static_cast<std::size_t>(n)) {
    check(cudaMallocHost(&host_, bytes_), "cudaMallocHost");
    const cudaError_t e = cudaEventCreateWithFlags(&done_, cudaEventDisableTiming);
    if (e != cudaSuccess) {
      cudaFreeHost(host_);
      check(e, "cudaEventCreate");
    }
  }
  ~cuda_transfer() override {
    cudaEventDestroy(done_);
    cudaFreeHost(host_);
  }
  cuda_transfer(const cuda_transfer&) = delete;
  cuda_transfer& operator=(const cuda_transfer&) = delete;

  double* host() override { return host_; }
  void begin(const double* device) override {
    check(cudaMemcpyAsync(host_, device, bytes_, cudaMemcpyDeviceToHost, stream_), "cudaMemcpyAsync");
    check(cudaEventRecord(done_, stream_), "cudaEventRecord");
  }
  void wait() override { check(cudaEventSynchronize(done_), "cudaEventSynchronize"); }

 private:
  cudaStream_t stream_;  // the solve's execution space instance's
  std::size_t bytes_;
  double* host_ = nullptr;
  cudaEvent_t done_ = nullptr;
};

}  // namespace

std::unique_ptr<scalar_transfer> make_scalar_transfer_cuda(const Kokkos::Cuda& space, int n) {
  return std::make_unique<cuda_transfer>(space, n);
}

}  // namespace ppl::krylov_detail
