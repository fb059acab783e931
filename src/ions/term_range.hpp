#pragma once
// Bounds of what one ion adds to the points of a box of the lattice, for the bounded placement
// (bounded_placement.cpp): every float value add_ion_term's term takes at a point of the box lies in the range.
// Rigorous, not tight: the float offsets are bracketed from the float products i h that the update computes, r^2
// widened by its roundings, 1/r by fast_rsqrt's error, each term by the roundings of its few float operations. A
// wider range costs blocks evaluated, never a wrong ion (docs/ions.md). Every term is monotone in r^2 inside its
// cutoff except msm's short range, which is bracketed by interval arithmetic instead.
#include <Kokkos_Core.hpp>
#include <limits>

#include "placement_kernels.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/potential/kernels/pair_terms.hpp"

namespace ppl::ions_detail {

// Constants, not calls: std::numeric_limits' functions are host functions to nvcc.
constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr float float_infinity = std::numeric_limits<float>::infinity();
constexpr float float_largest = std::numeric_limits<float>::max();
constexpr double float_roundoff = 0x1p-24;  // float32 unit roundoff (round to nearest)
// fast_rsqrt's relative error: 2^-22.9 on the device (MUFU.RSQ), 1.5e-7 (2^-22.7) on the host (three Newton steps).
constexpr double rsqrt_error = 0x1p-21;
// A term's few float operations (at most four roundings), relative to the magnitudes they combine.
constexpr double term_slack = 0x1p-20;

struct value_range {
  double lo = infinity, hi = -infinity;  // lo > hi: empty
  KOKKOS_INLINE_FUNCTION void include(double a, double b) {
    lo = a < lo ? a : lo;
    hi = b > hi ? b : hi;
  }
};

KOKKOS_INLINE_FUNCTION double dmin(double a, double b) {
  return a < b ? a : b;
}
KOKKOS_INLINE_FUNCTION double dmax(double a, double b) {
  return a > b ? a : b;
}
KOKKOS_INLINE_FUNCTION double dabs(double a) {
  return a < 0 ? -a : a;
}

// q times [lo, hi], widened by term_slack x |q| x magnitude (the roundings of the float evaluation).
KOKKOS_INLINE_FUNCTION value_range scaled(double q, double lo, double hi, double magnitude) {
  const double w = term_slack * dabs(q) * magnitude;
  value_range r;
  if (q >= 0)
    r.include(q * lo - w, q * hi + w);
  else
    r.include(q * hi - w, q * lo + w);
  return r;
}

// 1/r from fast_rsqrt over float r^2 in [a, b] (0 < a <= b).
KOKKOS_INLINE_FUNCTION double rsqrt_low(double b) {
  return (1.0 - rsqrt_error) / kmath::sqrt(b);
}
KOKKOS_INLINE_FUNCTION double rsqrt_high(double a) {
  return (1.0 + rsqrt_error) / kmath::sqrt(a);
}

// The term over float r^2 in [a, b], a at least the coincidence radius^2 (the caller handles the points below it).
// Cutoff terms: r^2 < rc^2 (the kernels' float test) takes the inner expression, else 0.
KOKKOS_INLINE_FUNCTION value_range term_range(const kernels::coulomb_term&, double q, double a, double b) {
  const double yhi = rsqrt_high(a);
  return scaled(q, rsqrt_low(b), yhi, yhi);
}

KOKKOS_INLINE_FUNCTION value_range term_range(const kernels::truncated_term& t, double q, double a, double b) {
  const double rc2 = t.rc2;
  value_range r;
  if (b >= rc2) r.include(0, 0);
  if (a < rc2) {
    const double yhi = rsqrt_high(a);
    const value_range in = scaled(q, rsqrt_low(dmin(b, rc2)), yhi, yhi);
    r.include(in.lo, in.hi);
  }
  return r;
}

KOKKOS_INLINE_FUNCTION value_range term_range(const kernels::shifted_term& t, double q, double a, double b) {
  const double rc2 = t.rc2, inv_rc = t.inv_rc;
  value_range r;
  if (b >= rc2) r.include(0, 0);
  if (a < rc2) {
    const double yhi = rsqrt_high(a);
    const value_range in = scaled(q, rsqrt_low(dmin(b, rc2)) - inv_rc, yhi - inv_rc, yhi + inv_rc);
    r.include(in.lo, in.hi);
  }
  return r;
}

// q / r (1 - r^2 / rc^2)^2: s = 1 - r^2 inv_rc2 is within 4 roundoffs of its exact value (|r^2 inv_rc2| <= 1 + u).
KOKKOS_INLINE_FUNCTION value_range term_range(const kernels::cutcp_term& t, double q, double a, double b) {
  const double rc2 = t.rc2, inv_rc2 = t.inv_rc2;
  value_range r;
  if (b >= rc2) r.include(0, 0);
  if (a < rc2) {
    const double bin = dmin(b, rc2);
    const double s_lo = 1.0 - bin * inv_rc2 - 4 * float_roundoff, s_hi = 1.0 - a * inv_rc2 + 4 * float_roundoff;
    const double s2_hi = dmax(s_lo * s_lo, s_hi * s_hi),
                 s2_lo = s_lo <= 0 && s_hi >= 0 ? 0.0 : dmin(s_lo * s_lo, s_hi * s_hi);
    const double yhi = rsqrt_high(a);
    const value_range in = scaled(q, rsqrt_low(bin) * s2_lo, yhi * s2_hi, yhi * s2_hi);
    r.include(in.lo, in.hi);
  }
  return r;
}

// The product interval [a, b] x [c, d].
KOKKOS_INLINE_FUNCTION value_range interval_product(double a, double b, double c, double d) {
  value_range r;
  r.include(a * c, a * c);
  r.include(a * d, a * d);
  r.include(b * c, b * c);
  r.include(b * d, b * d);
  return r;
}

// q (1/r - g(r^2)), g = c0 + r^2 (c1 + r^2 (c2 + r^2 c3)) in float (Horner): g by interval arithmetic over
// [a, min(b, a2)], widened by 8 roundoffs of the sum of its terms' magnitudes.
KOKKOS_INLINE_FUNCTION value_range term_range(const kernels::msm_short_term& t, double q, double a, double b) {
  const double a2 = t.a2;
  value_range r;
  if (b >= a2) r.include(0, 0);
  if (a < a2) {
    const double bin = dmin(b, a2);
    value_range g;
    g.include(t.c3, t.c3);
    g = interval_product(g.lo, g.hi, a, bin);
    g.lo += t.c2, g.hi += t.c2;
    g = interval_product(g.lo, g.hi, a, bin);
    g.lo += t.c1, g.hi += t.c1;
    g = interval_product(g.lo, g.hi, a, bin);
    g.lo += t.c0, g.hi += t.c0;
    const double mag = dabs(t.c0) + bin * (dabs(t.c1) + bin * (dabs(t.c2) + bin * dabs(t.c3)));
    g.lo -= 8 * float_roundoff * mag, g.hi += 8 * float_roundoff * mag;
    const double yhi = rsqrt_high(a);
    const value_range in = scaled(q, rsqrt_low(bin) - g.hi, yhi - g.lo, yhi + mag);
    r.include(in.lo, in.hi);
  }
  return r;
}

// |d| over the float offsets d(i) = coord(i) - c of i in [i0, i1]: d is monotone in i, each end within
// 2^-23 (|i h| + |d|) of its exact value (the subtraction's rounding, or a product fused into it).
struct offset_range {
  double lo, hi;  // of |d|
};

KOKKOS_INLINE_FUNCTION offset_range axis_range(int i0, int i1, float h, float c) {
  const double p0 = double(float(i0) * h), p1 = double(float(i1) * h);
  const double e0 = p0 - double(c), e1 = p1 - double(c);
  const double d0 = e0 - 0x1p-23 * (dabs(p0) + dabs(e0)), d1 = e1 + 0x1p-23 * (dabs(p1) + dabs(e1));
  offset_range r;
  r.lo = d0 <= 0 && d1 >= 0 ? 0.0 : dmin(dabs(d0), dabs(d1));
  r.hi = dmax(dabs(d0), dabs(d1));
  return r;
}

// A box of lattice points [i0, i1] x [j0, j1] x [k0, k1] and an ion at lattice point (ci, cj, ck), float
// coordinates (ix, iy, iz) = coord(ci), ...: the float r^2 of the box's points lie in [lo, hi], except the ion's own
// point when the box holds it (own: its r^2 is within own_hi of 0).
struct box_distances {
  double lo, hi;
  bool own;
  double own_hi;
};

KOKKOS_INLINE_FUNCTION box_distances box_r2(const int lo[3], const int hi[3], const int c[3], const float ic[3],
                                            float h) {
  // float r^2 = three squares and two sums, each rounded: within (1 +- u)^5 of the exact sum of squares.
  constexpr double widen = 8 * float_roundoff;
  box_distances d;
  d.own = true;
  double sum_lo = 0, sum_hi = 0, other = infinity, own2 = 0;
  for (int a = 0; a < 3; ++a) {
    const offset_range r = axis_range(lo[a], hi[a], h, ic[a]);
    sum_lo += r.lo * r.lo;
    sum_hi += r.hi * r.hi;
    const bool inside = lo[a] <= c[a] && c[a] <= hi[a];
    d.own = d.own && inside;
    // A point other than the ion's differs from it on some axis: on that axis its offset is at least that of the
    // nearest other index in the box.
    if (inside) {
      if (c[a] > lo[a]) {
        const offset_range m = axis_range(lo[a], c[a] - 1, h, ic[a]);
        other = dmin(other, m.lo * m.lo);
      }
      if (c[a] < hi[a]) {
        const offset_range m = axis_range(c[a] + 1, hi[a], h, ic[a]);
        other = dmin(other, m.lo * m.lo);
      }
      const double self = 0x1p-23 * dabs(double(float(c[a]) * h));
      own2 += self * self;
    } else {
      other = dmin(other, r.lo * r.lo);
    }
  }
  d.lo = (d.own ? other : sum_lo) * (1 - widen);
  d.hi = sum_hi * (1 + widen);
  d.own_hi = own2 * (1 + widen);
  return d;
}

// The term over float r^2 in [a, b], the coincidence rule included: r^2 below the coincidence radius^2 gives 0.
template <class Term>
KOKKOS_INLINE_FUNCTION void include_r2_interval(value_range& r, const Term& t, double q, double a, double b) {
  const double c = double(float(coincidence_radius2));
  if (a < c) r.include(0, 0);
  if (b >= c) {
    const value_range in = term_range(t, q, dmax(a, c), b);
    r.include(in.lo, in.hi);
  }
}

// What an ion of charge q adds to the points of the box: [lo, hi] of add_ion_term's term.
template <class Term>
KOKKOS_INLINE_FUNCTION value_range ion_term_range(const Term& t, float q, const box_distances& d) {
  value_range r;
  if (d.own) include_r2_interval(r, t, q, 0.0, d.own_hi);
  if (d.lo <= d.hi) include_r2_interval(r, t, q, d.lo, d.hi);  // none when the box is the ion's point alone
  return r;
}

}  // namespace ppl::ions_detail
