#include "ppl/core/memory_limits.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <string>

#include "ppl/core/system_info.hpp"

namespace ppl {
namespace {

// A cgroup limit file: a byte count, or "max" / an absurd number (cgroup v1's "unlimited") for none.
double cgroup_limit(const char* path) {
  std::ifstream in(path);
  std::string v;
  if (!(in >> v) || v == "max") return 0;
  try {
    const double bytes = std::stod(v);
    return bytes > 0 && bytes < 1e18 ? bytes : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

void take_smaller(memory_limit& m, double bytes, const char* what) {
  if (bytes > 0 && (m.bytes == 0 || bytes < m.bytes)) m = {bytes, what};
}

}  // namespace

memory_limit host_memory_limit() {
  memory_limit m;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) m = {double(pages) * double(page), "physical memory"};
  for (const auto& [resource, what] : {std::pair{RLIMIT_AS, "address-space limit (ulimit -v)"},
                                       std::pair{RLIMIT_DATA, "data-segment limit (ulimit -d)"}}) {
    rlimit r{};
    if (getrlimit(resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY) take_smaller(m, double(r.rlim_cur), what);
  }
  take_smaller(m, cgroup_limit("/sys/fs/cgroup/memory.max"), "cgroup memory limit (memory.max)");
  take_smaller(m, cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
               "cgroup memory limit (memory.limit_in_bytes)");
  return m;
}

memory_limit default_space_memory_limit() {
  if (!default_space_is_gpu()) return host_memory_limit();
  const auto s = query_system_info();
  return {s.device_memory_gib * 1073741824.0, "device memory (" + s.device_name + ")"};
}

std::string memory_size_text(double bytes) {
  static const char* const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 6) bytes /= 1024.0, ++u;
  return u == 0 ? fmt::format("{:.0f} bytes", bytes) : fmt::format("{:.3g} {}", bytes, units[u]);
}

}  // namespace ppl
