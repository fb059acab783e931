#pragma once
// Nested regular grids for multilevel methods (in the spirit of Cabana's Grid: plain, device-usable index spaces,
// built once for a problem and used by any kernel). Level k has spacing h 2^k; its node with global index m
// (per axis) sits at m h 2^k in the frame of the positions it covers, so node 2 I of level k is node I of level
// k + 1. Each level stores the nodes lo..lo + n - 1 per axis, padded by `pad` zero nodes on every side (a stencil
// of radius <= pad reads them without bounds checks), x fastest.
//
// Coverage: level 0 holds every node whose basis function (interpolation_basis.hpp, degree p) reaches a point of
// the box given (positions and evaluation points alike), and each coarser level every node that restriction reaches
// from the level below: coarse I couples to fine 2 I + d, |d| <= p. So restriction, prolongation and interpolation
// never leave the stored nodes.
//
// restrict_to_coarser and prolong_add are the two-scale transfers with the basis' weights phi(d / 2), as gathers
// (one thread per output node, a fixed order of terms): the results do not depend on the thread schedule.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <string>

#include "ppl/spatial/interpolation_basis.hpp"

namespace ppl::spatial {

constexpr int max_grid_levels = 32;

struct grid_level {
  int lo[3] = {0, 0, 0};  // global index of the first stored node per axis
  int n[3] = {1, 1, 1};   // nodes per axis
  int pad = 0;            // zero nodes around them in storage
  double h = 1.0;         // spacing (A)

  KOKKOS_INLINE_FUNCTION int stride_y() const { return n[0] + 2 * pad; }
  KOKKOS_INLINE_FUNCTION std::int64_t stride_z() const { return std::int64_t(stride_y()) * (n[1] + 2 * pad); }
  KOKKOS_INLINE_FUNCTION std::int64_t nodes() const { return std::int64_t(n[0]) * n[1] * n[2]; }
  KOKKOS_INLINE_FUNCTION std::int64_t stored() const { return stride_z() * (n[2] + 2 * pad); }
  // Storage index of local node (i, j, k), 0 <= i < n[0] (offsets up to +-pad allowed).
  KOKKOS_INLINE_FUNCTION std::int64_t at(int i, int j, int k) const {
    return (std::int64_t(k + pad) * (n[1] + 2 * pad) + (j + pad)) * stride_y() + (i + pad);
  }
  // Local node (i, j, k) of index idx in [0, nodes()).
  KOKKOS_INLINE_FUNCTION void ijk(std::int64_t idx, int& i, int& j, int& k) const {
    i = int(idx % n[0]);
    const std::int64_t row = idx / n[0];
    j = int(row % n[1]);
    k = int(row / n[1]);
  }
};

struct multilevel_grid {
  int levels = 1;
  int degree = 3;  // of the interpolation basis
  grid_level level[max_grid_levels];
};

// The hierarchy over the box [lo, hi] (A, per axis; positions in the grid's frame) with finest spacing h, basis
// degree p (3 or 5), `levels` levels (0: coarsened until every axis of the top level has at most 2 p + 4 nodes or
// stops shrinking) and `pad` zero nodes around each level. Throws input_error when the box is not finite, h <= 0, or
// the hierarchy would hold more than max_nodes nodes in all (the message gives the count and the box).
multilevel_grid make_multilevel_grid(const std::array<double, 3>& lo, const std::array<double, 3>& hi, double h,
                                     int p, int levels, int pad, double max_nodes);

// Nodes stored over all levels (padding included).
double stored_nodes(const multilevel_grid& g);

// q_{k+1}(I) = sum_d w(dx) w(dy) w(dz) q_k(2 I + d): level k's padded values `fine` to level k + 1's `coarse`
// (padded; its padding is left as it is, zero). Requires pad >= 2 p on level k: coarse node I reaches fine
// nodes 2 I + d, up to p beyond the coarse range's image, which itself reaches p beyond the fine range.
template <class Space, class View>
void restrict_to_coarser(const Space& space, const multilevel_grid& g, int k, const View& fine, const View& coarse) {
  const grid_level f = g.level[k], c = g.level[k + 1];
  const int p = g.degree;
  Kokkos::parallel_for(
      "ppl::spatial::restrict", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, c.nodes()),
      KOKKOS_LAMBDA(std::int64_t idx) {
        int I[3];
        c.ijk(idx, I[0], I[1], I[2]);
        int base[3];  // local fine index of node 2 I
        for (int d = 0; d < 3; ++d) base[d] = 2 * (c.lo[d] + I[d]) - f.lo[d];
        double sum = 0.0;
        for (int dz = -p; dz <= p; dz += (dz == 0 || dz == -1) ? 1 : 2) {
          const double wz = two_scale_weight(p, dz);
          for (int dy = -p; dy <= p; dy += (dy == 0 || dy == -1) ? 1 : 2) {
            const double wyz = wz * two_scale_weight(p, dy);
            double row = 0.0;
            for (int dx = -p; dx <= p; dx += (dx == 0 || dx == -1) ? 1 : 2)
              row += two_scale_weight(p, dx) * fine(f.at(base[0] + dx, base[1] + dy, base[2] + dz));
            sum += wyz * row;
          }
        }
        coarse(c.at(I[0], I[1], I[2])) = sum;
      });
}

// e_k(i) += sum_I w(i - 2 I) e_{k+1}(I) over the coarse nodes within reach: level k + 1's values `coarse` added into
// level k's `fine` (both padded).
template <class Space, class View>
void prolong_add(const Space& space, const multilevel_grid& g, int k, const View& coarse, const View& fine) {
  const grid_level f = g.level[k], c = g.level[k + 1];
  const int p = g.degree;
  Kokkos::parallel_for(
      "ppl::spatial::prolong", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, f.nodes()),
      KOKKOS_LAMBDA(std::int64_t idx) {
        int i[3];
        f.ijk(idx, i[0], i[1], i[2]);
        int first[3], count[3], parity[3];
        for (int d = 0; d < 3; ++d) {
          const int m = f.lo[d] + i[d];  // global fine index; coarse I with |m - 2 I| <= p
          const int lo = m - p >= 0 ? (m - p + 1) / 2 : -((p - m) / 2);  // ceil((m - p) / 2)
          const int hi = m + p >= 0 ? (m + p) / 2 : -((-(m + p) + 1) / 2);  // floor((m + p) / 2)
          first[d] = lo;
          count[d] = hi - lo + 1;
          parity[d] = m;
        }
        double sum = 0.0;
        for (int cz = 0; cz < count[2]; ++cz) {
          const int Iz = first[2] + cz;
          const double wz = two_scale_weight(p, parity[2] - 2 * Iz);
          for (int cy = 0; cy < count[1]; ++cy) {
            const int Iy = first[1] + cy;
            const double wyz = wz * two_scale_weight(p, parity[1] - 2 * Iy);
            double row = 0.0;
            for (int cx = 0; cx < count[0]; ++cx) {
              const int Ix = first[0] + cx;
              row += two_scale_weight(p, parity[0] - 2 * Ix) * coarse(c.at(Ix - c.lo[0], Iy - c.lo[1], Iz - c.lo[2]));
            }
            sum += wyz * row;
          }
        }
        fine(f.at(i[0], i[1], i[2])) += sum;
      });
}

}  // namespace ppl::spatial
