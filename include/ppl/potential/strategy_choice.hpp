#pragma once
// `strategy: auto` for the potential maps: which strategy (and which of its parameters) a job gets from the
// lattice, the atom count, the interaction and the build, with a one-line reason that `ppl run` prints and the
// summary records (map.strategy: chosen, reason). The rule (docs/potential.md, "strategy: auto"):
//  0. the msm interaction: msm (its short range by cutoff_binned_cuda on a CUDA build, else cutoff_binned);
//  1. a cutoff interaction: cutoff_binned_cuda on a CUDA build, else cutoff_binned;
//  1b. Coulomb, not periodic, with a verification tolerance of at least MSM's default (1e-3), when multilevel
//     summation at its defaults is predicted to do less than msm_work_fraction of direct summation's work: msm
//     (the job's interaction becomes kind msm with its defaults, and the summary says so);
//  2. Coulomb on a lattice whose point tiles do not fill the device: gather_atom_split (the atoms split too);
//  3. Coulomb otherwise: gather_coalesced (on CUDA gather_hybrid_rsqrt_cuda instead, or on a host gather_coarsened,
//     when auto_rule says so).
#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ppl/core/parameters.hpp"
#include "ppl/io/atoms.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

// Every threshold of the rule and of gather_atom_split's automatic chunking; the measurements each rests on are in
// docs/performance.md ("What `strategy: auto` rests on").
namespace auto_rule {
// Coulomb on a GPU whose SM count is known: gather_atom_split when gather_coalesced's point tiles (its default team
// shape, C = coalesced_coarsening) load the busiest SM split_imbalance times the mean or more.
constexpr double split_imbalance = 1.15;
// Otherwise: gather_atom_split when the tiles are fewer than fill_waves x the teams the device runs at once
// (concurrency / threads per team).
constexpr double fill_waves = 0.2;
// On a host a team is one thread: fewer tiles than threads leaves threads idle, so the split starts there.
constexpr double host_fill_waves = 1.0;
constexpr int coalesced_coarsening = 8;
// ... and only when the atoms make at least two chunks (fewer: gather_atom_split would be gather_coalesced).
// gather_atom_split with atoms_per_chunk: auto: chunks enough for point tiles x chunks >= split_target_waves x the
// teams resident at once, each chunk at least split_min_chunk_atoms atoms (below that a team writes or adds its
// C partial sums per thread for too few pairs).
constexpr int split_target_waves = 4;
constexpr int split_min_chunk_atoms = 128;
// CUDA, a full lattice: gather_hybrid_rsqrt_cuda, 1-4% faster than gather_coalesced on the H200 at up to 40 eps per
// term against 1.2, far inside the 1e-5 every map is checked against. The default is the faster.
constexpr bool cuda_prefers_hybrid_rsqrt = true;
// Rows (points along x) from which the hybrid keeps its default C = 32; shorter rows get C = 8.
constexpr int hybrid_long_row = 256;
// A host, a full lattice: gather_coalesced (the GPU's kernel; within a few per cent of gather_coarsened) unless set.
constexpr bool host_prefers_coarsened = false;
// Coulomb within a tolerance MSM meets: msm when its predicted work (msm_work, in direct-summation pair terms) is
// below this fraction of atoms x points. The costs per unit in direct pair terms, measured on the H200
// (perf/results/msm-h200, the cutoff kernel's 1.4e12 pairs/s against direct summation's 4e12) and on 2 CPU cores
// (docs/msm.md: the actin dimer at 1 A, short range 0.42 s for 4.9e7 pairs within a, the finest lattice cutoff
// 0.16 s for 8.1e8 terms, against 7.0 s for 1.4e10 direct pairs): a pair within a of the short range, a
// lattice-cutoff term, a map point's interpolation, a compute's fixed cost (kernel launches).
constexpr double msm_work_fraction = 0.5;
constexpr double msm_short_pair_cost_gpu = 3.5, msm_short_pair_cost_host = 17.0;
constexpr double msm_grid_term_cost = 0.5, msm_point_cost = 30.0;
constexpr double msm_fixed_cost_gpu = 1e9, msm_fixed_cost_host = 2e7;
}  // namespace auto_rule

// What the rule looks at.
struct potential_problem_summary {
  std::array<int, 3> dims{1, 1, 1};
  std::size_t atoms = 0;
  interaction pair;
  bool periodic = false;
  bool cuda = false;        // the default execution space is CUDA (the _cuda strategies run)
  bool gpu = false;         // the default execution space is a GPU
  int concurrency = 1;      // DefaultExecutionSpace::concurrency(): threads the device runs at once
  int multiprocessors = 0;  // the GPU's SMs (0: not a GPU, or not known)
  double spacing = 0.5;     // the lattice's (A)
  double tolerance = 1e-5;  // the job's verification tolerance (what an approximation must meet)
};

// MSM's predicted work at parameters m for the problem, in direct-summation pair terms (auto_rule's costs): short
// range atoms x (4/3 pi a^3 / spacing^3) points (at most atoms x points), the lattice cutoffs over the map's box at
// spacing h (8/7 of the finest level), the interpolation per point, a fixed cost.
double msm_work(const potential_problem_summary& p, const msm_parameters& m);
// This build's backend and concurrency (Kokkos initialised) for a lattice, atom count and interaction.
potential_problem_summary summarize_problem(const lattice& g, std::size_t atoms, const interaction& pair);

struct potential_choice {
  std::string strategy;
  parameter_values parameters;  // strategy_params it sets (make_potential_strategy takes them); the rest are defaults
  std::string reason;           // one line, for `ppl run` and the summary
  bool use_msm = false;         // Coulomb by multilevel summation: the job's interaction becomes msm_interaction()
  std::string parameters_yaml() const;  // "{key: value, ...}", "" when none
};

potential_choice choose_potential_strategy(const potential_problem_summary& p);

// `strategy: auto` made: the rule's choice for these atoms, lattice and interaction (tolerance: what the caller
// accepts of an approximation, the job's verification tolerance), built, and checked against the problem. When the
// choice's own check refuses the problem (a 500 A cutoff gives cutoff_binned more bins in reach than it holds), the
// next strategy that supports the interaction and accepts it, in the order of their speed; the reference (float64,
// every pair) accepts whatever the lattice limits allow. When none accepts: the choice itself, whose check() says why.
// What the job (`strategy: auto`) and the Python module (strategy="auto") both run.
struct auto_strategy {
  std::unique_ptr<potential_strategy> strategy;
  std::string name;             // the strategy that runs
  std::string parameters_yaml;  // its parameters chosen by the rule ("{key: value}"), "" when none
  std::string reason;           // one line
  interaction pair;             // the interaction it sums: Coulomb may become MSM (potential_choice::use_msm)
};
auto_strategy make_auto_strategy(const atoms& a, const lattice& g, const interaction& pair, double tolerance,
                                 const std::string& where);

}  // namespace ppl
