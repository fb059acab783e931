#pragma once
// Jobs: `job: <kind>` in a YAML file picks a factory from the job registry. A factory reads and checks the whole
// configuration (so `ppl validate` and every error happen before any work); run() then does the work.
#include <chrono>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "ppl/core/registry.hpp"
#include "ppl/jobs/config.hpp"

namespace ppl {

struct job_context {
  std::ostream& out;       // human-readable progress and summaries
  bool quiet = false;      // no progress lines
  bool overwrite = false;  // sweeps: measure again the points whose records are already in the results file
  bool verbose = false;    // the details of each step too (job: ions: a line per ion placed)
  // When the job began to load (config, input, set-up such as the ions job's mask; Kokkos already running): a job's
  // own wall time runs from here.
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

class job {
 public:
  virtual ~job() = default;
  // Returns the process exit code (0 on success; see ppl::exit_code).
  virtual int run(job_context& ctx) = 0;
};

using job_factory = std::function<std::unique_ptr<job>(const config_node& config)>;
using job_registry = registry<job_factory>;

const job_registry& job_kinds();

// Loads a job file, applies --set overrides, builds the job and checks that every key was used.
std::unique_ptr<job> load_job(const std::string& path, const std::vector<std::string>& overrides);

// `ppl map MOLECULE -o MAP [--summary FILE] [--set k=v]...`: a potential job with its defaults on one PQR file,
// writing one map whose format the extension of MAP names (map_output_key) and, when `summary` is not empty, the
// summary. Paths are relative to the current folder. The same checks and errors as a job file.
std::unique_ptr<job> make_map_job(const std::string& molecule, const std::string& map, const std::string& summary,
                                  const std::vector<std::string>& overrides);
// The `output` key of a map file name: "dx" (.dx, .dx.gz), "mrc" (.mrc, .map) or "raw" (.raw, .raw.gz), any
// case; an input_error for any other name.
std::string map_output_key(const std::string& map);

}  // namespace ppl
