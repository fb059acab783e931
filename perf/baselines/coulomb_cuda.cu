// The VMD `cionize` / PMPP chapter-18 direct Coulomb summation kernel, written directly in CUDA: atoms are copied
// in passes into __constant__ memory (every thread of a warp reads the same atom: one broadcast), each thread
// computes 8 points of one row at x = x0 + tx + 32 c so that each store of a warp is 32 consecutive floats, and
// later passes add to the earlier ones. The body matches ppl's gather_constmem_cuda (same pass size: 1920 atoms,
// same singularity rule) so the difference between the two rows is what Kokkos adds.
#include <cuda_runtime.h>

#include "baselines/coulomb_cuda.hpp"

namespace ppl_baseline {
namespace {

constexpr int atoms_per_pass = 1920;
constexpr int points_per_thread = 8;
constexpr int block_x = 32, block_y = 4;
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

template <rsqrt_kind Kind>
__global__ void __launch_bounds__(block_x* block_y) coulomb_kernel(float* __restrict__ out, int nx, int ny, int nrows,
                                                                   int blocks_x, int count, float h, bool accumulate) {
  const int bx = blockIdx.x % blocks_x;
  const int row = (blockIdx.x / blocks_x) * block_y + threadIdx.y;
  if (row >= nrows) return;
  const int i0 = bx * block_x * points_per_thread + threadIdx.x;
  const float y = float(row % ny) * h, z = float(row / ny) * h;
  float x[points_per_thread], v[points_per_thread];
#pragma unroll
  for (int c = 0; c < points_per_thread; ++c) {
    x[c] = float(i0 + block_x * c) * h;
    v[c] = 0.0f;
  }
#pragma unroll 4
  for (int a = 0; a < count; ++a) {
    const float4 at = pass_atoms[a];
    const float dy = y - at.y, dz = z - at.z;
    const float dyz2 = dy * dy + dz * dz;
    if (dyz2 >= coincidence_radius2) {  // no pair of this row can be singular; uniform across the warp
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
        const float r = inverse_sqrt<Kind>(r2);
        v[c] += at.w * (r2 < coincidence_radius2 ? 0.0f : r);
      }
    }
  }
  float* row_out = out + static_cast<long long>(row) * nx;
#pragma unroll
  for (int c = 0; c < points_per_thread; ++c) {
    const int i = i0 + block_x * c;
    if (i < nx) row_out[i] = accumulate ? row_out[i] + v[c] : v[c];
  }
}

}  // namespace

const char* coulomb_cuda(const atom_xyzq* device_atoms, int n_atoms, int nx, int ny, int nz, float spacing,
                         float* device_out, rsqrt_kind kind, void* stream_ptr) {
  static_assert(sizeof(atom_xyzq) == sizeof(float4), "atoms are copied as float4");
  const cudaStream_t stream = static_cast<cudaStream_t>(stream_ptr);
  const int nrows = ny * nz;
  const int blocks_x = (nx + block_x * points_per_thread - 1) / (block_x * points_per_thread);
  const long long blocks = static_cast<long long>(blocks_x) * ((nrows + block_y - 1) / block_y);
  if (blocks > 0x7fffffffLL) return "lattice too large for one launch";
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
    const dim3 grid(static_cast<unsigned>(blocks)), block(block_x, block_y);
    if (kind == rsqrt_kind::ftz)
      coulomb_kernel<rsqrt_kind::ftz>
          <<<grid, block, 0, stream>>>(device_out, nx, ny, nrows, blocks_x, count, spacing, first > 0);
    else
      coulomb_kernel<rsqrt_kind::rsqrtf>
          <<<grid, block, 0, stream>>>(device_out, nx, ny, nrows, blocks_x, count, spacing, first > 0);
    e = cudaGetLastError();
    if (e != cudaSuccess) return cudaGetErrorString(e);
  }
  return "";
}

}  // namespace ppl_baseline
