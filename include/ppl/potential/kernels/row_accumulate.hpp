#pragma once
// The inner loop shared by the coarsened kernels: one atom against C points of one lattice row (same y and z,
// x given per point), and the singularity rule of potential_strategy.hpp in float32.
//
// The rule costs nothing in the common case: r^2 = dx^2 + (dy^2 + dz^2) >= dy^2 + dz^2 (rounding is monotonic),
// so when dy^2 + dz^2 >= 1e-8 no pair of this atom with this row can be singular and the unmasked loop runs.
// Only an atom lying on the row's line (within 1e-4 A) takes the masked loop, where each pair is a select (not
// a multiply by a mask: rsqrt(0) is Inf and 0 * Inf is NaN). Threads of a warp that share a row share dy^2 + dz^2,
// so on a GPU this per-atom branch does not diverge.
#include <Kokkos_Core.hpp>

#include "ppl/potential/kernels/fast_rsqrt.hpp"
#include "ppl/potential/kernels/pair_terms.hpp"

// Unroll hint for the atom loops of the device pass (nvcc); host compilers never see the pragma.
#define PPL_PRAGMA_(text) _Pragma(#text)
#if defined(__CUDA_ARCH__)
#define PPL_DEVICE_UNROLL(n) PPL_PRAGMA_(unroll n)
#else
#define PPL_DEVICE_UNROLL(n)
#endif
// The loop over a thread's C points: unrolled on the device; on the host an OpenMP simd loop, because GCC
// otherwise unrolls C <= 8 completely first and then fails to vectorise the straight-line code (measured: C = 8
// ran 3x slower than C = 16).
#if defined(__CUDA_ARCH__)
#define PPL_POINTS_LOOP PPL_PRAGMA_(unroll)
#elif defined(_OPENMP)
#define PPL_POINTS_LOOP PPL_PRAGMA_(omp simd)
#else
#define PPL_POINTS_LOOP
#endif

namespace ppl::kernels {

constexpr float coincidence_radius2_f = 1e-8f;  // A^2, = ppl::coincidence_radius2 in float

// The store of a point's sum: overwrite, or add to what is there (write_mode::accumulate).
KOKKOS_FORCEINLINE_FUNCTION void store_point(float& slot, float v, bool accumulate) {
  slot = accumulate ? slot + v : v;
}

// One pair with the rule applied as a select; Fast picks fast_rsqrt, else ieee_rsqrt.
template <bool Fast>
KOKKOS_FORCEINLINE_FUNCTION float masked_inverse_distance(float r2) {
  const float r = Fast ? fast_rsqrt(r2) : ieee_rsqrt(r2);
  return r2 < coincidence_radius2_f ? 0.0f : r;
}

// One atom against C points of a row, given dy^2 + dz^2 of the atom and the row (shared by the C points); `term` is
// the interaction's pair term (pair_terms.hpp); coulomb_term compiles to the plain q * rsqrt(r^2).
template <int C, class Term>
KOKKOS_FORCEINLINE_FUNCTION void accumulate_row_dyz2(const float (&x)[C], float dyz2, float ax, float q, float (&v)[C],
                                                     const Term& term) {
  if (dyz2 >= coincidence_radius2_f) {
    PPL_POINTS_LOOP
    for (int c = 0; c < C; ++c) {
      const float dx = x[c] - ax;
      const float r2 = dx * dx + dyz2;
      v[c] += term(q, r2, fast_rsqrt(r2));
    }
  } else {
    for (int c = 0; c < C; ++c) {
      const float dx = x[c] - ax;
      const float r2 = dx * dx + dyz2;
      // A select of the product, not a product with a mask: an expression unlike the unmasked loop's FMA, so that
      // nvcc does not sink both loops' accumulations below the branch, where each atom would wait for its last
      // rsqrt (8% slower on the H200: perf/results/potential-h200).
      v[c] += r2 < coincidence_radius2_f ? 0.0f : term(q, r2, fast_rsqrt(r2));
    }
  }
}

// The unmasked loop alone, for a caller that knows dy^2 + dz^2 >= 1e-8 for this atom and row.
template <int C, class Term = coulomb_term>
KOKKOS_FORCEINLINE_FUNCTION void accumulate_row_clear(const float (&x)[C], float dyz2, float ax, float q, float (&v)[C],
                                                      const Term& term = Term{}) {
  PPL_POINTS_LOOP
  for (int c = 0; c < C; ++c) {
    const float dx = x[c] - ax;
    const float r2 = dx * dx + dyz2;
    v[c] += term(q, r2, fast_rsqrt(r2));
  }
}

template <int C, class Term = coulomb_term>
KOKKOS_FORCEINLINE_FUNCTION void accumulate_row(const float (&x)[C], float y, float z, float ax, float ay, float az,
                                                float q, float (&v)[C], const Term& term = Term{}) {
  const float dy = y - ay, dz = z - az;
  accumulate_row_dyz2<C>(x, dy * dy + dz * dz, ax, q, v, term);
}

}  // namespace ppl::kernels
