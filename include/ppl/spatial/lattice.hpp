#pragma once
// A regular 3D lattice. Point (i, j, k) sits at origin + spacing * (i, j, k). Values are stored x fastest:
// index = (k * ny + j) * nx + i. (OpenDX output, which wants z fastest, transposes when writing.)
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "ppl/io/atoms.hpp"
#include "ppl/spatial/lattice_shape.hpp"

namespace ppl {

// The limits every lattice of a job obeys (check_lattice; docs/config.md):
// - at most 2^31 - 1 points: the kernels index rows, teams and points within a row with int;
// - along each axis at most 1e6 A from the first point to the last. With atoms and origins within +-1e6 A (the
//   PQR reader and the job's keys bound them), every coordinate the float32 kernels see is within 3e6 A of the
//   lattice origin, so r^2 stays below 3 * (3e6)^2 = 2.7e13, far inside float32's range (3.4e38).
constexpr std::uint64_t max_lattice_points = 2147483647;
constexpr double max_lattice_extent = 1e6;  // A

struct lattice {
  std::array<double, 3> origin{0.0, 0.0, 0.0};
  double spacing = 0.5;
  std::array<int, 3> dims{1, 1, 1};
  // Periodic: the lattice spans an orthorhombic box [origin, origin + dims * spacing) per axis (point dims wraps to
  // point 0); atoms are taken modulo the box and each pair uses the minimum image. Only with a cutoff interaction
  // whose radius is at most half the shortest box side (so one image per pair is all there is).
  bool periodic = false;
  // A slab of a larger lattice with the same origin: its planes k = 0 .. dims[2] - 1 are that lattice's planes
  // first_plane + k, and every coordinate is computed from the larger lattice's index (coord, shape), so a strategy
  // that honours it (capability "z_slab", potential_strategy.hpp) computes the slab's points with the same float
  // arithmetic as the whole lattice. 0 for every lattice a job reads.
  int first_plane = 0;

  std::array<double, 3> box() const { return {spacing * dims[0], spacing * dims[1], spacing * dims[2]}; }

  // nx * ny * nz; saturates at SIZE_MAX instead of wrapping around, so an oversized lattice never looks empty.
  std::size_t size() const {
    std::size_t xy = 0, xyz = 0;
    if (dims[0] < 0 || dims[1] < 0 || dims[2] < 0 ||
        __builtin_mul_overflow(std::size_t(dims[0]), std::size_t(dims[1]), &xy) ||
        __builtin_mul_overflow(xy, std::size_t(dims[2]), &xyz))
      return SIZE_MAX;
    return xyz;
  }
  // The kernels' view of this lattice (index maths, float32 coordinates relative to the origin).
  spatial::lattice_shape shape() const { return {dims[0], dims[1], dims[2], float(spacing), first_plane}; }
  std::size_t index(int i, int j, int k) const { return std::size_t(shape().index(i, j, k)); }
  double coord(int axis, int i) const { return origin[axis] + spacing * (axis == 2 ? i + first_plane : i); }
  // The float64 position of point `idx` (x fastest).
  std::array<double, 3> point(std::size_t idx) const {
    int i, j, k;
    shape().ijk(std::int64_t(idx), i, j, k);
    return {coord(0, i), coord(1, j), coord(2, k)};
  }
};

// Throws input_error (the message names no place; callers add the config key) unless every dim is >= 1, the point
// count is at most max_lattice_points, origin and spacing are finite, spacing > 0 and each axis spans at most
// max_lattice_extent.
void check_lattice(const lattice& g);

// Throws input_error unless g.size() * bytes_per_point fits in `available_bytes` of `memory` ("host memory", ...).
void check_lattice_memory(const lattice& g, double bytes_per_point, double available_bytes, const std::string& memory);

// Parboil's convention: lo = min - padding, hi = max + padding, n = floor((hi - lo) / h) + 1 per axis. Throws
// input_error when an axis would exceed the limits above (the point count is left to check_lattice, since a job may
// keep one plane of a lattice too large as a whole).
lattice lattice_around(const atoms& a, double spacing, double padding);

}  // namespace ppl
