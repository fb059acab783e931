// `scatter`: one thread per atom; each adds its q/r to every lattice point with an atomic add. Kept as the
// textbook's first step and as the reason to gather: every pair costs a read-modify-write of global memory instead
// of a register add, and because all threads walk the lattice in the same order, the threads of a warp hit the same
// point at the same time, so their atomics serialise. Parallelism is also only the atom count. The sum order per
// point depends on scheduling, so results differ in the last bits from run to run.
#include "ppl/potential/kernels/row_accumulate.hpp"
#include "strategy_support.hpp"

namespace ppl::potential_detail {
namespace {

class scatter_strategy final : public direct_strategy {
 public:
  void compute(const execution& space, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
    profiling_region region("scatter");
    const direct_plan& p = plan_of(plan);
    space.visit([&](const auto& s) { run(s, p, out, mode); });
    space.fence();
  }

  // Public: nvcc rejects an extended lambda in a private member function.
  template <class Space>
  static void run(const Space& space, const direct_plan& p, potential_view out, write_mode mode) {
    if (mode == write_mode::overwrite) Kokkos::deep_copy(space, out, 0.0f);
    const Kokkos::View<const atom4*> atoms_v = p.atoms.data;
    const spatial::lattice_shape g = p.grid.shape();
    Kokkos::parallel_for(
        "ppl::potential::scatter", Kokkos::RangePolicy<Space>(space, 0, int(p.atoms.size())), KOKKOS_LAMBDA(int n) {
          const atom4 at = atoms_v(n);
          for (int k = 0; k < g.nz; ++k) {
            const float dz = g.coord(k) - at.z;
            for (int j = 0; j < g.ny; ++j) {
              const float dy = g.coord(j) - at.y;
              const float dyz2 = dy * dy + dz * dz;
              const std::int64_t row = g.index(0, j, k);
              for (int i = 0; i < g.nx; ++i) {
                const float dx = g.coord(i) - at.x;
                Kokkos::atomic_add(&out(row + i), at.q * kernels::masked_inverse_distance<true>(dx * dx + dyz2));
              }
            }
          }
        });
  }
};

}  // namespace
}  // namespace ppl::potential_detail

namespace ppl {

std::unique_ptr<potential_strategy> make_scatter(const no_parameters&) {
  return std::make_unique<potential_detail::scatter_strategy>();
}

}  // namespace ppl
