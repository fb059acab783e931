#pragma once
// The float32 pair terms of the interactions (interaction.hpp), one functor each, used by every kernel: given the
// charge, r^2 and 1/r (the kernel computes 1/r with the rsqrt it chooses), the contribution to the point. The
// singularity rule is the kernel's business (row_accumulate.hpp). Cutoff terms are a select, not a branch, so a
// warp whose lanes straddle rc does not diverge, and they are exact zeros beyond rc.
#include <Kokkos_Core.hpp>

#include "ppl/potential/interaction.hpp"

namespace ppl::kernels {

struct coulomb_term {
  KOKKOS_FORCEINLINE_FUNCTION float operator()(float q, float /*r2*/, float inv_r) const { return q * inv_r; }
};

struct truncated_term {
  float rc2;
  KOKKOS_FORCEINLINE_FUNCTION float operator()(float q, float r2, float inv_r) const {
    return r2 < rc2 ? q * inv_r : 0.0f;
  }
};

// Parboil's cutcp: q/r (1 - r^2/rc^2)^2.
struct cutcp_term {
  float rc2, inv_rc2;
  KOKKOS_FORCEINLINE_FUNCTION float operator()(float q, float r2, float inv_r) const {
    const float s = 1.0f - r2 * inv_rc2;
    return r2 < rc2 ? q * inv_r * (s * s) : 0.0f;
  }
};

struct shifted_term {
  float rc2, inv_rc;
  KOKKOS_FORCEINLINE_FUNCTION float operator()(float q, float r2, float inv_r) const {
    return r2 < rc2 ? q * (inv_r - inv_rc) : 0.0f;
  }
};

// MSM's short range (interaction kind msm): q (1/r - g_a(r)) within a, g_a(r) = c0 + c1 r^2 + c2 r^4 + c3 r^6
// (interaction.hpp). Value and slope vanish at a, so the step a float32 r^2 may take there is tiny.
struct msm_short_term {
  float a2, c0, c1, c2, c3;
  KOKKOS_FORCEINLINE_FUNCTION float operator()(float q, float r2, float inv_r) const {
    const float g = c0 + r2 * (c1 + r2 * (c2 + r2 * c3));
    return r2 < a2 ? q * (inv_r - g) : 0.0f;
  }
};

inline msm_short_term make_msm_short_term(const interaction& in) {
  double c[4];
  msm_splitting_coefficients(in.msm, in.msm.cutoff, c);
  return {float(in.msm.cutoff * in.msm.cutoff), float(c[0]), float(c[1]), float(c[2]), float(c[3])};
}

// Calls f(term) with the functor of `in`, a cutoff or msm interaction (host code; each kernel is instantiated once per term it supports).
template <class F>
void with_cutoff_term(const interaction& in, F&& f) {
  if (in.is_msm()) {  // the short range of a multilevel summation
    f(make_msm_short_term(in));
    return;
  }
  const double rc = in.radius;
  switch (in.function) {
    case cutoff_function::truncated:
      f(truncated_term{float(rc * rc)});
      break;
    case cutoff_function::cutcp:
      f(cutcp_term{float(rc * rc), float(1.0 / (rc * rc))});
      break;
    case cutoff_function::shifted:
      f(shifted_term{float(rc * rc), float(1.0 / rc)});
      break;
  }
}

}  // namespace ppl::kernels
