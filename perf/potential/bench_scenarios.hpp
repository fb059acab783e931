#pragma once
// Inputs of the potential benchmarks. The list of scenarios and variants is known before Kokkos starts (benchmarks
// are registered during static initialisation); a scenario's atoms, device copy and output are built on first use
// and kept until Kokkos finalizes.
#include <functional>
#include <string>
#include <vector>

#include "ppl/core/parameters.hpp"
#include "ppl/potential/potential_strategy.hpp"

namespace ppl::bench {

struct scenario_spec {
  std::string name;      // used in benchmark names
  bool sweeps = false;   // run the parameter sweeps here
  bool slow_ok = false;  // small enough for reference / scatter
  std::function<void(lattice&, atoms&)> build;
};

// GPU builds: 256x256x64 with 20k and 40k random atoms; the PMPP scenario (10k atoms in [0,50]x[0,50]x[0,25] A,
// charges in [-2, 2], seed 42) on the 100x100 plane at z = 10 A and on the full 100x100x50 lattice. Host builds:
// 64x64x16 with 2k atoms, and the PMPP slice.
const std::vector<scenario_spec>& scenario_specs();

struct scenario {
  lattice g;
  atoms host;
  device_atoms device;
  potential_view out;
};
const scenario& scenario_data(const scenario_spec& spec);  // needs Kokkos initialized

struct variant {
  std::string label;      // benchmark name part, e.g. gather_coalesced/C=4
  std::string strategy;   // registry name, or the baseline kind (rsqrtf | ftz)
  parameter_values params;  // by name, empty for defaults
  bool baseline = false;  // hand-written CUDA kernel, not a registry entry
  bool sweep = false;     // only where scenario_spec::sweeps
  bool slow = false;      // only where scenario_spec::slow_ok
};
std::vector<variant> variants();

// "{coarsening: 4, tile_atoms: 7}" for a benchmark's label, "" for defaults.
std::string params_text(const parameter_values& params);

}  // namespace ppl::bench
