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
  int nx, ny, n, blocks_x;  // blocks_x = ceil(nx / C) threads per row
  float h;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const int i0 = int(t % blocks_x) * C;
    const std::int64_t row = t / blocks_x;
    const float y = float(row % ny) * h, z = float(row / ny) * h;
    float x[C], v[C];
    for (int c = 0; c < C; ++c) {
      x[c] = float(i0 + c) * h;
      v[c] = 0.0f;
    }
    for (int a = 0; a < n; ++a) {
      const atom4 at = atoms(a);
      kernels::accumulate_row<C>(x, y, z, at.x, at.y, at.z, at.q, v);
    }
    const std::int64_t base = row * nx + i0;
    for (int c = 0; c < C; ++c)
      if (i0 + c < nx) out(base + c) = v[c];
  }
};

class coarsened_strategy final : public potential_strategy {
 public:
  explicit coarsened_strategy(int c) : c_(c) {}
  void compute(const atoms&, const device_atoms& a, const lattice& g, potential_view out) override {
    profiling_region region("gather_coarsened");
    with_coarsening(c_, [&](auto tag) { launch<decltype(tag)::value>(a, g, out); });
    Kokkos::fence();
  }

 private:
  template <int C>
  static void launch(const device_atoms& a, const lattice& g, potential_view out) {
    const int blocks_x = int(ceil_div(g.dims[0], C));
    const std::int64_t threads = std::int64_t(blocks_x) * g.dims[1] * g.dims[2];
    Kokkos::parallel_for(
        "ppl::potential::gather_coarsened", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, threads),
        coarsened_kernel<C>{a.data, out, g.dims[0], g.dims[1], int(a.size()), blocks_x, float(g.spacing)});
  }
  int c_;
};

}  // namespace

std::unique_ptr<potential_strategy> make_gather_coarsened(const config_node* params) {
  return std::make_unique<coarsened_strategy>(read_int_choice(params, "coarsening", 8, {1, 2, 4, 8, 16}));
}

}  // namespace ppl::potential_detail
