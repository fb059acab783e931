#pragma once
// `strategy: auto` for the potential maps: which strategy (and which of its parameters) a job gets from the
// lattice, the atom count, the interaction and the build, with a one-line reason that `ppl run` prints and the
// summary records (map.strategy: chosen, reason). The rule (docs/potential.md, "strategy: auto"):
//  0. the msm interaction: msm (its short range by cutoff_binned_cuda on a CUDA build, else cutoff_binned);
//  1. a cutoff interaction: cutoff_binned_cuda on a CUDA build, else cutoff_binned;
//  2. Coulomb on a lattice whose point tiles do not fill the device: gather_atom_split (the atoms split too);
//  3. Coulomb otherwise: gather_coalesced (on CUDA gather_hybrid_rsqrt_cuda instead, or on a host gather_coarsened,
//     when auto_rule says so).
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "ppl/core/parameters.hpp"
#include "ppl/potential/interaction.hpp"
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
// A host, a full lattice: gather_coalesced (the GPU's kernel; within a few per cent of gather_coarsened) unless set.
constexpr bool host_prefers_coarsened = false;
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
};
// This build's backend and concurrency (Kokkos initialised) for a lattice, atom count and interaction.
potential_problem_summary summarize_problem(const lattice& g, std::size_t atoms, const interaction& pair);

struct potential_choice {
  std::string strategy;
  parameter_values parameters;   // strategy_params it sets (make_potential_strategy takes them); the rest are defaults
  std::string reason;            // one line, for `ppl run` and the summary
  std::string parameters_yaml() const;  // "{key: value, ...}", "" when none
};

potential_choice choose_potential_strategy(const potential_problem_summary& p);

}  // namespace ppl
