// make_multilevel_grid: the coverage rules of multilevel_grid.hpp, computed in float64 and checked before any
// conversion to int.
#include "ppl/spatial/multilevel_grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ppl/core/error.hpp"

namespace ppl::spatial {

namespace {

// Levels stop at this many nodes per axis: a coarser level would add more padding nodes than it saves.
int top_nodes(int p) {
  return 2 * p + 4;
}

}  // namespace

multilevel_grid make_multilevel_grid(const std::array<double, 3>& lo, const std::array<double, 3>& hi, double h,
                                     int p, int levels, int pad, double max_nodes) {
  if (!(p == 3 || p == 5)) throw input_error("multilevel grid: the basis degree must be 3 or 5");
  if (!std::isfinite(h) || !(h > 0)) throw input_error("multilevel grid: the spacing must be a finite number > 0");
  if (levels < 0 || levels > max_grid_levels)
    throw input_error(fmt::format("multilevel grid: levels must be in [1, {}] (or auto)", max_grid_levels));
  if (pad < 0) throw input_error("multilevel grid: negative padding");
  multilevel_grid g;
  g.degree = p;
  const int s = (p + 1) / 2;  // phi(t - m) != 0 for m in floor(t) - (s - 1) .. floor(t) + s
  double lo_idx[3], hi_idx[3];
  for (int d = 0; d < 3; ++d) {
    if (!std::isfinite(lo[d]) || !std::isfinite(hi[d]) || lo[d] > hi[d])
      throw input_error("multilevel grid: the box to cover is not finite");
    lo_idx[d] = std::floor(lo[d] / h) - (s - 1);
    hi_idx[d] = std::floor(hi[d] / h) + s;
  }
  double total = 0;
  auto take = [&](int k, const double (&a)[3], const double (&b)[3]) {
    grid_level& l = g.level[k];
    double count = 1;
    for (int d = 0; d < 3; ++d) count *= b[d] - a[d] + 1 + 2.0 * pad;
    total += count;
    if (!(total <= max_nodes) || std::max({a[0], a[1], a[2], -b[0], -b[1], -b[2]}) > 1e9 ||
        std::min({a[0], a[1], a[2], -b[0], -b[1], -b[2]}) < -1e9)
      throw input_error(fmt::format(
          "multilevel grid: {:.3g} nodes or more (spacing {:g} A over a box of {:.4g} x {:.4g} x {:.4g} A), more "
          "than the {:.3g} allowed; use a larger spacing",
          total, h, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], max_nodes));
    for (int d = 0; d < 3; ++d) {
      l.lo[d] = int(a[d]);
      l.n[d] = int(b[d] - a[d] + 1);
    }
    l.pad = pad;
    l.h = std::ldexp(h, k);
  };
  take(0, lo_idx, hi_idx);
  int k = 0;
  while (true) {
    const grid_level& l = g.level[k];
    const int widest = std::max({l.n[0], l.n[1], l.n[2]});
    const bool more = levels > 0 ? k + 1 < levels : widest > top_nodes(p);
    if (!more || k + 1 >= max_grid_levels) break;
    double a[3], b[3];
    for (int d = 0; d < 3; ++d) {
      a[d] = std::ceil((double(l.lo[d]) - p) / 2.0);
      b[d] = std::floor((double(l.lo[d] + l.n[d] - 1) + p) / 2.0);
    }
    ++k;
    take(k, a, b);
    if (levels == 0) {  // auto: stop where coarsening no longer shrinks the grid
      const grid_level& c = g.level[k];
      if (std::max({c.n[0], c.n[1], c.n[2]}) >= widest) break;
    }
  }
  g.levels = k + 1;
  return g;
}

double stored_nodes(const multilevel_grid& g) {
  double total = 0;
  for (int k = 0; k < g.levels; ++k) total += double(g.level[k].stored());
  return total;
}

}  // namespace ppl::spatial
