// `gather_coarsened`: each thread computes C consecutive points along x (C in {1, 2, 4, 8, 16}). Per atom the
// thread loads the atom once and computes dy^2 + dz^2 once for its C points (they share y and z); what is left per
// pair is one subtraction, one FMA for r^2, the rsqrt and the accumulating FMA. The shared dy^2 + dz^2 also lets
// the singularity test run once per atom instead of once per pair (kernels/row_accumulate.hpp). The cost: a warp's
// writes are now C floats apart (strided, not coalesced), and more registers per thread.
// Points past the end of a row (nx not a multiple of C) are computed and not stored.
#include "ppl/potential/kernels/row_accumulate.hpp"
#include "strategy_support.hpp"

namespace ppl::potential_detail {
namespace {

template <int C>
struct coarsened_kernel {
  Kokkos::View<const atom4*> atoms;
  potential_view out;
  spatial::lattice_shape g;
  int n, blocks_x;  // blocks_x = ceil(nx / C) threads per row
  bool accumulate;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const int i0 = int(t % blocks_x) * C;
    const std::int64_t row = t / blocks_x;
    const float y = g.row_y(row), z = g.row_z(row);
    float x[C], v[C];
    for (int c = 0; c < C; ++c) {
      x[c] = g.coord(i0 + c);
      v[c] = 0.0f;
    }
    for (int a = 0; a < n; ++a) {
      const atom4 at = atoms(a);
      kernels::accumulate_row<C>(x, y, z, at.x, at.y, at.z, at.q, v);
    }
    const std::int64_t base = g.row_start(row) + i0;
    for (int c = 0; c < C; ++c)
      if (i0 + c < g.nx) kernels::store_point(out(base + c), v[c], accumulate);
  }
};

class coarsened_strategy final : public direct_strategy {
 public:
  explicit coarsened_strategy(int c) : c_(c) {}
  void compute(const execution& space, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
    profiling_region region("gather_coarsened");
    const direct_plan& p = plan_of(plan);
    space.visit([&](const auto& s) {
      with_coarsening(c_, [&](auto tag) { launch<decltype(tag)::value>(s, p, out, mode == write_mode::accumulate); });
    });
    space.fence();
  }

 private:
  template <int C, class Space>
  static void launch(const Space& space, const direct_plan& p, potential_view out, bool acc) {
    const spatial::lattice_shape g = p.grid.shape();
    const int blocks_x = int(ceil_div(g.nx, C));
    const std::int64_t threads = std::int64_t(blocks_x) * g.rows();
    Kokkos::parallel_for("ppl::potential::gather_coarsened",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, threads),
                         coarsened_kernel<C>{p.atoms.data, out, g, int(p.atoms.size()), blocks_x, acc});
  }
  int c_;
};

}  // namespace
}  // namespace ppl::potential_detail

namespace ppl {

const parameter_fields<gather_coarsened_params>& gather_coarsened_params::fields() {
  static const auto f = parameter_fields<gather_coarsened_params>().integer_of(
      "coarsening", &gather_coarsened_params::coarsening, {1, 2, 4, 8, 16}, "points per thread (C)");
  return f;
}

std::unique_ptr<potential_strategy> make_gather_coarsened(const gather_coarsened_params& p) {
  gather_coarsened_params::fields().check(p);
  return std::make_unique<potential_detail::coarsened_strategy>(p.coarsening);
}

}  // namespace ppl
