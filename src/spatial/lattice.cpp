// Lattice limits and the lattice from the atoms' bounding box (Parboil's cutcp convention, data/README.md).
#include "ppl/spatial/lattice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ppl/core/error.hpp"

namespace ppl {

namespace {
constexpr const char* axis_name[3] = {"x", "y", "z"};
}  // namespace

void check_lattice(const lattice& g) {
  if (!std::isfinite(g.spacing) || !(g.spacing > 0))
    throw input_error(fmt::format("lattice spacing {} must be finite and > 0", g.spacing));
  for (int d = 0; d < 3; ++d) {
    if (g.dims[d] < 1)
      throw input_error(fmt::format("lattice dims must be >= 1, got {} along {}", g.dims[d], axis_name[d]));
    if (!std::isfinite(g.origin[d]))
      throw input_error(fmt::format("lattice origin along {} is not finite", axis_name[d]));
    const double extent = g.spacing * (g.dims[d] - 1);
    if (extent > max_lattice_extent)
      throw input_error(fmt::format("the lattice spans {:.6g} A along {} ({} points x {} A); at most {:.0e} A per axis",
                                    extent, axis_name[d], g.dims[d], g.spacing, max_lattice_extent));
  }
  if (g.size() > max_lattice_points)
    throw input_error(fmt::format("the lattice has {} x {} x {} = {:.4g} points; at most {} (2^31 - 1)", g.dims[0],
                                  g.dims[1], g.dims[2], double(g.dims[0]) * g.dims[1] * g.dims[2], max_lattice_points));
}

void check_lattice_memory(const lattice& g, double bytes_per_point, double available_bytes, const std::string& memory) {
  const double need = double(g.size()) * bytes_per_point;
  if (need > available_bytes)
    throw input_error(
        fmt::format("the lattice's {} points need {:.3g} GiB of {} ({} bytes per point); it has {:.3g} GiB", g.size(),
                    need / 1073741824.0, memory, bytes_per_point, available_bytes / 1073741824.0));
}

lattice lattice_around(const atoms& a, double spacing, double padding) {
  if (!(spacing > 0) || !std::isfinite(spacing)) throw input_error("lattice spacing must be > 0");
  if (!(padding >= 0) || !std::isfinite(padding)) throw input_error("lattice padding must be >= 0");
  if (a.size() == 0) throw input_error("cannot place a lattice around zero atoms: give origin and dims");
  const std::vector<double>* c[3] = {&a.x, &a.y, &a.z};
  lattice g;
  g.spacing = spacing;
  for (int d = 0; d < 3; ++d) {
    const auto mm = std::minmax_element(c[d]->begin(), c[d]->end());
    const double lo = *mm.first - padding, hi = *mm.second + padding;
    const double n = std::floor((hi - lo) / spacing) + 1;
    if (!std::isfinite(lo) || !(spacing * (n - 1) <= max_lattice_extent))
      throw input_error(
          fmt::format("the lattice around the atoms spans {:.6g} A along {} (atoms {:.6g} to {:.6g} A, "
                      "padding {} A); at most {:.0e} A per axis",
                      hi - lo, axis_name[d], *mm.first, *mm.second, padding, max_lattice_extent));
    g.origin[d] = lo;
    if (n > double(std::numeric_limits<int>::max()))
      throw input_error(fmt::format("the lattice around the atoms has {:.4g} points along {}", n, axis_name[d]));
    g.dims[d] = int(n);
  }
  return g;
}

}  // namespace ppl
