#pragma once
// How much memory a job may plan to use, for the checks that refuse a size-driven allocation before any work (a
// solve's Krylov basis, a lattice): the host's physical memory and the limits the process runs under, and the
// device's memory on a GPU build.
#include <string>

namespace ppl {

struct memory_limit {
  double bytes = 0;  // 0: unknown (no check)
  std::string what;  // which limit: "physical memory", "address-space limit (ulimit -v)", ...
};

// The smallest of the host's physical memory, the address-space and data-segment limits (ulimit -v, ulimit -d) and
// the memory limit of the process's cgroup (v2 memory.max, v1 memory.limit_in_bytes), with which one it is.
memory_limit host_memory_limit();

// The default memory space's: the device's memory on a GPU build (needs Kokkos started), else host_memory_limit().
memory_limit default_space_memory_limit();

// "15.3 GiB", "512 MiB", "2.00 TiB": bytes for messages.
std::string memory_size_text(double bytes);

}  // namespace ppl
