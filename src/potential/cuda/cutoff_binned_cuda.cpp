// `cutoff_binned_cuda`: cutoff_binned's plan (device binning, the region's offset list, the host's overflow sum)
// with a CUDA kernel in place of the portable one:
//  - the offset list lives in __constant__ memory (copied on the kernel's stream before each launch);
//  - a block first resolves its stencil once (bin, fill count, periodic image per offset: kept in __shared__ memory,
//    where the portable kernel recomputes them per staged atom) and scans the counts with warp shuffles; it then
//    stages its atoms `stage_atoms` at a time, packed across bins, as the portable kernel does;
//  - one thread per segment of C points, whose sums stay in registers for the whole stencil (the portable kernel
//    keeps them in team scratch, since its teams may be smaller than the region's segments).
// The pairs visited and their order are those of the portable kernel (stencil order, then slot order), so the two
// give the same sums up to the compilers' contractions; the per-atom segment test is the same function.
#include <cuda_runtime.h>

#include "../cutoff_binned.hpp"
#include "ppl/core/error.hpp"
#include "ppl/potential/kernels/pair_terms.hpp"

namespace ppl::potential_detail {
namespace {

// 30 KiB of offsets (Kokkos keeps the rest of the translation unit's 64 KiB constant bank for its launches).
constexpr int max_constant_offsets = 3840;
__constant__ short4 constant_offsets[max_constant_offsets];

constexpr int max_threads = 1024;

// Dynamic shared memory of a block: the scan (S + 1 ints), per offset its bin's first slot (or -1) and its image
// code, then the stage (16-byte aligned).
std::size_t shared_bytes(int stencil, int stage_atoms) {
  const std::size_t ints = std::size_t(3) * stencil + 1;
  return (ints * sizeof(int) + 15) / 16 * 16 + std::size_t(stage_atoms) * sizeof(float4);
}

// Periodic image shift packed as 3 x 10 bits (wraps in [-511, 511]; a box is >= 2 rc, so a stencil wraps at most a
// few times).
__device__ __forceinline__ int pack_wraps(int wx, int wy, int wz) {
  return ((wx + 512) << 20) | ((wy + 512) << 10) | (wz + 512);
}
__device__ __forceinline__ int unpack_wrap(int code, int axis) {
  return ((code >> (10 * (2 - axis))) & 1023) - 512;
}

template <int C, class Term>
__global__ void __launch_bounds__(max_threads)
    binned_cuda_kernel(const binned_geometry geo, const float4* __restrict__ slots, const int* __restrict__ counts,
                       float* __restrict__ out, const Term term, const float rc2, const int stage_atoms,
                       const bool accumulate) {
  extern __shared__ float4 shared_float4[];
  const int S = geo.stencil_size;
  int* scan = reinterpret_cast<int*>(shared_float4);  // scan[s] = atoms in offsets before s; scan[S] = total
  int* first_slot = scan + S + 1;
  int* wraps = first_slot + S;
  float4* stage = shared_float4 + ((3 * S + 1) * sizeof(int) + 15) / 16;
  const int tid = threadIdx.x, threads = blockDim.x;

  const int r = blockIdx.x;
  const int rx = r % geo.regions[0], ry = (r / geo.regions[0]) % geo.regions[1],
            rz = r / (geo.regions[0] * geo.regions[1]);
  const int i0 = rx * geo.region[0], j0 = ry * geo.region[1], k0 = rz * geo.region[2];
  int b0[3];
  geo.grid.bin_of(geo.g.coord(i0), geo.g.coord(j0), geo.g.coord(k0), b0[0], b0[1], b0[2]);

  // 1. The stencil resolved once per block.
  for (int s = tid; s < S; s += threads) {
    const short4 o = constant_offsets[s];
    const int off[3] = {o.x, o.y, o.z};
    int b[3], w[3];
    bool inside = true;
    for (int axis = 0; axis < 3; ++axis)
      inside = resolve_bin(geo.grid, axis, b0[axis] + off[axis], b[axis], w[axis]) && inside;
    const int bin = inside ? geo.grid.index(b[0], b[1], b[2]) : 0;
    scan[s + 1] = inside ? counts[bin] : 0;
    first_slot[s] = bin * geo.capacity;
    wraps[s] = pack_wraps(w[0], w[1], w[2]);
  }
  if (tid == 0) scan[0] = 0;
  __syncthreads();
  // Inclusive scan of scan[1..S] by the first warp (all of it, or the whole block when smaller): each lane sums a
  // chunk, a shuffle scan of the chunk sums, then each lane writes its chunk's running sums.
  const int lanes = min(threads, 32);
  if (tid < lanes) {
    const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
    const int chunk = (S + lanes - 1) / lanes, lo = 1 + tid * chunk, hi = min(S + 1, lo + chunk);
    int sum = 0;
    for (int s = lo; s < hi; ++s) sum += scan[s];
    int incl = sum;
    for (int d = 1; d < lanes; d *= 2) {
      const int up = __shfl_up_sync(mask, incl, d);
      if (tid >= d) incl += up;
    }
    int run = incl - sum;
    for (int s = lo; s < hi; ++s) {
      run += scan[s];
      scan[s] = run;
    }
  }
  __syncthreads();
  const int total = scan[S];

  // 2. This thread's segment.
  const int seg_x = geo.region[0] / C;
  const int sx = tid % seg_x, sy = (tid / seg_x) % geo.region[1], sz = tid / (seg_x * geo.region[1]);
  const int ib = i0 + sx * C, j = j0 + sy, k = k0 + sz;
  const float y = geo.g.coord(j), z = geo.g.coord(k);
  float x[C], v[C];
#pragma unroll
  for (int c = 0; c < C; ++c) {
    x[c] = geo.g.coord(ib + c);
    v[c] = 0.0f;
  }
  const segment_test test = make_segment_test(geo.segment_test, x[0], x[C - 1], rc2);

  // 3. The stages.
  for (int a0 = 0; a0 < total; a0 += stage_atoms) {
    const int n = min(stage_atoms, total - a0);
    __syncthreads();  // the previous stage is done with
    for (int t = tid; t < n; t += threads) {
      const int atom = a0 + t;
      const int lo = bin_of_packed_atom(scan, S, atom);
      float4 at = slots[first_slot[lo] + (atom - scan[lo])];
      if (geo.grid.periodic) {
        const int code = wraps[lo];
        at.x += float(unpack_wrap(code, 0)) * geo.grid.box[0];
        at.y += float(unpack_wrap(code, 1)) * geo.grid.box[1];
        at.z += float(unpack_wrap(code, 2)) * geo.grid.box[2];
      }
      stage[t] = at;
    }
    __syncthreads();
#pragma unroll 4
    for (int a = 0; a < n; ++a) {
      const float4 at = stage[a];
      const float dy = y - at.y, dz = z - at.z;
      const float dyz2 = dy * dy + dz * dz;
      if (!test.may_reach(at.x, dyz2)) continue;
      kernels::accumulate_row_dyz2<C>(x, dyz2, at.x, at.w, v, term);
    }
  }
  if (j >= geo.g.ny || k >= geo.g.nz) return;
#pragma unroll
  for (int c = 0; c < C; ++c)
    if (ib + c < geo.g.nx) kernels::store_point(out[geo.g.index(ib + c, j, k)], v[c], accumulate);
}

int segments_of(const binned_setup& p) {
  return (p.region[0] / p.coarsening) * p.region[1] * p.region[2];
}

template <int C, class Term>
void launch_cuda(const Kokkos::Cuda& space, const binned_plan& p, potential_view out, bool accumulate,
                 const Term& term) {
  const int S = p.geo.stencil_size;
  const int stage = p.params.stage_atoms;
  const std::size_t bytes = shared_bytes(S, stage);
  auto kernel = binned_cuda_kernel<C, Term>;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
  if (e == cudaSuccess)
    e = cudaMemcpyToSymbolAsync(constant_offsets, p.offsets16.data(), std::size_t(S) * sizeof(short4), 0,
                                cudaMemcpyDeviceToDevice, space.cuda_stream());
  if (e != cudaSuccess) throw error(exit_code::failure, std::string("cutoff_binned_cuda: ") + cudaGetErrorString(e));
  const unsigned blocks = unsigned(p.geo.regions[0]) * unsigned(p.geo.regions[1]) * unsigned(p.geo.regions[2]);
  static_assert(sizeof(atom4) == sizeof(float4), "atoms are read as float4");
  static_assert(sizeof(short4) == 4 * sizeof(short), "offsets are copied as 4 shorts");
  kernel<<<blocks, segments_of(p.params), bytes, space.cuda_stream()>>>(
      p.geo, reinterpret_cast<const float4*>(p.bins.slots.data()), p.bins.counts.data(), out.data(), term,
      float(p.physics.radius * p.physics.radius), stage, accumulate);
  e = cudaGetLastError();
  if (e != cudaSuccess) throw error(exit_code::failure, std::string("cutoff_binned_cuda: ") + cudaGetErrorString(e));
}

void launch(const execution& exec, const binned_plan& p, potential_view out, bool accumulate) {
  on_default_space(exec, "cutoff_binned_cuda", [&](const Kokkos::Cuda& space) {
    kernels::with_cutoff_term(p.physics, [&](const auto& term) {
      using Term = std::decay_t<decltype(term)>;
      switch (p.params.coarsening) {
        case 4:
          launch_cuda<4, Term>(space, p, out, accumulate, term);
          break;
        case 8:
          launch_cuda<8, Term>(space, p, out, accumulate, term);
          break;
        default:
          launch_cuda<16, Term>(space, p, out, accumulate, term);
          break;
      }
    });
  });
}

// With the problem (check(), at configuration time): the offsets must fit __constant__ memory, and the block's
// shared memory the device.
void check_launch(const binned_setup& p, std::size_t stencil_size) {
  if (stencil_size > std::size_t(max_constant_offsets))
    throw input_error("strategy_params: cutoff_binned_cuda: the region's offset list has " +
                      std::to_string(stencil_size) + " bins, more than the " + std::to_string(max_constant_offsets) +
                      " that fit its __constant__ memory; use larger bins ('bin_edge') or a smaller 'region'");
  int device = 0, limit = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  const std::size_t bytes = shared_bytes(int(stencil_size), p.stage_atoms);
  if (limit > 0 && bytes > std::size_t(limit))
    throw input_error("strategy_params: cutoff_binned_cuda needs " + std::to_string(bytes) +
                      " bytes of shared memory per block (offset list and 'stage_atoms'), more than the device's " +
                      std::to_string(limit) + "; use larger bins or fewer 'stage_atoms'");
}

}  // namespace

}  // namespace ppl::potential_detail

namespace ppl {

std::unique_ptr<potential_strategy> make_cutoff_binned_cuda(const cutoff_binned_cuda_params& params) {
  using namespace potential_detail;
  cutoff_binned_cuda_params::fields().check(params);
  const binned_setup p = binned_setup_of(params, params.bin_edge, 0, false, 8, max_auto_capacity);
  const int segments = segments_of(p);
  if (segments > max_threads)
    throw parameter_error("region", "/ 'coarsening' gives " + std::to_string(segments) +
                                        " segments, more than the " + std::to_string(max_threads) +
                                        " threads of a block (cutoff_binned_cuda runs one thread per segment of C "
                                        "points)");
  return make_binned_strategy(p, "cutoff_binned_cuda", launch, check_launch);
}

}  // namespace ppl
