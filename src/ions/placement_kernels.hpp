#pragma once
// What the two placement algorithms (placement.cpp: the full pass; bounded_placement.cpp: branch and bound over
// blocks) share point for point, so that they place the same ions and leave the same map bits: the packed
// (score, index) key of the arg-min, the update of a point by one ion and the exclusion sphere's test.
//
// The float arithmetic of the update is pinned: the ions layer is compiled without contraction of multiplies and
// adds into fused multiply-adds (nvcc --fmad=false, host -ffp-contract=off; src/CMakeLists.txt). With contraction
// nvcc fused different operations in different loops of one kernel (the full pass's row fast path computed
// dz^2 + fma(dx, dx, dy^2), its general path fma(dz, dz, fma(dy, dy, dx^2))), so two kernels, or two paths of
// one, could disagree in the last bit of a point.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "ppl/ions/placement.hpp"
#include "ppl/potential/kernels/fast_rsqrt.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/spatial/lattice_shape.hpp"

namespace ppl::ions_detail {

// Lowest score first, then lowest index: a total order on the candidates, so every reduction tree (OpenMP threads,
// CUDA blocks and warps) ends at the same point. The pair (score, index) is packed into one 64-bit key whose unsigned
// order is that order: the float's bits mapped so that unsigned comparison orders them as floats (negatives
// reversed, positives above them), the index below. One key makes the cross-team step a single atomic min, so a pass
// needs as many teams as fill the device rather than the at most block-size blocks of a Kokkos 3.4 CUDA range
// reduction with a struct value (measured: 0.9 ms per ion on a 6.4e7-point lattice on the H200 against 0.15 ms at
// copy bandwidth). Points not allowed and NaN scores never become candidates; no candidate leaves the identity.
using choice_key = unsigned long long;
constexpr choice_key no_choice = ~choice_key(0);

// A float's bits mapped so that unsigned order is float order (NaN excluded; -0 and +0 map alike).
KOKKOS_INLINE_FUNCTION std::uint32_t ordered_bits(float f) {
  const float s = f + 0.0f;  // -0 becomes +0: they compare equal as floats, so they must pack equal
  std::uint32_t u;
  std::memcpy(&u, &s, sizeof u);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

KOKKOS_INLINE_FUNCTION float from_ordered_bits(std::uint32_t u) {
  u = (u & 0x80000000u) ? (u & 0x7fffffffu) : ~u;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

KOKKOS_INLINE_FUNCTION choice_key make_key(float score, int index) {
  return (choice_key(ordered_bits(score)) << 32) | choice_key(std::uint32_t(index));
}

KOKKOS_INLINE_FUNCTION float key_score(choice_key key) {
  return from_ordered_bits(std::uint32_t(key >> 32));
}

inline ion_choice to_choice(choice_key key) {
  if (key == no_choice) return ion_choice{0.0f, -1};
  return ion_choice{key_score(key), int(std::uint32_t(key & 0xffffffffu))};
}

KOKKOS_INLINE_FUNCTION int imin(int a, int b) {
  return a < b ? a : b;  // Kokkos::min is not in every release ppl builds against
}

KOKKOS_INLINE_FUNCTION int iabs(int a) {
  return a < 0 ? -a : a;
}

// v plus the ion's term at a point dx, dy, dz from it (float offsets of the float coordinates, as
// lattice_shape::coord gives them): the job's interaction, float32 pair term of kernels/pair_terms.hpp, with the
// singularity rule of potential_strategy.hpp: the ion's own point (r2 = 0) gets nothing; a select, not a product,
// since rsqrt(0) is Inf.
template <class Term>
KOKKOS_INLINE_FUNCTION float add_ion_term(const Term& term, float v, float q, float dx, float dy, float dz) {
  const float r2 = dx * dx + dy * dy + dz * dz;
  return v + (r2 < float(coincidence_radius2) ? 0.0f : term(q, r2, kernels::fast_rsqrt(r2)));
}

// The points closer than `distance` to lattice point (ci, cj, ck), from the exact float64 differences of the products
// i h, as a host check computes them from lattice::point. `half` bounds the box per axis (-1: no point).
struct exclusion_sphere {
  int ci = 0, cj = 0, ck = 0, half = -1;
  double h = 0, d2max = 0;
  KOKKOS_INLINE_FUNCTION double axis(int i, int c) const { return double(i) * h - double(c) * h; }
  KOKKOS_INLINE_FUNCTION bool covers(int i, int j, int k) const {
    const double dx = axis(i, ci), dy = axis(j, cj), dz = axis(k, ck);
    return dx * dx + dy * dy + dz * dz < d2max;
  }
  // Whether the point is in the box of `half` around the centre and the sphere covers it.
  KOKKOS_INLINE_FUNCTION bool excludes(int i, int j, int k) const {
    return iabs(i - ci) <= half && iabs(j - cj) <= half && iabs(k - ck) <= half && covers(i, j, k);
  }
};

inline exclusion_sphere make_sphere(const spatial::lattice_shape& shape, double h, int index, double distance) {
  exclusion_sphere e;
  shape.ijk(index, e.ci, e.cj, e.ck);
  e.h = h, e.d2max = distance * distance;
  e.half = distance > 0 ? int(std::min(std::ceil(distance / h), 2.0e6)) : -1;  // the clip keeps ci +- half in int
  return e;
}

}  // namespace ppl::ions_detail
