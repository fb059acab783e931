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

  void compute(const potential_plan& plan, potential_view out, write_mode mode) const override {
    profiling_region region("gather_coalesced");
    const direct_plan& p = plan_of(plan);
    with_coarsening(c_, [&](auto tag) {
      launch_coalesced<decltype(tag)::value, portable_row>("gather_coalesced", p.atoms, p.grid, out, shape_,
                                                           mode == write_mode::accumulate);
    });
    Kokkos::fence();
  }

 private:
  int c_;
  tile_shape shape_;
};

}  // namespace

const parameter_space& gather_coalesced_parameters() {
  static const parameter_space space = [] {
    parameter_space s{
        {"coarsening", parameter_type::integer, {"1", "2", "4", "8", "16"}, 1, 16, "8", "", "points per thread (C)"}};
    for (auto& t : tile_parameters()) s.push_back(t);
    return s;
  }();
  return space;
}

std::unique_ptr<potential_strategy> make_gather_coalesced(const config_node* params) {
  const parameter_reader r = read_parameters(gather_coalesced_parameters(), params);
  const int c = r.integer("coarsening");
  const tile_shape shape = read_tile_shape(r);
  with_coarsening(
      c, [&](auto tag) { check_tile_shape<decltype(tag)::value, portable_row>("gather_coalesced", params, shape); });
  return std::make_unique<coalesced_strategy>(c, shape);
}

}  // namespace ppl::potential_detail
