#pragma once
// The geometry of the spatial bins of a cutoff summation (Parboil cutcp, Rodrigues et al. 2008): a regular grid of
// boxes in the frame the kernels use (positions relative to the lattice origin, as `to_device` makes them), so that
// a kernel can find an atom's bin with a subtraction, a division and a truncation, and the bins that can hold atoms
// within the cutoff of a block of lattice points are a fixed offset list (bin_stencil.hpp). It is a plain struct of
// floats and ints, copied by value into kernels; its members are KOKKOS_INLINE_FUNCTION and use no std:: containers.
// A non-periodic grid covers the lattice's box grown by the cutoff radius (atoms farther than the radius from every
// lattice point cannot contribute, so `bin_of` reports them outside and they are dropped); a periodic grid tiles the
// orthorhombic box of the lattice (dims * spacing per axis) and `bin_of` wraps positions into it.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "ppl/core/kokkos_compat.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl::spatial {

// Limits: grid.size() is at most max_bins, so bin indices (index(), counts) are int; slot indices
// (bin * capacity + slot, atom_bins.hpp) are std::int64_t.
constexpr std::int64_t max_bins = 2147483647;

struct bin_grid {
  float origin[3] = {0.0f, 0.0f, 0.0f};  // lower corner of bin (0, 0, 0), lattice frame (A)
  float edge[3] = {1.0f, 1.0f, 1.0f};    // bin edge per axis (A); periodic grids stretch it to box / dims
  int dims[3] = {1, 1, 1};               // bins per axis
  bool periodic = false;
  float box[3] = {0.0f, 0.0f, 0.0f};  // periodic box lengths (A), the box is [0, box) per axis; 0 when not periodic

  KOKKOS_INLINE_FUNCTION int size() const { return dims[0] * dims[1] * dims[2]; }
  // x fastest, like lattice::index. Valid for 0 <= b < dims per axis (size() <= max_bins, so no overflow).
  KOKKOS_INLINE_FUNCTION int index(int bx, int by, int bz) const { return (bz * dims[1] + by) * dims[0] + bx; }

  // Periodic only: x moved by a multiple of box[axis] into [0, box[axis]) (the arithmetic is float64 so a position
  // far outside the box keeps its float32 precision; a result that rounds to box[axis] becomes 0). NaN stays NaN.
  KOKKOS_INLINE_FUNCTION float wrap(int axis, float x) const {
    const double l = box[axis];
    const double w = double(x) - l * kmath::floor(double(x) / l);
    float f = float(w);
    if (f < 0.0f) f += box[axis];
    if (f >= box[axis]) f = 0.0f;
    return f;
  }
  KOKKOS_INLINE_FUNCTION void wrap_position(float& x, float& y, float& z) const {
    if (!periodic) return;
    x = wrap(0, x);
    y = wrap(1, y);
    z = wrap(2, z);
  }

  // The bin of one coordinate (periodic: of the wrapped coordinate); false outside a non-periodic grid or for a
  // non-finite coordinate.
  KOKKOS_INLINE_FUNCTION bool axis_bin(int axis, float x, int& b) const {
    if (periodic) x = wrap(axis, x);
    const float f = (x - origin[axis]) / edge[axis];
    if (!(f >= 0.0f)) return false;  // below the grid, or NaN
    if (f < float(dims[axis])) {
      b = int(f);
      if (b > dims[axis] - 1) b = dims[axis] - 1;
      return true;
    }
    // Above a non-periodic grid. Periodic: x is in [0, box) here, f >= dims only by the rounding of edge and of the
    // division, so x belongs to the last bin.
    if (!periodic || !(x < box[axis])) return false;
    b = dims[axis] - 1;
    return true;
  }
  // The bin holding (x, y, z) (lattice frame); false when it lies outside a non-periodic grid or is not finite.
  KOKKOS_INLINE_FUNCTION bool bin_of(float x, float y, float z, int& bx, int& by, int& bz) const {
    return axis_bin(0, x, bx) && axis_bin(1, y, by) && axis_bin(2, z, bz);
  }
};

// Bins for lattice `g` (check_lattice must accept it) with bins of `edge` A.
// Non-periodic (`radius` is the cutoff): halo = ceil(radius / edge) bins; bin (halo, halo, halo)'s lower corner is
// the lattice origin; per axis dims = halo + floor((extent + radius) / edge) + 1 with extent = spacing * (n - 1),
// plus one when that upper face is within float32 rounding of extent + radius, so the grid covers
// [-radius, extent + radius] and more (an atom exactly at -radius is kept unless float32 rounding of the origin moves
// the face past it).
// Periodic: box = spacing * n per axis (the lattice origin is the box's lower corner, point n wraps to point 0),
// dims = max(1, floor(box / edge)), edge[axis] = box / dims >= `edge` (except when box < edge: then one bin of
// edge box). `radius` is only validated.
// Throws input_error (naming the quantity) unless edge and radius are finite and > 0, radius <= max_lattice_extent,
// and the bin count is at most max_bins.
bin_grid make_bin_grid(const lattice& g, double edge, double radius, bool periodic);

}  // namespace ppl::spatial
