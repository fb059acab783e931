// `scatter`: one thread per atom; each adds its q/r to every lattice point with an atomic add. Kept as the
// textbook's first step and as the reason to gather: every pair costs a read-modify-write of global memory instead
// of a register add, and because all threads walk the lattice in the same order, the threads of a warp hit the same
// point at the same time, so their atomics serialise. Parallelism is also only the atom count. The sum order per
// point depends on scheduling, so results differ in the last bits from run to run.
#include "ppl/potential/kernels/row_accumulate.hpp"
#include "strategy_support.hpp"

namespace ppl::potential_detail {
namespace {

class scatter_strategy final : public potential_strategy {
 public:
  void compute(const atoms&, const device_atoms& a, const lattice& g, potential_view out) override {
    profiling_region region("scatter");
    Kokkos::deep_copy(out, 0.0f);
    const Kokkos::View<const atom4*> atoms_v = a.data;
    const int nx = g.dims[0], ny = g.dims[1], nz = g.dims[2];
    const float h = float(g.spacing);
    Kokkos::parallel_for(
        "ppl::potential::scatter", Kokkos::RangePolicy<>(0, int(a.size())), KOKKOS_LAMBDA(int n) {
          const atom4 at = atoms_v(n);
          for (int k = 0; k < nz; ++k) {
            const float dz = float(k) * h - at.z;
            for (int j = 0; j < ny; ++j) {
              const float dy = float(j) * h - at.y;
              const float dyz2 = dy * dy + dz * dz;
              const std::size_t row = (std::size_t(k) * ny + j) * nx;
              for (int i = 0; i < nx; ++i) {
                const float dx = float(i) * h - at.x;
                Kokkos::atomic_add(&out(row + i), at.q * kernels::masked_inverse_distance<true>(dx * dx + dyz2));
              }
            }
          }
        });
    Kokkos::fence();
  }
};

}  // namespace

std::unique_ptr<potential_strategy> make_scatter(const config_node*) {
  return std::make_unique<scatter_strategy>();
}

}  // namespace ppl::potential_detail
