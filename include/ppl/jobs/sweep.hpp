#pragma once
// `job: sweep`: a base job (potential or solve) run at every point of a parameter space, one JSON-lines record per
// point (docs/sweep.md). The configuration is read and every point checked before any work, so `ppl validate`
// rejects a point a run would.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ppl/jobs/config.hpp"

namespace ppl {

// One override of the base job at a point: its dotted key, the value as flow YAML and as JSON, where the sweep
// file says it (the place errors about the key name) and the folder a relative path in it resolves against (the
// sweep file's; "" for the current folder when `vary` came from --set).
struct sweep_setting {
  std::string key, yaml, json, label, folder;
};

struct sweep_point {
  std::size_t index = 0;                // in expansion order
  std::vector<sweep_setting> settings;  // vary (and zip) keys first, then the declared space's parameters
  std::string strategy;                 // the strategy it runs (potential: strategy; solve: spmv.strategy)
  std::string text() const;             // "strategy=gather strategy_params.coarsening=4"
};

struct sweep_config {
  std::string file;                    // the sweep file
  std::string name;                    // the study (`name`, default the sweep file's name without .yaml)
  std::string base_kind;               // potential | solve
  std::string base_file;               // "" when the base is inline
  std::optional<config_node> base;     // the base job's tree; every point starts from a copy()
  std::optional<int> warmup, repeats;  // given in the sweep (potential: override timing.*; solve: default 1 and 3)
  std::string warmup_label, repeats_label;
  std::vector<std::string> varied;   // the vary keys, in document order
  std::vector<sweep_point> points;   // runnable in this build, in expansion order
  std::vector<std::string> skipped;  // points this build cannot run: "<point>: <strategy> needs a CUDA build"
  std::string results, csv;          // output.results and its CSV view
  std::string lock;                  // the lock file beside the results (sweep_lock)
  std::string results_where;         // where output.results is written ("sweep.yaml:12:3"), for messages
  std::vector<std::string> records;  // the results file's records when the sweep was read, one JSON object a line
};

// Reads the sweep (base, vary, zip, space, warmup, repeats, output), expands the points, checks each one as the
// base job's reader would and reads the records already in the results file (each must be a JSON object with a
// "key": a file that is not ppl's results is refused, not overwritten). Bad input -> input_error naming file:line:col
// and the key.
sweep_config read_sweep_config(const config_node& root);

// The base job's tree at a point: a fresh copy with the point's settings (and the sweep's timing) applied.
config_node sweep_point_config(const sweep_config& s, const sweep_point& p);

// Reads the base job at a point completely (as `job: potential` / `job: solve` would, the base's `output` section
// aside: a sweep writes only its results) and checks that every key was used.
void check_sweep_point(const sweep_config& s, const sweep_point& p);

// The CSV view's path of a results file: x.jsonl -> x.csv, anything else + ".csv".
std::string sweep_csv_path(const std::string& results);

// The records of a results file, one JSON object with a "key" per line (empty lines skipped; none when the file
// does not exist). A line longer than max_record_bytes, or one that is not such a record, is an input_error naming
// results:line: the file is not ppl's results, and is refused rather than overwritten.
constexpr std::size_t max_record_bytes = std::size_t(1) << 20;
std::vector<std::string> read_sweep_records(const std::string& results);

// One sweep at a time per results file: an exclusive flock(2) on "<results>.lock", taken for the whole run and
// removed when the run ends (also on SIGINT, SIGTERM, SIGHUP). A second sweep on the same results file is bad input
// (exit 2, one line naming the file and the process holding it); so is validating while one runs (check_only).
class sweep_lock {
 public:
  sweep_lock(const std::string& lock_path, const std::string& where);
  ~sweep_lock();
  sweep_lock(const sweep_lock&) = delete;
  sweep_lock& operator=(const sweep_lock&) = delete;
  // Fails as the constructor would when another process holds the lock; creates nothing.
  static void check_free(const std::string& lock_path, const std::string& where);

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace ppl
