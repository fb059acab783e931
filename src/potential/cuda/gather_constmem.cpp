// `gather_constmem_cuda`: the VMD/PMPP design as a Kokkos functor. Atoms go to __constant__ memory in chunks of
// 1920 (30 KiB: Kokkos keeps 32 KiB of the 64 KiB bank per translation unit for its own launches); all threads of
// a warp read the same atom at the same time, which the constant cache serves as one broadcast, and the loads need
// no shared memory or barriers. Each thread computes C points of one row strided by the warp width (32), so each
// store of a warp is 32 consecutive floats; chunks after the first add to what the previous chunk stored.
// Thread t of the flat range: lane = t % 32, warp group = t / 32 -> (x block, row). Kokkos' CUDA range launch puts
// consecutive indices in consecutive threads, so a warp is one group.
#include <cuda_runtime.h>

#include "../strategy_support.hpp"
#include "ppl/core/error.hpp"
#include "ppl/potential/kernels/row_accumulate.hpp"

namespace ppl::potential_detail {
namespace {

constexpr int constmem_atoms = 1920;
__constant__ float4 constmem_atom_chunk[constmem_atoms];

template <int C>
struct constmem_kernel {
  potential_view out;
  spatial::lattice_shape g;
  int blocks_x, count;
  bool accumulate;

  // Device only: the functor reads a __constant__ array, which host code cannot.
  __device__ void operator()(std::int64_t t) const {
    const int lane = int(t & 31);
    const std::int64_t group = t >> 5;
    const int i0 = int(group % blocks_x) * (32 * C) + lane;
    const std::int64_t row = group / blocks_x;
    const float y = g.row_y(row), z = g.row_z(row);
    float x[C], v[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      x[c] = g.coord(i0 + 32 * c);
      v[c] = 0.0f;
    }
#pragma unroll 4
    for (int a = 0; a < count; ++a) {
      const float4 at = constmem_atom_chunk[a];
      kernels::accumulate_row<C>(x, y, z, at.x, at.y, at.z, at.w, v);
    }
    const std::int64_t base = g.row_start(row);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const int i = i0 + 32 * c;
      if (i < g.nx) kernels::store_point(out(base + i), v[c], accumulate);
    }
  }
};

class constmem_strategy final : public direct_strategy {
 public:
  constmem_strategy(int c, int pass) : c_(c), pass_(pass) {}
  void compute(const execution& exec, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
    static_assert(sizeof(atom4) == sizeof(float4), "atoms are copied as float4");
    profiling_region region("gather_constmem_cuda");
    const direct_plan& p = plan_of(plan);
    const bool acc = mode == write_mode::accumulate;
    on_default_space(exec, "gather_constmem_cuda", [&](const Kokkos::Cuda& space) {
      if (p.atoms.size() == 0) {
        if (!acc) Kokkos::deep_copy(space, out, 0.0f);
      } else {
        with_coarsening(c_, [&](auto tag) { run<decltype(tag)::value>(space, p.atoms, p.grid, out, pass_, acc); });
      }
    });
    exec.fence();
  }

 private:
  template <int C>
  static void run(const Kokkos::Cuda& space, const device_atoms& a, const lattice& grid, potential_view out, int pass,
                  bool acc) {
    const spatial::lattice_shape g = grid.shape();
    const int blocks_x = int(ceil_div(g.nx, 32 * C));
    const std::int64_t threads = std::int64_t(blocks_x) * g.rows() * 32;
    const std::size_t n = a.size();
    for (std::size_t first = 0; first < n; first += std::size_t(pass)) {
      const int count = int(std::min<std::size_t>(std::size_t(pass), n - first));
      // Same stream as the kernels: the copy waits for the previous chunk's kernel, the next kernel for the copy.
      const cudaError_t e = cudaMemcpyToSymbolAsync(constmem_atom_chunk, a.data.data() + first, count * sizeof(atom4),
                                                    0, cudaMemcpyDeviceToDevice, space.cuda_stream());
      if (e != cudaSuccess)
        throw error(exit_code::failure, std::string("gather_constmem_cuda: ") + cudaGetErrorString(e));
      Kokkos::parallel_for("ppl::potential::gather_constmem_cuda",
                           Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(space, 0, threads),
                           constmem_kernel<C>{out, g, blocks_x, count, acc || first > 0});
    }
  }
  int c_, pass_;
};

}  // namespace
}  // namespace ppl::potential_detail

namespace ppl {

// atoms_per_pass: atoms per constant-memory pass and launch (at most the 1920 that fit). Smaller passes keep the
// chunk every warp of an SM sweeps inside a smaller part of the constant cache, at one launch per pass.
std::unique_ptr<potential_strategy> make_gather_constmem_cuda(const gather_constmem_cuda_params& p) {
  gather_constmem_cuda_params::fields().check(p);
  return std::make_unique<potential_detail::constmem_strategy>(p.coarsening, p.atoms_per_pass);
}

}  // namespace ppl
