#pragma once
// What the job does to a strategy's raw output (e/A, vacuum): unit conversion, relative permittivity and the
// exclusion radius. Strategies never see these; the job applies them on the host after verification.
#include <cstddef>
#include <string>
#include <vector>

#include "ppl/io/atoms.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

enum class potential_units {
  e_per_angstrom,  // q/r with q in e and r in A, no constant (Parboil, PMPP)
  kT_per_e,        // x 560.47254: e^2 / (4 pi eps0 A k T) at T = 298.15 K (VMD volmap coulomb, APBS maps)
  kcal_per_mol_e,  // x 332.0636: e^2 / (4 pi eps0 A) in kcal/mol (CHARMM/AMBER's Coulomb constant)
};

constexpr double kT_per_e_factor = 560.47254;
constexpr double kcal_per_mol_e_factor = 332.0636;

const std::vector<std::string>& potential_unit_names();          // the config values, in enum order
potential_units parse_potential_units(const std::string& name);  // one of potential_unit_names()
const char* config_name(potential_units u);                      // "kT_per_e"
const char* unit_label(potential_units u);                       // "kT/e" (for files and summaries)
double unit_factor(potential_units u);                           // multiplies e/A

struct physics_options {
  potential_units units = potential_units::e_per_angstrom;
  double permittivity = 1.0;      // relative; values are divided by it
  double exclusion_radius = 0.0;  // A; lattice points closer than this to any atom are set to 0 (Parboil)

  double scale() const { return unit_factor(units) / permittivity; }
};

// values (x fastest, g.size()) in raw e/A -> scaled, with excluded points zeroed. Returns how many points were
// excluded. Distances are float64 from the original coordinates; a point at exactly the radius is kept.
std::size_t apply_physics(const physics_options& p, const atoms& a, const lattice& g, float* values);

}  // namespace ppl
