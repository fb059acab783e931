// The potential family's one name -> factory table. The name is the config value `strategy`, the test parameter,
// the benchmark label and the profiling region. CUDA-only strategies (names ending in _cuda) are registered in
// every build and have a factory only in CUDA builds; asking for one elsewhere is an input error that says so.
#include "ppl/core/error.hpp"
#include "strategy_support.hpp"

namespace ppl {

const potential_registry& potential_strategies() {
  static const potential_registry table = [] {
    using namespace potential_detail;
    potential_registry r("potential strategy");
    const std::vector<std::string> coulomb{"coulomb"}, any{"coulomb", "cutoff", "periodic"},
        cutoff{"cutoff", "periodic"};
    r.add({"reference",
           "float64 loop on the host (OpenMP over points): the oracle",
           "host",
           make_reference,
           build_requirement::none,
           any,
           {}});
    r.add({"cutoff_reference",
           "float64 cell list on the host (cells >= the radius, 27 neighbours; OpenMP over points): the cutoff oracle",
           "host",
           make_cutoff_reference,
           build_requirement::none,
           cutoff,
           {}});
    r.add({"scatter",
           "one thread per atom, atomic adds into the lattice (slow: contended atomics)",
           "all",
           make_scatter,
           build_requirement::none,
           coulomb,
           {}});
    r.add({"gather", "one thread per point, atoms from a View; rsqrt: fast|ieee", "all", make_gather,
           build_requirement::none, coulomb, gather_parameters()});
    r.add({"gather_coarsened", "C consecutive points along x per thread (coarsening: 1|2|4|8|16)", "all",
           make_gather_coarsened, build_requirement::none, coulomb, gather_coarsened_parameters()});
    r.add({"gather_coalesced",
           "C points per thread strided by the block width, atoms tiled in team scratch (coarsening, block_width, "
           "block_rows, tile_atoms)",
           "all", make_gather_coalesced, build_requirement::none, coulomb, gather_coalesced_parameters()});
    r.add({"gather_atom_split",
           "gather_coalesced's tiles for small lattices: point tiles x atom chunks teams, each summing one chunk; "
           "partial sums combined by atomics or a deterministic second pass (combine, atoms_per_chunk, coarsening, "
           "block_width, block_rows, tile_atoms)",
           "all", make_gather_atom_split, build_requirement::none, coulomb, gather_atom_split_parameters()});
    r.add(
        {"cutoff_binned",
         "small bins of fixed capacity sorted on the device, a region's neighbourhood offset list, bins staged in team "
         "scratch, C points per thread with a per-atom segment test, overflow atoms on the host (bin_edge, "
         "bin_capacity, coarsening, region, atom_test, team_size, stage_atoms)",
         "all", make_cutoff_binned, build_requirement::none, cutoff, cutoff_binned_parameters()});
    r.add({"cutoff_large_bins",
           "the lecture's baseline: bins as large as the cutoff, a region reads the 3 x 3 x 3 around it (the same "
           "kernel as cutoff_binned, one bin per stage)",
           "all", make_cutoff_large_bins, build_requirement::none, cutoff, cutoff_large_bins_parameters()});
    r.add({"gather_constmem_cuda", "atoms in __constant__ memory (1920 per pass), coarsened + coalesced (coarsening)",
           "cuda", PPL_CUDA_ONLY(make_gather_constmem_cuda), build_requirement::cuda, coulomb,
           gather_constmem_cuda_parameters()});
    r.add({"gather_hybrid_rsqrt_cuda",
           "gather_coalesced's tiles; of the coarsening 8|16 points per thread, software_points (at most half) use a "
           "software rsqrt on the FMA pipe",
           "cuda", PPL_CUDA_ONLY(make_gather_hybrid_rsqrt_cuda), build_requirement::cuda, coulomb,
           gather_hybrid_rsqrt_cuda_parameters()});
    r.add({"cutoff_binned_cuda",
           "cutoff_binned's plan; the offset list in __constant__ memory, each block's bins packed into __shared__ "
           "stages of stage_atoms atoms, C points per thread in registers (bin_edge, bin_capacity, coarsening, "
           "region, atom_test, stage_atoms)",
           "cuda", PPL_CUDA_ONLY(make_cutoff_binned_cuda), build_requirement::cuda, cutoff,
           cutoff_binned_cuda_parameters()});
    return r;
  }();
  return table;
}

bool supports(const potential_registry::entry& e, const interaction& physics, bool periodic) {
  return e.can(config_name(physics.kind)) && (!periodic || e.can("periodic"));
}

std::unique_ptr<potential_strategy> make_potential_strategy(const std::string& name, const config_node* params,
                                                            const interaction& physics, const std::string& where,
                                                            bool periodic) {
  const auto& entry = potential_strategies().get(name, where);
  if (!supports(entry, physics, periodic)) {
    std::string able;
    for (const auto& e : potential_strategies().entries())
      if (supports(e, physics, periodic)) able += (able.empty() ? "" : ", ") + e.name;
    throw input_error(where + ": potential strategy '" + name + "' does not support the " + config_name(physics.kind) +
                      " interaction" + (periodic ? " on a periodic lattice" : "") +
                      "; strategies that do: " + (able.empty() ? "none" : able));
  }
  auto s = entry.factory(params);
  if (params != nullptr) params->check_all_used();
  return s;
}

}  // namespace ppl
