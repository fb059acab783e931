#pragma once
// `strategy: auto` for the potential maps: which strategy (and which of its parameters) a job gets from the
// lattice, the atom count, the interaction and the build, with a one-line reason that `ppl run` prints and the
// summary records (strategy_chosen, strategy_reason). The rule (docs/potential.md, "strategy: auto"):
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

// Every threshold of the rule and of gather_atom_split's automatic chunking. What they rest on:
//  - perf/results/h200-run4 (docs/potential.md, run 4): 256x256x64 with 40k atoms, gather_coalesced 3.935e12/s,
//    gather_hybrid_rsqrt_cuda 3.974e12/s: 1024 point tiles of 512 threads, about 1.9 times the 528 teams the H200
//    runs at once (132 SMs x 2048 threads / 512), so a lattice that size fills the device without splitting atoms;
//  - issue 11: the PMPP plane (100 x 100 points, 10,000 atoms) makes 4 such tiles, gather_coalesced 1.36 ms for a
//    compute limit of 24 us;
//  - perf/results/potential-openmp.json: on OpenMP gather_coarsened (C = 8) and gather_coalesced were within 3% of
//    each other (928 against 951 ms at gather_coalesced's best C, 886 against 911 ms on the PMPP plane), measured
//    with the 2 cores loaded 6-8 times over; on the same machine less loaded, gather_coalesced (C = 8) was 6-7% ahead
//    of gather_coarsened on both scenarios (not committed). Re-measure before relying on either.
//  - perf/results/atom-split-h200 (perf/device/atom_split.sh, H200): gather_atom_split beat gather_coalesced by 7.9x
//    at 16 of gather_coalesced's point tiles (256 x 256 x 1, 40k atoms) and 2.1x at 64, was equal at 128 and 256;
//    on the PMPP lattice (100 x 100 x 50, 129 tiles once the block width stopped padding its rows)
//    gather_coalesced was faster, 3.61e12 against 3.49e12 atom-evaluations/s (round5.txt). So fill_waves = 0.2 of
//    the 528 teams the H200 runs at once (105 tiles). On the plane chunks of 128 atoms were 5% faster than 64 at
//    C = 4 (48.3 against 51.0 us), 32 slower (57.1).
//  - the same measurements read per SM (the kernels are bound by each SM's rsqrt unit, so an SM's time grows with
//    the teams it is given, however many of them it runs at once): gather_coalesced's T point tiles on S SMs leave
//    the busiest SM ceil(T / S) teams where the mean is T / S. On the H200 (S = 132) gather_atom_split won where that
//    ratio was large -- 256 x 256 x 1, 2, 4 with 40k atoms: 16, 32, 64 tiles (ratios 8.3, 4.1, 2.1; split 8.0x,
//    4.1x, 2.1x faster, atom-split-h200), ubiquitin's 305 (1.30; 13%, auto-h200) -- and tied or lost where it was
//    small: 256 x 256 x 8 and x 16 (128 and 256 tiles, 1.03: equal), the PMPP lattice's 129 (1.02: gather_coalesced
//    4% faster), 256 x 256 x 64's 1024 (1.03: equal). So split_imbalance = 1.15.
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
// CUDA, a full lattice: gather_hybrid_rsqrt_cuda against gather_coalesced, the same call each time: 1.0% faster on
// 256x256x64 (run 4), 2.9% on the PMPP lattice (1.338 against 1.378 ms) and 3.6% on the 400^3 ions map (1.573
// against 1.632 s; perf/results/round9-h200). Its software rsqrt costs up to 40 eps per term against 1.2, which moved
// the maps' sampled relative L2 error from 2.26e-6 to 2.47e-6 (PMPP) and 1.63e-6 to 1.95e-6 (ubiquitin): far inside
// the 1e-5 every map is checked against. The default is the faster.
constexpr bool cuda_prefers_hybrid_rsqrt = true;
// A host, a full lattice: gather_coalesced (the GPU's kernel; see potential-openmp.json above) unless this is set.
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
