#pragma once
// Nodal interpolation bases on a regular grid of unit spacing, for grids that carry smooth fields (the multilevel
// grids of multilevel_grid.hpp): phi(t) is 1 at t = 0, 0 at every other integer, even, piecewise polynomial of degree
// p between integers, with support |t| < (p + 1) / 2, and sum_m phi(t - m) P(m) = P(t) for every polynomial P of degree
// below p. A field f sampled at the nodes is interpolated as f(x) = sum_m phi(x - m) f_m, and its error is O(h^p).
//   cubic (p = 3):   C1, 4 nodes per axis (Catmull-Rom); reproduces quadratics.
//   quintic (p = 5): C2, 6 nodes per axis; reproduces quartics. Of the one-parameter family of C1 piecewise quintics
//                    that interpolate and reproduce quartics, the member whose second derivative is continuous too.
// Device-usable (KOKKOS_INLINE_FUNCTION); tests/spatial/test_interpolation_basis.cpp checks each property.
#include <Kokkos_Core.hpp>

#include "ppl/core/kokkos_compat.hpp"

namespace ppl::spatial {

constexpr int max_basis_degree = 5;
constexpr int max_basis_nodes = max_basis_degree + 1;

// phi(t) of degree p (3 or 5).
KOKKOS_INLINE_FUNCTION double basis_phi(int p, double t) {
  const double u = t < 0 ? -t : t;
  if (p == 3) {
    if (u < 1) return 0.5 * (u - 1) * (3 * u * u - 2 * u - 2);
    if (u < 2) return -0.5 * (u - 2) * (u - 2) * (u - 1);
    return 0.0;
  }
  if (u < 1) return -(u - 1) * ((((25 * u - 38) * u - 3) * u + 12) * u + 12) / 12.0;
  if (u < 2) return (u - 2) * (u - 1) * (((25 * u - 114) * u + 153) * u - 48) / 24.0;
  if (u < 3) return -(u - 3) * (u - 3) * (u - 3) * (u - 2) * (5 * u - 8) / 24.0;
  return 0.0;
}

// The p + 1 nodes whose phi can be nonzero at t: first = floor(t) - (p - 1) / 2, and their weights
// w[j] = phi(t - (first + j)).
KOKKOS_INLINE_FUNCTION int basis_weights(int p, double t, double (&w)[max_basis_nodes]) {
  const int m0 = int(kmath::floor(t));
  const int first = m0 - (p - 1) / 2;
  for (int j = 0; j <= p; ++j) w[j] = basis_phi(p, t - double(first + j));
  return first;
}

// Restriction and prolongation between a grid and the one of twice its spacing: a coarse node I couples to the fine
// nodes 2 I + d with weight phi(d / 2), |d| <= p (even d != 0 have weight 0, the basis interpolating).
KOKKOS_INLINE_FUNCTION double two_scale_weight(int p, int d) {
  return basis_phi(p, 0.5 * double(d));
}

}  // namespace ppl::spatial
