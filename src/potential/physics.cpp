// Units, permittivity and the exclusion radius (see include/ppl/potential/physics.hpp).
#include "ppl/potential/physics.hpp"

#include <algorithm>
#include <cmath>

#include "ppl/core/error.hpp"

namespace ppl {

const std::vector<std::string>& potential_unit_names() {
  static const std::vector<std::string> names{"e_per_angstrom", "kT_per_e", "kcal_per_mol_e", "kJ_per_mol_e"};
  return names;
}

potential_units parse_potential_units(const std::string& name) {
  const auto& n = potential_unit_names();
  const auto it = std::find(n.begin(), n.end(), name);
  if (it == n.end()) throw input_error("unknown potential units '" + name + "'");
  return potential_units(it - n.begin());
}

const char* config_name(potential_units u) {
  return potential_unit_names()[int(u)].c_str();
}

const char* unit_label(potential_units u) {
  switch (u) {
    case potential_units::kT_per_e:
      return "kT/e";
    case potential_units::kcal_per_mol_e:
      return "kcal/(mol e)";
    case potential_units::kJ_per_mol_e:
      return "kJ/(mol e)";
    default:
      return "e/A";
  }
}

double unit_factor(potential_units u, double kelvin) {
  switch (u) {
    case potential_units::kT_per_e:
      // Exactly the constant at its own temperature (no rounding of x 298.15 / 298.15).
      return kelvin == kT_reference_kelvin ? kT_per_e_factor : kT_per_e_factor * (kT_reference_kelvin / kelvin);
    case potential_units::kcal_per_mol_e:
      return kcal_per_mol_e_factor;
    case potential_units::kJ_per_mol_e:
      return kJ_per_mol_e_factor;
    default:
      return 1.0;
  }
}

namespace {

// Lattice index range [lo, hi] along one axis that can lie within `r` of coordinate c.
void index_range(const lattice& g, int axis, double c, double r, int& lo, int& hi) {
  const double t0 = (c - r - g.origin[axis]) / g.spacing, t1 = (c + r - g.origin[axis]) / g.spacing;
  // Clamped before the int conversion: an atom far outside the lattice gives an empty range, not an overflow.
  lo = int(std::min(double(g.dims[axis]), std::max(0.0, std::ceil(t0))));
  hi = int(std::max(-1.0, std::min(double(g.dims[axis] - 1), std::floor(t1))));
}

}  // namespace

std::size_t apply_physics(const physics_options& p, const atoms& a, const lattice& g, float* values) {
  const std::size_t n = g.size();
  const double s = p.scale();
  if (s != 1.0)
    for (std::size_t i = 0; i < n; ++i) values[i] = float(double(values[i]) * s);
  if (!(p.exclusion_radius > 0)) return 0;
  // Each atom visits only the points of its sphere's bounding box: O(atoms * (2R/h)^3), not O(atoms * points).
  // Excluded points are first flagged so each is counted once.
  std::vector<unsigned char> excluded(n, 0);
  const double r = p.exclusion_radius, r2 = r * r;
  for (std::size_t t = 0; t < a.size(); ++t) {
    int lo[3], hi[3];
    const double c[3] = {a.x[t], a.y[t], a.z[t]};
    for (int d = 0; d < 3; ++d) index_range(g, d, c[d], r, lo[d], hi[d]);
    for (int k = lo[2]; k <= hi[2]; ++k) {
      const double dz = g.coord(2, k) - c[2];
      for (int j = lo[1]; j <= hi[1]; ++j) {
        const double dy = g.coord(1, j) - c[1];
        for (int i = lo[0]; i <= hi[0]; ++i) {
          const double dx = g.coord(0, i) - c[0];
          if (dx * dx + dy * dy + dz * dz < r2) excluded[g.index(i, j, k)] = 1;
        }
      }
    }
  }
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (excluded[i]) values[i] = 0.0f, ++count;
  return count;
}

}  // namespace ppl
