#pragma once
// Reused device allocations for what ppl allocates per call (a plan's staged atoms, its partial sums; a caller's
// output map). A Kokkos 3.4 View allocation on CUDA is a cudaMalloc plus a synchronous copy of the allocation's
// header, and its release a cudaFree, which waits for the device: about 50 us each on the H200 (the 40 KB output of
// the PMPP plane, perf/results/potential-h200), as long as that plane's whole kernel. A released block waits in a
// process-wide cache for the next request it fits, so a caller that maps, frees and maps again (a sweep's points, a
// library user's one-shot calls) allocates once. Blocks live in the default memory space (and, in their own cache,
// in the host staging space below); the cache holds at most cache_limit_bytes of released blocks (larger ones are
// freed at release) and is emptied when Kokkos finalizes.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <memory>

namespace ppl {

// One allocation, returned to the cache when the last owner lets go.
class device_block {
 public:
  virtual ~device_block() = default;
  virtual void* data() const = 0;
  virtual std::size_t bytes() const = 0;
};

// A block of at least `bytes` from the cache, or a new allocation, aligned as the memory space allocates (CUDA: 256
// bytes; a host: 64); its contents are undefined.
std::shared_ptr<device_block> acquire_device_bytes(std::size_t bytes);

// What the cache holds and has done (tests, benchmarks).
struct device_buffer_stats {
  std::size_t cached_bytes = 0, cached_blocks = 0;
  std::size_t allocations = 0, reuses = 0;
};
device_buffer_stats device_buffer_statistics();
constexpr std::size_t cache_limit_bytes = std::size_t(1) << 30;

// Host memory that the device copies from with one DMA: page-locked (CudaHostPinnedSpace) in CUDA builds, where a
// copy from pageable memory is staged by the driver through its own buffers (a memcpy by the calling thread, then
// the transfer, piece by piece); plain host memory elsewhere. Page-locking costs time per page and the memory is
// taken from the system, so what a caller keeps there is small and reused: a second cache, of at most
// staging_cache_limit_bytes, with the same rules.
#if defined(KOKKOS_ENABLE_CUDA)
using host_staging_space = Kokkos::CudaHostPinnedSpace;
#else
using host_staging_space = Kokkos::HostSpace;
#endif
std::shared_ptr<device_block> acquire_staging_bytes(std::size_t bytes);
device_buffer_stats staging_buffer_statistics();
constexpr std::size_t staging_cache_limit_bytes = std::size_t(64) << 20;

// n elements of T in a cached block: an unmanaged View over it, and the block that must outlive every copy of the
// View (keep it beside the View).
template <class T>
struct cached_view {
  Kokkos::View<T*> view;
  std::shared_ptr<device_block> block;
};
template <class T>
cached_view<T> make_cached_view(std::size_t n) {
  cached_view<T> c;
  c.block = acquire_device_bytes(n * sizeof(T));
  c.view = Kokkos::View<T*>(static_cast<T*>(c.block->data()), n);
  return c;
}

}  // namespace ppl
