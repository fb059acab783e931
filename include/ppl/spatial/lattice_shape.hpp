#pragma once
// The lattice as kernels see it: a plain, device-usable struct (in the spirit of Cabana's CartesianGrid) with the
// one copy of the index maths. Points are stored x fastest, index = (k * ny + j) * nx + i; in the kernels' frame
// (atoms shifted by the lattice origin, potential_strategy.hpp) point (i, j, k) sits at (i h, j h, k h), computed
// as float(i) * h so that every kernel rounds coordinates the same way.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace ppl::spatial {

struct lattice_shape {
  int nx = 1, ny = 1, nz = 1;
  float h = 0.5f;
  // The global index of plane 0 (lattice::first_plane): z coordinates are float(k + k0) * h, so a slab's points
  // round exactly as the whole lattice's do; the index maths stays local to the slab.
  int k0 = 0;

  KOKKOS_INLINE_FUNCTION std::int64_t size() const { return std::int64_t(nx) * ny * nz; }
  KOKKOS_INLINE_FUNCTION std::int64_t rows() const { return std::int64_t(ny) * nz; }  // x rows
  KOKKOS_INLINE_FUNCTION std::int64_t index(int i, int j, int k) const { return (std::int64_t(k) * ny + j) * nx + i; }
  KOKKOS_INLINE_FUNCTION void ijk(std::int64_t idx, int& i, int& j, int& k) const {
    i = int(idx % nx);
    const std::int64_t row = idx / nx;
    j = int(row % ny);
    k = int(row / ny);
  }
  // The same with 32-bit arithmetic, for per-point kernels: a lattice holds at most 2^31 - 1 points
  // (max_lattice_points), so the int index is exact, and a GPU emulates 64-bit division with dozens of instructions.
  KOKKOS_INLINE_FUNCTION void ijk(int idx, int& i, int& j, int& k) const {
    i = idx % nx;
    const int row = idx / nx;
    j = row % ny;
    k = row / ny;
  }
  // Row r = k * ny + j: its first point's index and its y, z coordinates.
  KOKKOS_INLINE_FUNCTION std::int64_t row_start(std::int64_t row) const { return row * nx; }
  KOKKOS_INLINE_FUNCTION float row_y(std::int64_t row) const { return float(int(row % ny)) * h; }
  KOKKOS_INLINE_FUNCTION float row_z(std::int64_t row) const { return float(int(row / ny) + k0) * h; }
  // x and y coordinates of index i; z coordinates of plane k through coord_z.
  KOKKOS_INLINE_FUNCTION float coord(int i) const { return float(i) * h; }
  KOKKOS_INLINE_FUNCTION float coord_z(int k) const { return float(k + k0) * h; }
};

}  // namespace ppl::spatial
