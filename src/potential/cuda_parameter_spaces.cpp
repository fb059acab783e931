// The parameters of the CUDA-only direct strategies. Their kernels (cuda/) are compiled only in CUDA builds, but the
// entries are registered in every build, so `ppl strategies --parameters` and the docs list their parameters
// everywhere; the fields are therefore declared here, in portable code (cutoff_binned_cuda's beside cutoff_binned's).
#include "coalesced_tiles.hpp"
#include "strategy_support.hpp"

namespace ppl {

const parameter_fields<gather_constmem_cuda_params>& gather_constmem_cuda_params::fields() {
  using P = gather_constmem_cuda_params;
  static const auto f =
      parameter_fields<P>()
          .integer_of("coarsening", &P::coarsening, {1, 2, 4, 8, 16}, "points per thread (C)")
          .integer("atoms_per_pass", &P::atoms_per_pass, 32, 1920,
                   "atoms per constant-memory pass and launch (smaller passes use less of the constant cache)");
  return f;
}

const parameter_fields<gather_hybrid_rsqrt_cuda_params>& gather_hybrid_rsqrt_cuda_params::fields() {
  static const auto f = [] {
    using P = gather_hybrid_rsqrt_cuda_params;
    parameter_fields<P> d;
    d.integer_of("coarsening", &P::coarsening, {8, 16, 32}, "points per thread (C)")
        .integer("software_points", &P::software_points, 0, 16,
                 "of the C points, how many take the software rsqrt (at most C / 2)");
    return potential_detail::tile_fields(d);
  }();
  return f;
}

}  // namespace ppl
