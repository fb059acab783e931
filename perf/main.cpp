// Benchmark main: Kokkos initialized with the --kokkos-* flags, Google Benchmark with the rest, and the run's
// context (ppl/Kokkos versions, backends, device, SM count and clock, git revision) added to the JSON output.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ppl/core/system_info.hpp"

#ifndef PPL_GIT_REVISION
#define PPL_GIT_REVISION "unknown"
#endif

int main(int argc, char** argv) {
  std::vector<char*> kokkos_args{argv[0]}, bench_args{argv[0]};
  for (int i = 1; i < argc; ++i) (std::strncmp(argv[i], "--kokkos-", 9) == 0 ? kokkos_args : bench_args).push_back(argv[i]);
  int kargc = static_cast<int>(kokkos_args.size());
  int bargc = static_cast<int>(bench_args.size());
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::initialize(kargc, kokkos_args.data());
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
    benchmark::AddCustomContext("sm_clock_ghz", std::to_string(s.clock_ghz));
    benchmark::AddCustomContext("compiler", s.compiler);
    benchmark::AddCustomContext("git_revision", PPL_GIT_REVISION);
    benchmark::Initialize(&bargc, bench_args.data());
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  }
  Kokkos::finalize();
  return 0;
}
