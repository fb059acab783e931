#pragma once
// The largest single operator-new request made while a function runs: shows that a reader sizes no buffer from a
// number in a header. operator new/delete are replaced (forwarding to malloc/free) in alloc_probe.cpp, for the
// test binary that links it.
#include <cstddef>
#include <functional>

namespace ppl::test {

// nvcc compiles every function of a .cpp for the device as well, and a replaced operator new cannot be (it touches
// host globals): the probe exists in host-compiler builds only, where CI runs it; CUDA builds skip the bound.
#if defined(__CUDACC__)
inline constexpr bool allocation_probe_available = false;
#else
inline constexpr bool allocation_probe_available = true;
#endif

std::size_t largest_allocation_during(const std::function<void()>& f);

}  // namespace ppl::test
