#pragma once
// What ppl runs on: versions, Kokkos backends, the default execution space's device. Used by `ppl info`, the
// `info` job, and the context block of every benchmark result file.
#include <string>
#include <vector>

namespace ppl {

struct system_info {
  std::string ppl_version;
  std::string kokkos_version;
  std::vector<std::string> backends;  // enabled Kokkos execution spaces
  std::string default_execution_space;
  int concurrency = 0;      // DefaultExecutionSpace::concurrency()
  int host_threads = 0;     // DefaultHostExecutionSpace::concurrency()
  std::string device_name;  // "host" without a GPU backend
  double device_memory_gib = 0.0;
  int multiprocessors = 0;
  double clock_ghz = 0.0;      // SM clock (CUDA) ; 0 when unknown
  int compute_capability = 0;  // e.g. 90
  std::string compiler;
};

system_info query_system_info();  // requires Kokkos to be initialized
std::string to_text(const system_info& s);
std::string to_json(const system_info& s);  // one JSON object

// Mirrors Kokkos_ENABLE_* of this build; true when the default execution space is a GPU.
bool default_space_is_gpu();

// The Kokkos backends compiled into this build, device first ("Cuda", "OpenMP", "Serial"); no Kokkos start needed.
std::vector<std::string> build_backends();

}  // namespace ppl
