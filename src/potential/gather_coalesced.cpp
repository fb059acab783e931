// `gather_coalesced`: the portable kernel meant to reach the rsqrt ceiling (the kernel itself is in
// coalesced_tiles.hpp, shared with gather_hybrid_rsqrt_cuda).
//  - Coalesced coarsening: C points per thread strided by the team width, so each store of a warp is contiguous,
//    where gather_coarsened's writes were C floats apart.
//  - Atom tiles in team scratch: the team copies tile_atoms atoms from global memory into scratch (shared memory
//    on a GPU) once and every thread reads them from there (one broadcast 16-byte load per atom, amortised over C
//    pairs), instead of every thread fetching every atom through the cache hierarchy.
//  - The inner loop is kernels::accumulate_row: per pair one subtraction, one FMA, one rsqrt, one FMA; the
//    singularity test runs once per atom and row (warp-uniform), not per pair.
#include "coalesced_tiles.hpp"

namespace ppl::potential_detail {
namespace {

class coalesced_strategy final : public direct_strategy {
 public:
  coalesced_strategy(int c, tile_shape shape) : c_(c), shape_(shape) {}

  void compute(const execution& space, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
    profiling_region region("gather_coalesced");
    const direct_plan& p = plan_of(plan);
    space.visit([&](const auto& s) {
      with_coarsening(c_, [&](auto tag) {
        launch_coalesced<decltype(tag)::value, portable_row>(s, "gather_coalesced", p.atoms, p.grid, out, shape_,
                                                             mode == write_mode::accumulate);
      });
    });
    space.fence();
  }

 private:
  int c_;
  tile_shape shape_;
};

}  // namespace
}  // namespace ppl::potential_detail

namespace ppl {

const parameter_fields<gather_coalesced_params>& gather_coalesced_params::fields() {
  static const auto f = [] {
    parameter_fields<gather_coalesced_params> d;
    d.integer_of("coarsening", &gather_coalesced_params::coarsening, {1, 2, 4, 8, 16}, "points per thread (C)");
    return potential_detail::tile_fields(d);
  }();
  return f;
}

std::unique_ptr<potential_strategy> make_gather_coalesced(const gather_coalesced_params& p) {
  using namespace potential_detail;
  gather_coalesced_params::fields().check(p);
  const tile_shape shape = tile_shape_of(p);
  with_coarsening(p.coarsening,
                  [&](auto tag) { check_tile_shape<decltype(tag)::value, portable_row>("gather_coalesced", shape); });
  return std::make_unique<coalesced_strategy>(p.coarsening, shape);
}

}  // namespace ppl
