// `gather`: one thread per lattice point, looping over all atoms read from a View; every thread writes only its
// own point, so there are no atomics and a warp's writes are contiguous. Each thread re-reads every atom and
// recomputes dy^2 + dz^2 for its single point: the next steps (coarsened, coalesced) remove that.
// Parameter rsqrt: fast (default: the rsqrt unit on a GPU, see kernels/fast_rsqrt.hpp) or ieee (1.0f / sqrt(r^2),
// correctly rounded sqrt and division: what a plain Kokkos kernel gets without fast-math).
#include "ppl/potential/kernels/row_accumulate.hpp"
#include "strategy_support.hpp"

namespace ppl::potential_detail {
namespace {

template <bool Fast>
struct gather_kernel {
  Kokkos::View<const atom4*> atoms;
  potential_view out;
  spatial::lattice_shape g;
  int n;
  bool accumulate;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    int i, j, k;
    g.ijk(idx, i, j, k);
    const float x = g.coord(i), y = g.coord(j), z = g.coord_z(k);
    float v = 0.0f;
    for (int a = 0; a < n; ++a) {
      const atom4 at = atoms(a);
      const float dx = x - at.x, dy = y - at.y, dz = z - at.z;
      v += at.q * kernels::masked_inverse_distance<Fast>(dx * dx + dy * dy + dz * dz);
    }
    kernels::store_point(out(idx), v, accumulate);
  }
};

class gather_strategy final : public direct_strategy {
 public:
  explicit gather_strategy(bool fast) : fast_(fast) {}
  void compute(const execution& space, const potential_plan& plan, potential_view out, write_mode mode) const override {
    profiling_region region("gather");
    const direct_plan& p = plan_of(plan);
    const bool acc = mode == write_mode::accumulate;
    space.visit([&](const auto& s) {
      using policy = Kokkos::RangePolicy<std::decay_t<decltype(s)>, Kokkos::IndexType<std::int64_t>>;
      const policy range(s, 0, std::int64_t(p.grid.size()));
      if (fast_)
        launch<true>(p, out, acc, range);
      else
        launch<false>(p, out, acc, range);
    });
    space.fence();
  }

 private:
  template <bool Fast, class Policy>
  static void launch(const direct_plan& p, potential_view out, bool acc, const Policy& policy) {
    Kokkos::parallel_for("ppl::potential::gather", policy,
                         gather_kernel<Fast>{p.atoms.data, out, p.grid.shape(), int(p.atoms.size()), acc});
  }
  bool fast_;
};

}  // namespace
}  // namespace ppl::potential_detail

namespace ppl {

const parameter_fields<gather_params>& gather_params::fields() {
  static const auto f = parameter_fields<gather_params>().choice(
      "rsqrt", &gather_params::rsqrt, {"fast", "ieee"},
      "fast: the rsqrt unit (GPU) / vectorised Newton (host); ieee: 1 / sqrt, correctly rounded");
  return f;
}

std::unique_ptr<potential_strategy> make_gather(const gather_params& p) {
  gather_params::fields().check(p);
  return std::make_unique<potential_detail::gather_strategy>(p.rsqrt == "fast");
}

}  // namespace ppl
