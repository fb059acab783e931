#pragma once
// `job: potential`: the configuration, read and checked completely before any work (docs/config.md, "potential").
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ppl/core/progress.hpp"
#include "ppl/io/atoms.hpp"
#include "ppl/jobs/config.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/potential/physics.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/potential/summary.hpp"
#include "ppl/potential/verification.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

// What every job built on a potential map reads the same way (`job: potential`, `job: ions`): the structure
// (`input`), the lattice, the physics and interaction, the strategy, the verification of the map and its timing.
struct potential_map_config {
  std::string job_file;
  atoms input;  // already read / generated
  lattice grid;
  bool single_plane = false;
  physics_options physics{potential_units::kT_per_e};  // the job's default units (the struct's are raw e/A)
  interaction pair;                // physics.interaction
  std::string strategy_requested;  // `strategy` as written: a registered name or "auto" (the default)
  std::string strategy_name;       // the strategy that runs (auto: the one chosen)
  std::string strategy_params;     // auto: the strategy_params it chose ("{key: value}"), "" when none
  std::string strategy_reason;     // auto: why; otherwise "named in the job"
  std::unique_ptr<potential_strategy> strategy;
  verification_options verification;
  int warmup = 0, repeats = 1;  // one map unless timing asks for more (perf/ and sweeps do)
};

// What a job that reuses the map's keys allows of them (the potential job allows everything).
struct potential_map_rules {
  std::string job = "potential";       // named in the errors of keys it does not allow
  double default_padding = 10.0;       // lattice.padding when the lattice is built around the atoms
  bool plane_and_periodic = true;      // lattice.plane_z and lattice.periodic
  bool exclusion_radius = true;        // physics.exclusion_radius
  double extra_bytes_per_point = 0.0;  // the job's own per-point memory, on the host and on a GPU, besides the map
};

// Reads input, lattice, physics, strategy (+ strategy_params), verification and timing, loads the atoms and runs
// the strategy's configuration-time check. Bad input -> input_error naming file:line:col and the key.
void read_potential_map(const config_node& root, potential_map_config& m, const potential_map_rules& rules = {});

// Computing the map of `m` into `out` as both jobs do: prepare() (the set-up, timed apart and its breakdown said),
// then warmup + repeats computes in overwrite mode, each between two fences; every step through `say`.
//
// A map computed once (warmup 0, repeats 1: the default) on a non-periodic lattice of more than 2^21 points is
// computed in z slabs of at least 2^20 points (at most 16 slabs), each prepared and computed as a lattice of its
// own into its part of `out` (x fastest: a slab is contiguous), so a progress bar can follow it; set-up and compute
// times are then the sums over the slabs, the pair counts their sums and the breakdown summed (times, counts) or
// the largest (sizes). Timed repeats always compute the whole lattice, as perf/ measures it.
struct map_timing {
  std::unique_ptr<potential_plan> plan;  // the whole lattice's, or the last slab's
  double setup_seconds = 0;
  std::vector<double> seconds;  // the timed repeats
  int slabs = 1;
  double pairs_examined = 0, pairs_within = 0, pairs_loaded = 0;
  std::vector<std::pair<std::string, double>> breakdown;
};

// Where a job's progress bars go, once a step has taken 2 s: a bar redrawn in place on stderr when it is a
// terminal, else a line per tenth of the step on the job's output stream; nowhere when quiet.
struct progress_sink {
  std::ostream* out = nullptr;
  bool terminal = false;
};
progress_sink progress_of(const job_context& ctx);
std::optional<progress_bar> make_progress(const progress_sink& sink, std::size_t total);

// A progress bar over the points a verification checks, made at its first chunk (none when the sink has no stream).
verification_progress verification_bar(const progress_sink& sink);

// The z ranges [k0, k1) compute_map computes the map in (one range: the whole lattice).
std::vector<std::pair<int, int>> map_slabs(const potential_map_config& m);

map_timing compute_map(const potential_map_config& m, potential_view out,
                       const std::function<void(const std::string&)>& say, const progress_sink& progress = {});

// The map's part of a summary (job, atoms, lattice, strategy, physics, set-up and compute times, evaluations, the
// plan's breakdown, the system); the caller adds the values, the verification and the outputs.
void describe_map(potential_summary& s, const potential_map_config& m, const map_timing& t);

struct potential_job_config : potential_map_config {
  std::optional<std::string> dx, mrc, raw, parboil_cutcp, summary;  // output paths (relative to the working folder)
};

// Reads every key of the job (the strategy factory reads strategy_params), loads the atoms and checks that the
// outputs can be written. Bad input -> input_error naming file:line:col and the key.
potential_job_config read_potential_job(const config_node& root);

}  // namespace ppl
