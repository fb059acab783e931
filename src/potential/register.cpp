// The potential family's one name -> factory table. The name is the config value `strategy`, the test parameter,
// the benchmark label and the profiling region. CUDA-only strategies (names ending in _cuda) are registered in
// every build and have a factory only in CUDA builds; asking for one elsewhere is an input error that says so.
#include "ppl/core/error.hpp"
#include "ppl/potential/strategies.hpp"
#include "strategy_support.hpp"

namespace ppl {
namespace {

// An entry whose factory converts values by name to P (checked, from_values) and calls the typed factory, and whose
// declared space is P's: one struct is the source of both. `make` is null where the build lacks the strategy
// (PPL_CUDA_ONLY), and so is the factory then.
template <class P>
potential_registry::entry strategy(std::string name, std::unique_ptr<potential_strategy> (*make)(const P&)) {
  return potential_registry::entry::named(std::move(name))
      .with_factory(make != nullptr ? potential_factory(from_values<P>(make)) : potential_factory())
      .with_parameters(P::fields().space());
}

}  // namespace

const potential_registry& potential_strategies() {
  static const potential_registry table = [] {
    potential_registry r("potential strategy");
    const std::vector<std::string> coulomb{"coulomb"}, any{"coulomb", "cutoff", "msm", "periodic"},
        cutoff{"cutoff", "periodic"}, msm{"msm"};
    // z_slab: the kernels compute z from lattice::first_plane, so a slab's points get the whole lattice's bits.
    const std::vector<std::string> coulomb_slab{"coulomb", "z_slab"},
        any_slab{"coulomb", "cutoff", "msm", "periodic", "z_slab"};
    r.add(strategy<no_parameters>("reference", make_reference)
              .with_description("float64 loop on the host (OpenMP over points): the oracle")
              .with_backends("host")
              .with_capabilities(any_slab));
    r.add(strategy<no_parameters>("cutoff_reference", make_cutoff_reference)
              .with_description("float64 cell list on the host (cells >= the radius, 27 neighbours; OpenMP over "
                                "points): the cutoff oracle")
              .with_backends("host")
              .with_capabilities(cutoff));
    r.add(strategy<no_parameters>("scatter", make_scatter)
              .with_description("one thread per atom, atomic adds into the lattice (slow: contended atomics)")
              .with_backends("all")
              .with_capabilities(coulomb));
    r.add(strategy<gather_params>("gather", make_gather)
              .with_description("one thread per point, atoms from a View; rsqrt: fast|ieee")
              .with_backends("all")
              .with_capabilities(coulomb_slab));
    r.add(strategy<gather_coarsened_params>("gather_coarsened", make_gather_coarsened)
              .with_description("C consecutive points along x per thread (coarsening: 1|2|4|8|16)")
              .with_backends("all")
              .with_capabilities(coulomb_slab));
    r.add(strategy<gather_coalesced_params>("gather_coalesced", make_gather_coalesced)
              .with_description("C points per thread strided by the block width, atoms tiled in team scratch "
                                "(coarsening, block_width, block_rows, tile_atoms)")
              .with_backends("all")
              .with_capabilities(coulomb_slab));
    r.add(strategy<gather_atom_split_params>("gather_atom_split", make_gather_atom_split)
              .with_description("gather_coalesced's tiles for small lattices: point tiles x atom chunks teams, each "
                                "summing one chunk; partial sums combined by atomics or a deterministic second pass "
                                "(combine, atoms_per_chunk, coarsening, block_width, block_rows, tile_atoms)")
              .with_backends("all")
              .with_capabilities(coulomb));
    r.add(strategy<cutoff_binned_params>("cutoff_binned", make_cutoff_binned)
              .with_description("small bins of fixed capacity sorted on the device, a region's neighbourhood offset "
                                "list, bins staged in team scratch, C points per thread with a per-atom segment test, "
                                "overflow atoms on the host (bin_edge, bin_capacity, coarsening, region, atom_test, "
                                "team_size, stage_atoms)")
              .with_backends("all")
              .with_capabilities(cutoff));
    r.add(strategy<cutoff_large_bins_params>("cutoff_large_bins", make_cutoff_large_bins)
              .with_description("the lecture's baseline: bins as large as the cutoff, a region reads the 3 x 3 x 3 "
                                "around it (the same kernel as cutoff_binned, one bin per stage)")
              .with_backends("all")
              .with_capabilities(cutoff));
    r.add(strategy<msm_params>("msm", make_msm)
              .with_description("multilevel summation: the short range by a binned cutoff kernel (short_range), the "
                                "rest on a grid hierarchy (anterpolation, restriction, lattice cutoffs, a direct top "
                                "level, prolongation, interpolation), all Kokkos kernels")
              .with_backends("all")
              .with_capabilities(msm));
    r.add(strategy<gather_constmem_cuda_params>("gather_constmem_cuda", PPL_CUDA_ONLY(make_gather_constmem_cuda))
              .with_description("atoms in __constant__ memory (1920 per pass), coarsened + coalesced (coarsening)")
              .with_backends("cuda")
              .with_needs(build_requirement::cuda)
              .with_capabilities(coulomb));
    r.add(strategy<gather_hybrid_rsqrt_cuda_params>("gather_hybrid_rsqrt_cuda",
                                                    PPL_CUDA_ONLY(make_gather_hybrid_rsqrt_cuda))
              .with_description("gather_coalesced's tiles; of the coarsening 8|16 points per thread, software_points "
                                "(at most half) use a software rsqrt on the FMA pipe")
              .with_backends("cuda")
              .with_needs(build_requirement::cuda)
              .with_capabilities(coulomb));
    r.add(strategy<cutoff_binned_cuda_params>("cutoff_binned_cuda", PPL_CUDA_ONLY(make_cutoff_binned_cuda))
              .with_description("cutoff_binned's plan; the offset list in __constant__ memory, each block's bins "
                                "packed into __shared__ stages of stage_atoms atoms, C points per thread in registers "
                                "(bin_edge, bin_capacity, coarsening, region, atom_test, stage_atoms)")
              .with_backends("cuda")
              .with_needs(build_requirement::cuda)
              .with_capabilities(cutoff));
    return r;
  }();
  return table;
}

bool supports(const potential_registry::entry& e, const interaction& physics, bool periodic) {
  return e.can(config_name(physics.kind)) && (!periodic || e.can("periodic"));
}

std::unique_ptr<potential_strategy> make_potential_strategy(const std::string& name, const parameter_values& params,
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
  return entry.factory(params);
}

}  // namespace ppl
