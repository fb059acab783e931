#pragma once
// A hand-written CUDA kernel of the VMD/PMPP design (atoms in __constant__ memory, 8 points per thread strided by
// the warp width), no Kokkos in its translation unit, for a side-by-side row with ppl's Kokkos kernels. Built only
// when Kokkos has CUDA, with the same compiler and flags (nvcc_wrapper, -arch=sm_90, -O3).
namespace ppl_baseline {

struct atom_xyzq {
  float x, y, z, q;  // position relative to the lattice origin, charge (the layout of ppl::atom4)
};

enum class rsqrt_kind {
  rsqrtf,  // rsqrtf() as the PMPP/VMD sources write it (MUFU.RSQ plus denormal handling without -ftz)
  ftz,     // rsqrt.approx.ftz.f32, the instruction ppl's kernels use
};

// out[(k * ny + j) * nx + i] = sum_a q_a / r (pairs with r^2 < 1e-8 skipped), on `stream` (a cudaStream_t).
// Returns an error message, empty on success.
const char* coulomb_cuda(const atom_xyzq* device_atoms, int n_atoms, int nx, int ny, int nz, float spacing,
                         float* device_out, rsqrt_kind kind, void* stream);

}  // namespace ppl_baseline
