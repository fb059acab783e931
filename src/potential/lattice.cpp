// Lattice from the atoms' bounding box (Parboil's cutcp convention, data/README.md).
#include "ppl/potential/lattice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "ppl/core/error.hpp"

namespace ppl {

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
    if (n > double(std::numeric_limits<int>::max()))
      throw input_error("lattice around the atoms has " + std::to_string(n) + " points along an axis");
    g.origin[d] = lo;
    g.dims[d] = int(n);
  }
  return g;
}

}  // namespace ppl
