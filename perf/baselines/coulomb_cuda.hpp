#pragma once
// Hand-written CUDA kernels of ppl's two GPU designs, no Kokkos in their translation unit, for side-by-side rows
// with ppl's Kokkos kernels; built only when Kokkos has CUDA, with the same compiler and flags (nvcc_wrapper,
// -arch=sm_90, -O3, the potential family's --use_fast_math).
//  - design::constmem: VMD/PMPP (atoms in __constant__ memory in passes, 8 points per thread strided by the warp
//    width, 32 x 8 blocks) = gather_constmem_cuda;
//  - design::tiles: atoms in shared-memory tiles of 1024, 8 points per thread strided by 32, 32 x 8 blocks =
//    gather_coalesced's GPU defaults.
namespace ppl_baseline {

struct atom_xyzq {
  float x, y, z, q;  // position relative to the lattice origin, charge (the layout of ppl::atom4)
};

enum class rsqrt_kind {
  rsqrtf,  // rsqrtf() as the PMPP/VMD sources write it (MUFU.RSQ plus denormal handling without -ftz)
  ftz,     // rsqrt.approx.ftz.f32, the instruction ppl's kernels use
};

enum class design { constmem, tiles };

// out[(k * ny + j) * nx + i] = sum_a q_a / r (pairs with r^2 < 1e-8 skipped), on `stream` (a cudaStream_t).
// Returns an error message, empty on success.
const char* coulomb_cuda(const atom_xyzq* device_atoms, int n_atoms, int nx, int ny, int nz, float spacing,
                         float* device_out, rsqrt_kind kind, design d, void* stream);

}  // namespace ppl_baseline
