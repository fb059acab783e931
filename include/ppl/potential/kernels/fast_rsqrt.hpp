#pragma once
// Reciprocal square roots for the inner loops of the potential kernels, as inline functions (not lambda bodies), so
// the host and device passes of a KOKKOS_LAMBDA capture the same variables (see kokkos-cuda.md).
//
// fast_rsqrt: what the kernels use.
//  - device pass (CUDA): one MUFU.RSQ through `rsqrt.approx.ftz.f32` (max relative error 2^-22.9). Plain rsqrtf
//    without -ftz adds an FSETP and two predicated FMULs per call to handle denormal inputs; that makes the loop
//    issue-bound instead of rsqrt-bound (measured: 78% -> 90% of the rsqrt ceiling). Flushing is harmless here:
//    any r^2 < 1e-8 A^2 is masked by the singularity rule, so a denormal r^2 never reaches a sum.
//  - host pass: integer first guess 0x5f375a86 and three Newton steps (max relative error 1.5e-7 for every finite
//    x >= 1e-8; +Inf gives 0 as 1/sqrt does). It vectorises;
//    1.0f / std::sqrt(x) does not, because std::sqrt may set errno (GCC keeps a scalar call for negative x
//    unless -fno-math-errno).
// ieee_rsqrt: 1.0f / sqrt(x), correctly rounded sqrt and division: what a kernel gets without fast-math.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ppl::kernels {

KOKKOS_FORCEINLINE_FUNCTION float newton_rsqrt3(float x) {
  std::int32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const std::int32_t i = 0x5f375a86 - (bits >> 1);
  float y;
  std::memcpy(&y, &i, sizeof y);
  const float h = 0.5f * x;
  y = y * (1.5f - h * y * y);
  y = y * (1.5f - h * y * y);
  y = y * (1.5f - h * y * y);
  // r^2 = +Inf (a distance beyond 1.8e19 A) would come out of the steps as -Inf (h = Inf), while 1/sqrt(Inf) is 0:
  // clear y's bits unless x is finite (Inf is 0x7f800000). A bit mask, not `finite ? y : 0`: GCC treats that select
  // as control flow and stops vectorising the loop (4x slower). Every finite x >= 1e-8 is within 1.5e-7 already.
  std::int32_t ybits;
  std::memcpy(&ybits, &y, sizeof ybits);
  ybits &= -std::int32_t(bits < 0x7f800000);
  std::memcpy(&y, &ybits, sizeof y);
  return y;
}

KOKKOS_FORCEINLINE_FUNCTION float fast_rsqrt(float x) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  return newton_rsqrt3(x);
#endif
}

KOKKOS_FORCEINLINE_FUNCTION float ieee_rsqrt(float x) {
#if defined(__CUDA_ARCH__)
  return 1.0f / sqrtf(x);
#else
  return 1.0f / std::sqrt(x);
#endif
}

}  // namespace ppl::kernels
