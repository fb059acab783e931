// The block caches (include/ppl/core/device_buffers.hpp), one per memory space (the device's, the host staging
// space): released blocks wait in a size-ordered list; a request takes the smallest waiting block that fits it
// without wasting more than half.
#include "ppl/core/device_buffers.hpp"

#include <map>
#include <mutex>

namespace ppl {
namespace {

struct cache_state {
  std::mutex lock;
  std::multimap<std::size_t, void*> waiting;  // bytes -> block
  device_buffer_stats stats;
  bool hooked = false;
  bool closed = false;  // Kokkos is finalizing: blocks released from now on are freed at once, not kept
};

// The two caches: each a tag type naming its memory space (the same space on a host build, two caches still).
struct device_cache {
  using space = Kokkos::DefaultExecutionSpace::memory_space;
  static constexpr std::size_t limit = cache_limit_bytes;
};
struct staging_cache {
  using space = host_staging_space;
  static constexpr std::size_t limit = staging_cache_limit_bytes;
};

template <class Cache>
cache_state& cache() {
  static cache_state s;
  return s;
}

// Frees every waiting block (the caller holds the lock).
template <class Cache>
void free_waiting(cache_state& s) {
  for (const auto& [bytes, p] : s.waiting) typename Cache::space().deallocate(p, bytes);
  s.waiting.clear();
  s.stats.cached_bytes = s.stats.cached_blocks = 0;
}

template <class Cache>
void release(void* p, std::size_t bytes) {
  // After Kokkos has finalized nothing can be freed any more: the process is ending (and the cache itself may be
  // gone already, so it is not touched).
  if (!Kokkos::is_initialized()) return;
  auto& s = cache<Cache>();
  const std::lock_guard<std::mutex> guard(s.lock);
  if (s.closed || s.stats.cached_bytes + bytes > Cache::limit) {
    typename Cache::space().deallocate(p, bytes);
    return;
  }
  s.waiting.emplace(bytes, p);
  s.stats.cached_bytes += bytes;
  ++s.stats.cached_blocks;
}

template <class Cache>
class cached_block final : public device_block {
 public:
  cached_block(void* p, std::size_t bytes) : p_(p), bytes_(bytes) {}
  ~cached_block() override { release<Cache>(p_, bytes_); }
  cached_block(const cached_block&) = delete;
  cached_block& operator=(const cached_block&) = delete;
  void* data() const override { return p_; }
  std::size_t bytes() const override { return bytes_; }

 private:
  void* p_;
  std::size_t bytes_;
};

template <class Cache>
std::shared_ptr<device_block> acquire(std::size_t bytes) {
  constexpr std::size_t granule = 256;
  bytes = (bytes + granule - 1) / granule * granule;
  if (bytes == 0) bytes = granule;
  auto& s = cache<Cache>();
  const std::lock_guard<std::mutex> guard(s.lock);
  if (!s.hooked) {
    Kokkos::push_finalize_hook([] {
      auto& c = cache<Cache>();
      const std::lock_guard<std::mutex> g(c.lock);
      free_waiting<Cache>(c);
      c.closed = true;  // other finalize hooks may still release blocks (a benchmark's cached scenarios)
    });
    s.hooked = true;
  }
  const auto it = s.waiting.lower_bound(bytes);
  if (it != s.waiting.end() && it->first <= 2 * bytes) {
    const std::size_t have = it->first;
    void* p = it->second;
    s.waiting.erase(it);
    s.stats.cached_bytes -= have;
    --s.stats.cached_blocks;
    ++s.stats.reuses;
    return std::make_shared<cached_block<Cache>>(p, have);
  }
  void* p = nullptr;
  try {
    p = typename Cache::space().allocate(bytes);
  } catch (const std::exception&) {  // out of memory: give back what waits, then try once more
    free_waiting<Cache>(s);
    p = typename Cache::space().allocate(bytes);
  }
  ++s.stats.allocations;
  return std::make_shared<cached_block<Cache>>(p, bytes);
}

template <class Cache>
device_buffer_stats statistics() {
  auto& s = cache<Cache>();
  const std::lock_guard<std::mutex> guard(s.lock);
  return s.stats;
}

}  // namespace

std::shared_ptr<device_block> acquire_device_bytes(std::size_t bytes) {
  return acquire<device_cache>(bytes);
}

device_buffer_stats device_buffer_statistics() {
  return statistics<device_cache>();
}

std::shared_ptr<device_block> acquire_staging_bytes(std::size_t bytes) {
  return acquire<staging_cache>(bytes);
}

device_buffer_stats staging_buffer_statistics() {
  return statistics<staging_cache>();
}

}  // namespace ppl
