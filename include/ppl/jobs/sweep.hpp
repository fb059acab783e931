#pragma once
// `job: sweep`: a base job (potential or solve) run at every point of a parameter space, one JSON-lines record per
// point (docs/sweep.md). The configuration is read and every point checked before any work, so `ppl validate`
// rejects a point a run would.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ppl/jobs/config.hpp"

namespace ppl {

// One override of the base job at a point: its dotted key, the value as flow YAML and as JSON, and where the
// sweep file says it (the place errors about the key name).
struct sweep_setting {
  std::string key, yaml, json, label;
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

}  // namespace ppl
