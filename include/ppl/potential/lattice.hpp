#pragma once
// A regular 3D lattice. Point (i, j, k) sits at origin + spacing * (i, j, k). Values are stored x fastest:
// index = (k * ny + j) * nx + i. (OpenDX output, which wants z fastest, transposes when writing.)
#include <array>
#include <cstddef>

#include "ppl/potential/atoms.hpp"

namespace ppl {

struct lattice {
  std::array<double, 3> origin{0.0, 0.0, 0.0};
  double spacing = 0.5;
  std::array<int, 3> dims{1, 1, 1};

  std::size_t size() const { return std::size_t(dims[0]) * std::size_t(dims[1]) * std::size_t(dims[2]); }
  std::size_t index(int i, int j, int k) const { return (std::size_t(k) * dims[1] + j) * dims[0] + i; }
  double coord(int axis, int i) const { return origin[axis] + spacing * i; }
};

// Parboil's convention: lo = min - padding, hi = max + padding, n = floor((hi - lo) / h) + 1 per axis.
lattice lattice_around(const atoms& a, double spacing, double padding);

}  // namespace ppl
