#pragma once
// What a potential job reports: the map's extrema and where they are, the timing, the verification, the context.
// Printed as text and written as JSON (the `summary` output of `job: potential`).
#include <Kokkos_Core.hpp>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ppl/core/system_info.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/potential/physics.hpp"
#include "ppl/potential/verification.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

struct value_stats {
  double min = 0, max = 0, mean = 0;
  std::array<double, 3> min_position{}, max_position{};  // A; the first point in storage order on ties
  std::size_t points = 0;
};
value_stats compute_stats(const lattice& g, const float* values);                // values x fastest, g.size() of them
value_stats compute_stats(const lattice& g, Kokkos::View<const float*> values);  // the same on the device

struct timing_stats {
  int warmup = 0;
  std::vector<double> seconds;  // one per timed repeat, in run order
  double median = 0, min = 0, max = 0;
};
timing_stats summarize_times(int warmup, const std::vector<double>& seconds);

// One file the job wrote, how big and how long its writing took (wall clock around the writer: formatting,
// writing, fsync, rename). The summary's own entry is measured only after it is written: its JSON holds null.
struct output_file {
  std::string path;
  std::string format;  // "opendx", "mrc", "raw_float32" (with its JSON sidecar), "parboil_cutcp", "json" (the summary)
  std::uintmax_t bytes = 0;
  double seconds = 0;
  bool measured = true;
  std::string sidecar;  // raw_float32: the sidecar's path; its bytes are not counted, its time is
};

// "12.3 MB": decimal units (B, kB, MB, GB), 3 significant digits above 1 kB.
std::string human_bytes(std::uintmax_t bytes);

struct potential_summary {
  std::string job_file;
  std::string atoms_source;
  std::size_t atoms = 0;
  double net_charge = 0;
  lattice grid;
  bool single_plane = false;
  std::string strategy;         // as the job asked: a name or "auto"
  std::string strategy_chosen;  // the strategy that ran (= strategy unless auto)
  std::string strategy_params;  // auto: the strategy_params it set ("{key: value}"), "" when none
  std::string strategy_reason;  // auto: why (strategy_choice.hpp); otherwise "named in the job"
  interaction pair;             // what was summed
  physics_options physics;
  std::size_t excluded_points = 0;
  value_stats values;        // after units, permittivity and exclusion
  double setup_seconds = 0;  // the strategy's prepare() (staging, binning), once, apart from the timed computes
  timing_stats timing;
  double evaluations = 0;   // atom-point pair evaluations per compute
  double pairs_within = 0;  // of those, pairs inside the cutoff (cutoff strategies; 0: not counted)
  double pairs_loaded = 0;  // pairs brought in before any per-atom skip test (potential_plan::pairs_loaded)
  std::vector<std::pair<std::string, double>> breakdown;  // the strategy's own numbers (potential_plan::breakdown)
  double evaluations_per_s = 0;                           // at the median time
  verification_result verification;
  system_info system;
  std::vector<std::string> outputs;  // every path written, sidecars included
  std::vector<output_file> files;    // per output: format, bytes, seconds (JSON "outputs")
  int mpi_ranks = 0;                 // MPI builds: the ranks the map was split over (JSON "mpi"); 0: no MPI
};

// The rsqrt ceiling of a GPU in atom-evaluations/s (each evaluation needs one rsqrt): 16 rsqrt per clock per SM
// (the SFU rate of sm_70 and later) x SMs x SM clock; 0 when the device's SMs or clock are unknown (a CPU).
double rsqrt_ceiling_per_s(const system_info& s);

std::string to_text(const potential_summary& s);
// The summary of `job: potential` (docs/summary.schema.json): the common header, "outputs" and "map".
std::string to_json(const potential_summary& s);  // one JSON object, pretty-printed
// The map's part alone (the "map" object, which `job: ions` shares) and a timing block in seconds
// (warmup, repeats, samples_s, median_s, min_s, max_s), which sweep records share; JSON text, one object each.
std::string map_json(const potential_summary& s);
std::string timing_json(const timing_stats& t);

}  // namespace ppl
