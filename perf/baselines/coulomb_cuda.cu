// Hand-written CUDA versions of ppl's two GPU designs (see coulomb_cuda.hpp). Both compute, per thread, 8 points of
// one lattice row at x = x0 + tx + 32 c, so that each store of a warp is 32 consecutive floats, with 32 x 8 blocks.
// Block shape matters for the constant-memory design: with 32 x 4 blocks the constant cache thrashes and the kernel
// runs at 1.5e12 instead of 3.3e12 atom-evaluations/s (perf/results/potential-h200, probe/; docs/potential.md).
#include <cuda_runtime.h>

#include "baselines/coulomb_cuda.hpp"

namespace ppl_baseline {
namespace {

constexpr int atoms_per_pass = 1920;  // 30 KiB of __constant__ memory, as gather_constmem_cuda
constexpr int tile_atoms = 1024;      // 16 KiB of shared memory per block, as gather_coalesced
constexpr int points_per_thread = 8;
constexpr int block_x = 32, block_y = 8;
constexpr float coincidence_radius2 = 1e-8f;

__constant__ float4 pass_atoms[atoms_per_pass];

template <rsqrt_kind Kind>
__device__ __forceinline__ float inverse_sqrt(float x) {
  if constexpr (Kind == rsqrt_kind::ftz) {
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  } else {
    return rsqrtf(x);
  }
}

// One atom against the thread's 8 points; the singularity rule as in ppl (warp-uniform branch).
template <rsqrt_kind Kind>
__device__ __forceinline__ void add_atom(const float (&x)[points_per_thread], float y, float z, float4 at,
                                         float (&v)[points_per_thread]) {
  const float dy = y - at.y, dz = z - at.z;
  const float dyz2 = dy * dy + dz * dz;
  if (dyz2 >= coincidence_radius2) {
#pragma unroll
    for (int c = 0; c < points_per_thread; ++c) {
      const float dx = x[c] - at.x;
      v[c] += at.w * inverse_sqrt<Kind>(dx * dx + dyz2);
    }
  } else {
#pragma unroll
    for (int c = 0; c < points_per_thread; ++c) {
      const float dx = x[c] - at.x;
      const float r2 = dx * dx + dyz2;
      // A select of the product (as ppl's accumulate_row): unlike the FMA above, so the two accumulations are not
      // merged below the branch.
      v[c] += r2 < coincidence_radius2 ? 0.0f : at.w * inverse_sqrt<Kind>(r2);
    }
  }
}

struct thread_points {
  int row, i0;
  bool live;
  float y, z, x[points_per_thread], v[points_per_thread];

  __device__ thread_points(int nx, int ny, int nrows, int blocks_x, float h) {
    const int bx = blockIdx.x % blocks_x;
    row = (blockIdx.x / blocks_x) * block_y + threadIdx.y;
    live = row < nrows;
    const int r = live ? row : nrows - 1;  // padded rows compute on a valid row and store nothing
    i0 = bx * block_x * points_per_thread + threadIdx.x;
    y = float(r % ny) * h;
    z = float(r / ny) * h;
#pragma unroll
    for (int c = 0; c < points_per_thread; ++c) {
      x[c] = float(i0 + block_x * c) * h;
      v[c] = 0.0f;
    }
  }

  __device__ void store(float* out, int nx, bool accumulate) const {
    if (!live) return;
    float* row_out = out + static_cast<long long>(row) * nx;
#pragma unroll
    for (int c = 0; c < points_per_thread; ++c) {
      const int i = i0 + block_x * c;
      if (i < nx) row_out[i] = accumulate ? row_out[i] + v[c] : v[c];
    }
  }
};

template <rsqrt_kind Kind>
__global__ void __launch_bounds__(block_x* block_y) constmem_kernel(float* __restrict__ out, int nx, int ny, int nrows,
                                                                    int blocks_x, int count, float h, bool accumulate) {
  thread_points p(nx, ny, nrows, blocks_x, h);
#pragma unroll 4
  for (int a = 0; a < count; ++a) add_atom<Kind>(p.x, p.y, p.z, pass_atoms[a], p.v);
  p.store(out, nx, accumulate);
}

__global__ void __launch_bounds__(block_x* block_y)
    tiles_kernel(const float4* __restrict__ atoms, int n, float* __restrict__ out, int nx, int ny, int nrows,
                 int blocks_x, float h) {
  __shared__ float4 tile[tile_atoms];
  thread_points p(nx, ny, nrows, blocks_x, h);
  const int tid = threadIdx.y * block_x + threadIdx.x;
  for (int first = 0; first < n; first += tile_atoms) {
    const int count = n - first < tile_atoms ? n - first : tile_atoms;
    __syncthreads();  // everyone is done with the previous tile
    for (int k = tid; k < count; k += block_x * block_y) tile[k] = atoms[first + k];
    __syncthreads();
#pragma unroll 4
    for (int a = 0; a < count; ++a) add_atom<rsqrt_kind::ftz>(p.x, p.y, p.z, tile[a], p.v);
  }
  p.store(out, nx, false);
}

}  // namespace

const char* coulomb_cuda(const atom_xyzq* device_atoms, int n_atoms, int nx, int ny, int nz, float spacing,
                         float* device_out, rsqrt_kind kind, design d, void* stream_ptr) {
  static_assert(sizeof(atom_xyzq) == sizeof(float4), "atoms are copied as float4");
  const cudaStream_t stream = static_cast<cudaStream_t>(stream_ptr);
  const int nrows = ny * nz;
  const int blocks_x = (nx + block_x * points_per_thread - 1) / (block_x * points_per_thread);
  const long long blocks = static_cast<long long>(blocks_x) * ((nrows + block_y - 1) / block_y);
  if (blocks > 0x7fffffffLL) return "lattice too large for one launch";
  const dim3 grid(static_cast<unsigned>(blocks)), block(block_x, block_y);
  if (d == design::tiles) {
    tiles_kernel<<<grid, block, 0, stream>>>(reinterpret_cast<const float4*>(device_atoms), n_atoms, device_out, nx, ny,
                                             nrows, blocks_x, spacing);
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? "" : cudaGetErrorString(e);
  }
  if (n_atoms == 0) {
    const cudaError_t e =
        cudaMemsetAsync(device_out, 0, sizeof(float) * static_cast<size_t>(nx) * static_cast<size_t>(nrows), stream);
    return e == cudaSuccess ? "" : cudaGetErrorString(e);
  }
  for (int first = 0; first < n_atoms; first += atoms_per_pass) {
    const int count = n_atoms - first < atoms_per_pass ? n_atoms - first : atoms_per_pass;
    cudaError_t e = cudaMemcpyToSymbolAsync(pass_atoms, device_atoms + first, sizeof(float4) * count, 0,
                                            cudaMemcpyDeviceToDevice, stream);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    if (kind == rsqrt_kind::ftz)
      constmem_kernel<rsqrt_kind::ftz>
          <<<grid, block, 0, stream>>>(device_out, nx, ny, nrows, blocks_x, count, spacing, first > 0);
    else
      constmem_kernel<rsqrt_kind::rsqrtf>
          <<<grid, block, 0, stream>>>(device_out, nx, ny, nrows, blocks_x, count, spacing, first > 0);
    e = cudaGetLastError();
    if (e != cudaSuccess) return cudaGetErrorString(e);
  }
  return "";
}

}  // namespace ppl_baseline
