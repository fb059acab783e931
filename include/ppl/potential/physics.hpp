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
  kT_per_e,        // x 560.47254 x 298.15 K / T: e^2 / (4 pi eps0 A k T) (VMD volmap coulomb, APBS maps)
  kcal_per_mol_e,  // x 332.0636: e^2 N_A / (4 pi eps0 A) in kcal/mol (CHARMM/AMBER's Coulomb constant)
  kJ_per_mol_e,    // x 1389.3541024 = 4.184 x 332.0636: the same in kJ/mol (GROMACS' 138.935458 kJ nm/mol)
};

// VMD's and cionize's POT_CONV at 298.15 K, kept so maps compare with theirs; CODATA 2018 (e, eps0, k_B) gives
// 560.4593, 2.4e-5 lower. At another temperature the factor is this x 298.15 / T (kT/e is proportional to T).
constexpr double kT_per_e_factor = 560.47254;
constexpr double kT_reference_kelvin = 298.15;
constexpr double kcal_per_mol_e_factor = 332.0636;
// The thermochemical calorie is 4.184 J exactly, so kJ/mol maps are 4.184 x the kcal/mol ones; CODATA 2018
// (e^2 N_A / (4 pi eps0 A)) gives 1389.354576, 3.4e-7 higher.
constexpr double kJ_per_mol_e_factor = 4.184 * kcal_per_mol_e_factor;
constexpr double default_temperature = 298.15;  // K

const std::vector<std::string>& potential_unit_names();          // the config values, in enum order
potential_units parse_potential_units(const std::string& name);  // one of potential_unit_names()
const char* config_name(potential_units u);                      // "kT_per_e"
const char* unit_label(potential_units u);                       // "kT/e" (for files and summaries)
// Multiplies e/A; `kelvin` matters only for kT_per_e (positive and finite: physics.temperature is checked).
double unit_factor(potential_units u, double kelvin = default_temperature);

struct physics_options {
  potential_units units = potential_units::e_per_angstrom;
  double permittivity = 1.0;      // relative; values are divided by it
  double exclusion_radius = 0.0;  // A; lattice points closer than this to any atom are set to 0 (Parboil)
  double temperature = default_temperature;  // K, for kT_per_e

  double scale() const { return unit_factor(units, temperature) / permittivity; }
};

// values (x fastest, g.size()) in raw e/A -> scaled, with excluded points zeroed. Returns how many points were
// excluded. Distances are float64 from the original coordinates; a point at exactly the radius is kept.
std::size_t apply_physics(const physics_options& p, const atoms& a, const lattice& g, float* values);

}  // namespace ppl
