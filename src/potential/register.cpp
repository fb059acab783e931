// The potential family's one name -> factory table. The name is the config value `strategy`, the test parameter,
// the benchmark label and the profiling region. CUDA-only strategies (names ending in _cuda) are registered in
// every build and have a factory only in CUDA builds; asking for one elsewhere is an input error that says so.
#include "strategy_support.hpp"

namespace ppl {

const potential_registry& potential_strategies() {
  static const potential_registry table = [] {
    using namespace potential_detail;
    potential_registry r("potential strategy");
    r.add({"reference", "float64 loop on the host (OpenMP over points): the oracle", "host", make_reference});
    r.add({"scatter", "one thread per atom, atomic adds into the lattice (slow: contended atomics)", "all",
           make_scatter});
    r.add({"gather", "one thread per point, atoms from a View; rsqrt: fast|ieee", "all", make_gather});
    r.add({"gather_coarsened", "C consecutive points along x per thread (coarsening: 1|2|4|8|16)", "all",
           make_gather_coarsened});
    r.add({"gather_coalesced",
           "C points per thread strided by the block width, atoms tiled in team scratch (coarsening, block_width, "
           "block_rows, tile_atoms)",
           "all", make_gather_coalesced});
    r.add({"gather_constmem_cuda", "atoms in __constant__ memory (1920 per pass), coarsened + coalesced (coarsening)",
           "cuda", PPL_CUDA_ONLY(make_gather_constmem_cuda), build_requirement::cuda});
    r.add({"gather_hybrid_rsqrt_cuda",
           "gather_coalesced's tiles; of the coarsening 8|16 points per thread, software_points (at most half) use a "
           "software rsqrt on the FMA pipe",
           "cuda", PPL_CUDA_ONLY(make_gather_hybrid_rsqrt_cuda), build_requirement::cuda});
    return r;
  }();
  return table;
}

}  // namespace ppl
