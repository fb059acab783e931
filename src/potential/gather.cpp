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
  int nx, ny, n;
  float h;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    const int i = int(idx % nx);
    const std::int64_t row = idx / nx;
    const int j = int(row % ny), k = int(row / ny);
    const float x = float(i) * h, y = float(j) * h, z = float(k) * h;
    float v = 0.0f;
    for (int a = 0; a < n; ++a) {
      const atom4 at = atoms(a);
      const float dx = x - at.x, dy = y - at.y, dz = z - at.z;
      v += at.q * kernels::masked_inverse_distance<Fast>(dx * dx + dy * dy + dz * dz);
    }
    out(idx) = v;
  }
};

class gather_strategy final : public potential_strategy {
 public:
  explicit gather_strategy(bool fast) : fast_(fast) {}
  void compute(const atoms&, const device_atoms& a, const lattice& g, potential_view out) override {
    profiling_region region("gather");
    const Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>> policy(0, std::int64_t(g.size()));
    if (fast_)
      launch<true>(a, g, out, policy);
    else
      launch<false>(a, g, out, policy);
    Kokkos::fence();
  }

 private:
  template <bool Fast, class Policy>
  static void launch(const device_atoms& a, const lattice& g, potential_view out, const Policy& policy) {
    Kokkos::parallel_for("ppl::potential::gather", policy,
                         gather_kernel<Fast>{a.data, out, g.dims[0], g.dims[1], int(a.size()), float(g.spacing)});
  }
  bool fast_;
};

}  // namespace

std::unique_ptr<potential_strategy> make_gather(const config_node* params) {
  const std::string rsqrt = params ? params->get_choice("rsqrt", "fast", {"fast", "ieee"}) : "fast";
  return std::make_unique<gather_strategy>(rsqrt == "fast");
}

}  // namespace ppl::potential_detail
