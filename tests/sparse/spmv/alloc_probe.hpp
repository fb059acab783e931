#pragma once
// The largest single operator-new request made while a function runs: shows that a reader sizes no buffer from a
// number in a header. operator new/delete are replaced (forwarding to malloc/free) in alloc_probe.cpp, for the
// test binary that links it.
#include <cstddef>
#include <functional>

namespace ppl::test {

std::size_t largest_allocation_during(const std::function<void()>& f);

}  // namespace ppl::test
