// make_bin_grid: the checks and the alignment rules of bin_grid.hpp. Bin counts are computed in float64 and
// checked against max_bins before anything is converted to int.
#include "ppl/spatial/bin_grid.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "ppl/core/error.hpp"

namespace ppl::spatial {

namespace {

std::string num(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

}  // namespace

bin_grid make_bin_grid(const lattice& g, double edge, double radius, bool periodic) {
  if (!std::isfinite(edge) || !(edge > 0.0))
    throw input_error("bin grid: the bin edge must be a finite number > 0 A, got " + num(edge));
  if (!std::isfinite(radius) || !(radius > 0.0) || radius > max_lattice_extent)
    throw input_error("bin grid: the cutoff radius must be a finite number in (0, " + num(max_lattice_extent) +
                      "] A, got " + num(radius));
  check_lattice(g);
  // The grid works with the float32 edge the kernels see, so its coverage is computed with that edge.
  const double e = double(float(edge));
  if (!(e > 0.0)) throw input_error("bin grid: the bin edge " + num(edge) + " A underflows float32");
  bin_grid b;
  b.periodic = periodic;
  double n[3];
  if (periodic) {
    for (int d = 0; d < 3; ++d) {
      const double l = g.spacing * g.dims[d];
      n[d] = std::max(1.0, std::floor(l / e));
    }
  } else {
    const double halo = std::ceil(radius / e);
    for (int d = 0; d < 3; ++d) {
      const double extent = g.spacing * (g.dims[d] - 1);
      n[d] = halo + std::floor((extent + radius) / e) + 1.0;
      // The kernels find bins in float32: one more bin when the grid's upper face is within float32 rounding of
      // extent + radius (an atom there must still be inside).
      if ((n[d] - halo) * e - (extent + radius) < 1e-5 * (extent + radius + e)) n[d] += 1.0;
    }
  }
  const double total = n[0] * n[1] * n[2];
  if (!(total <= double(max_bins)))
    throw input_error("bin grid: " + num(n[0]) + " x " + num(n[1]) + " x " + num(n[2]) + " = " + num(total) +
                      " bins (edge " + num(edge) + " A" + (periodic ? "" : ", radius " + num(radius) + " A") +
                      ") exceeds the limit of " + std::to_string(max_bins) + " bins; use a larger bin edge");
  for (int d = 0; d < 3; ++d) {
    b.dims[d] = int(n[d]);
    if (periodic) {
      const double l = g.spacing * g.dims[d];
      b.box[d] = float(l);
      b.edge[d] = float(l / n[d]);
      b.origin[d] = 0.0f;
    } else {
      b.edge[d] = float(e);
      b.origin[d] = float(-std::ceil(radius / e) * e);
      b.box[d] = 0.0f;
    }
  }
  return b;
}

}  // namespace ppl::spatial
