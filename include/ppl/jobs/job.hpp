#pragma once
// Jobs: `job: <kind>` in a YAML file picks a factory from the job registry. A factory reads and checks the whole
// configuration (so `ppl validate` and every error happen before any work); run() then does the work.
#include <chrono>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "ppl/jobs/config.hpp"
#include "ppl/core/registry.hpp"

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

}  // namespace ppl
