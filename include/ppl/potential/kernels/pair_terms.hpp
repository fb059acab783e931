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

// Calls f(term) with the functor of `in` (host code; each kernel is instantiated once per term it supports).
template <class F>
void with_cutoff_term(const interaction& in, F&& f) {
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
