// The parameter spaces of the CUDA-only strategies. Their kernels (cuda/) are compiled only in CUDA builds, but the
// entries are registered in every build, so `ppl strategies --parameters` and the docs list their parameters
// everywhere; the spaces therefore live here, in portable code.
#include "coalesced_tiles.hpp"
#include "strategy_support.hpp"

namespace ppl::potential_detail {

const parameter_space& gather_constmem_cuda_parameters() {
  static const parameter_space space{
      {"coarsening", parameter_type::integer, {"1", "2", "4", "8", "16"}, 1, 16, "8", "", "points per thread (C)"},
      {"atoms_per_pass",
       parameter_type::integer,
       {},
       32,
       1920,
       "1920",
       "",
       "atoms per constant-memory pass and launch (smaller passes use less of the constant cache)"}};
  return space;
}

const parameter_space& gather_hybrid_rsqrt_cuda_parameters() {
  static const parameter_space space = [] {
    parameter_space s{{"coarsening", parameter_type::integer, {"8", "16"}, 8, 16, "8", "", "points per thread (C)"},
                      {"software_points",
                       parameter_type::integer,
                       {},
                       0,
                       8,
                       "1",
                       "",
                       "of the C points, how many take the software rsqrt (at most C / 2)"}};
    for (auto& t : tile_parameters()) s.push_back(t);
    return s;
  }();
  return space;
}

}  // namespace ppl::potential_detail
