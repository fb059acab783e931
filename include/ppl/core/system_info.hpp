#pragma once
// What ppl runs on: versions, Kokkos backends, the default execution space's device. Used by `ppl info`, the
// `info` job, the header of every summary and sweep record (docs/summary.schema.json) and the context block of
// every benchmark result file.
#include <optional>
#include <string>
#include <vector>

namespace ppl {

struct system_info {
  std::string ppl_version;
  std::optional<std::string> git_revision;  // of the source at build time; none outside a git checkout
  std::string build_type;                   // CMAKE_BUILD_TYPE
  std::string kokkos_version;
  std::vector<std::string> backends;  // enabled Kokkos execution spaces
  std::string default_execution_space;
  int concurrency = 0;      // DefaultExecutionSpace::concurrency()
  int host_threads = 0;     // DefaultHostExecutionSpace::concurrency()
  std::string device_name;  // "host" without a GPU backend
  // The device's properties, 0 when unknown (a CPU, or a query that failed); JSON writes null for those.
  double device_memory_gib = 0.0;
  int multiprocessors = 0;
  double clock_ghz = 0.0;      // SM clock (CUDA)
  int compute_capability = 0;  // e.g. 90
  std::string compiler;
};

system_info query_system_info();  // requires Kokkos to be initialized
std::string to_text(const system_info& s);
// `ppl info --json` and the info job: the summary header alone (job "info", no job file, the given outputs).
std::string to_json(const system_info& s, const std::string& output = "");

// The name and version of the summary layout (docs/summary.schema.json); a new version when a key changes meaning
// or goes away.
inline constexpr const char* summary_schema = "ppl.summary/1";

// The header every summary and sweep record starts with, as one JSON object (text), in this order: schema, job,
// job_file (null when empty), ppl {version, git_revision}, timestamp (now, UTC), build, backend, device. The caller
// adds "outputs" and its job's own part.
std::string summary_header_json(const system_info& s, const std::string& job, const std::string& job_file);

// Now as UTC ISO 8601 to the second: "2026-01-31T12:00:00Z".
std::string utc_timestamp();

// Set at build time (cmake/build_info.cmake): `git describe --always --dirty` of the source (nullptr outside a
// git checkout) and CMAKE_BUILD_TYPE.
const char* build_git_revision();
const char* build_type();

// "4.6.1": the Kokkos this build was compiled against (no Kokkos start needed).
std::string kokkos_version();

// Mirrors Kokkos_ENABLE_* of this build; true when the default execution space is a GPU.
bool default_space_is_gpu();

// The Kokkos backends compiled into this build, device first ("Cuda", "OpenMP", "Serial"); no Kokkos start needed.
std::vector<std::string> build_backends();

}  // namespace ppl
