// A separate file so that the replaced operator new/delete are never inlined into the code that calls them.
#include "alloc_probe.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

#if !defined(__CUDACC__)
namespace {
std::atomic<bool> armed{false};
std::atomic<std::size_t> largest{0};
}  // namespace

void* operator new(std::size_t n) {
  if (armed.load(std::memory_order_relaxed)) {
    std::size_t seen = largest.load(std::memory_order_relaxed);
    while (n > seen && !largest.compare_exchange_weak(seen, n)) {
    }
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// Every non-aligned form, so nothing allocated by the sanitizer's operator new is released by this free (ASan
// reports that mismatch: libstdc++'s temporary buffers use the nothrow form).
void* operator new[](std::size_t n) {
  return ::operator new(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
  return ::operator new(n, t);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace ppl::test {

std::size_t largest_allocation_during(const std::function<void()>& f) {
  largest = 0;
  armed = true;
  try {
    f();
  } catch (...) {
    armed = false;
    throw;
  }
  armed = false;
  return largest.load();
}

}  // namespace ppl::test

#else

namespace ppl::test {
std::size_t largest_allocation_during(const std::function<void()>& f) {
  f();
  return 0;
}
}  // namespace ppl::test

#endif
