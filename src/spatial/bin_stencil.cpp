// make_bin_stencil: per axis the gap between bin d's interval and the region interval [0, edge + extent] is
// (-d - 1) * edge below it, d * edge - (edge + extent) above it, 0 where they overlap; a bin is in the stencil when
// the gaps' squares sum to at most radius^2. Computed in float64 from the float32 edges the kernels use.
#include "ppl/spatial/bin_stencil.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <tuple>

#include "ppl/core/error.hpp"

namespace ppl::spatial {

namespace {

double gap(double edge, double extent, int d) {
  if (d < 0) return (-double(d) - 1.0) * edge;
  return std::max(0.0, double(d) * edge - (edge + extent));
}

double distance2(const float (&edge)[3], const double (&extent)[3], const std::array<int, 3>& d) {
  double s = 0.0;
  for (int a = 0; a < 3; ++a) {
    const double g = gap(edge[a], extent[a], d[a]);
    s += g * g;
  }
  return s;
}

}  // namespace

double stencil_distance(const float (&edge)[3], const double (&region_extent)[3], const std::array<int, 3>& d) {
  return std::sqrt(distance2(edge, region_extent, d));
}

std::vector<std::array<int, 3>> make_bin_stencil(const float (&edge)[3], const double (&region_extent)[3],
                                                 double radius) {
  static const char* const axis[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    if (!std::isfinite(edge[a]) || !(edge[a] > 0.0f))
      throw input_error(std::string("bin stencil: the bin edge along ") + axis[a] + " must be finite and > 0, got " +
                        std::to_string(edge[a]));
    if (!std::isfinite(region_extent[a]) || !(region_extent[a] >= 0.0))
      throw input_error(std::string("bin stencil: the region extent along ") + axis[a] +
                        " must be finite and >= 0, got " + std::to_string(region_extent[a]));
  }
  if (!std::isfinite(radius) || !(radius > 0.0))
    throw input_error("bin stencil: the cutoff radius must be finite and > 0, got " + std::to_string(radius));
  // Per axis, bins below: gap (-d - 1) * edge <= radius; above: d * edge - edge - extent <= radius.
  int lo[3], hi[3];
  double cube = 1.0;
  for (int a = 0; a < 3; ++a) {
    const double e = edge[a];
    const double below = std::floor(radius / e) + 1.0;
    const double above = std::floor((radius + e + region_extent[a]) / e);
    cube *= below + above + 1.0;
    if (!(cube <= double(max_stencil_offsets))) {
      std::ostringstream s;
      s << "bin stencil: radius " << radius << " A with bin edges " << edge[0] << " x " << edge[1] << " x " << edge[2]
        << " A and region extents " << region_extent[0] << " x " << region_extent[1] << " x " << region_extent[2]
        << " A needs more than " << max_stencil_offsets << " bin offsets; use larger bins";
      throw input_error(s.str());
    }
    lo[a] = -int(below);
    hi[a] = int(above);
  }
  const double r2 = radius * radius;
  std::vector<std::pair<double, std::array<int, 3>>> found;
  for (int dz = lo[2]; dz <= hi[2]; ++dz)
    for (int dy = lo[1]; dy <= hi[1]; ++dy)
      for (int dx = lo[0]; dx <= hi[0]; ++dx) {
        const std::array<int, 3> d{dx, dy, dz};
        const double s = distance2(edge, region_extent, d);
        if (s <= r2) found.emplace_back(s, d);
      }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return std::make_tuple(a.first, a.second[2], a.second[1], a.second[0]) <
           std::make_tuple(b.first, b.second[2], b.second[1], b.second[0]);
  });
  std::vector<std::array<int, 3>> out;
  out.reserve(found.size());
  for (const auto& f : found) out.push_back(f.second);
  return out;
}

std::array<int, 3> stencil_halo(const std::vector<std::array<int, 3>>& stencil) {
  std::array<int, 3> h{0, 0, 0};
  for (const auto& d : stencil)
    for (int a = 0; a < 3; ++a) h[a] = std::max(h[a], std::abs(d[a]));
  return h;
}

}  // namespace ppl::spatial
