#pragma once
// The geometry of a regular 3D grid as the output formats describe it. Values handed to and returned by the grid
// writers/readers are x fastest: index = (k * ny + j) * nx + i, as ppl::lattice stores them.
#include <array>
#include <cstddef>

namespace ppl {

struct grid_geometry {
  std::array<double, 3> origin{0.0, 0.0, 0.0};  // position of point (0, 0, 0), Angstrom
  std::array<double, 3> delta{1.0, 1.0, 1.0};   // spacing along x, y, z (axis-aligned grids only)
  std::array<int, 3> dims{1, 1, 1};

  std::size_t size() const { return std::size_t(dims[0]) * std::size_t(dims[1]) * std::size_t(dims[2]); }
};

}  // namespace ppl
