// Benchmark main: Kokkos initialized with the --kokkos-* flags, Google Benchmark with the rest, and the run's
// context (ppl/Kokkos versions, backends, device, SM count and clock, git revision) added to the JSON output.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ppl/core/kokkos_session.hpp"
#include "ppl/core/system_info.hpp"

int main(int argc, char** argv) {
  ppl::kokkos_session kokkos(argc, argv);  // takes the --kokkos-* flags; Google Benchmark gets the rest
  {
    const auto s = ppl::query_system_info();
    std::string backends;
    for (const auto& b : s.backends) backends += (backends.empty() ? "" : ",") + b;
    benchmark::AddCustomContext("ppl_version", s.ppl_version);
    benchmark::AddCustomContext("kokkos_version", s.kokkos_version);
    benchmark::AddCustomContext("kokkos_backends", backends);
    benchmark::AddCustomContext("default_execution_space", s.default_execution_space);
    benchmark::AddCustomContext("concurrency", std::to_string(s.concurrency));
    benchmark::AddCustomContext("device_name", s.device_name);
    benchmark::AddCustomContext("multiprocessors", std::to_string(s.multiprocessors));
    benchmark::AddCustomContext("sm_clock_ghz", s.clock_ghz > 0 ? std::to_string(s.clock_ghz) : "unknown");
    benchmark::AddCustomContext("compiler", s.compiler);
    benchmark::AddCustomContext("git_revision", ppl::build_git_revision() ? ppl::build_git_revision() : "unknown");
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  }
  return 0;
}
