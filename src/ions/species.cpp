// The ion species table (include/ppl/ions/species.hpp).
#include "ppl/ions/species.hpp"

#include <stdexcept>

namespace ppl {

// Radii: CHARMM36 Rmin/2 (toppar_water_ions.str), so a PQR of solute + ions has sizes an APBS or PDB2PQR run
// expects. AMBER names: atomic_ions.lib (the divalent ions are residues MG and CA there).
const std::vector<ion_species>& ion_species_table() {
  static const std::vector<ion_species> table{
      {"Na+", 1, 1.41075, "NA", "SOD", "Na+"},  //
      {"K+", 1, 1.76375, "K", "POT", "K+"},     //
      {"Mg2+", 2, 1.185, "MG", "MG", "MG"},     //
      {"Ca2+", 2, 1.367, "CA", "CAL", "CA"},    //
      {"Cl-", -1, 2.27, "CL", "CLA", "Cl-"},
  };
  return table;
}

const std::vector<std::string>& ion_species_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& s : ion_species_table()) n.push_back(s.name);
    return n;
  }();
  return names;
}

const ion_species& find_ion_species(const std::string& name) {
  for (const auto& s : ion_species_table())
    if (s.name == name) return s;
  throw std::out_of_range("unknown ion species '" + name + "'");
}

const std::vector<std::string>& ion_convention_names() {
  static const std::vector<std::string> names{"charmm", "amber"};
  return names;
}

ion_convention parse_ion_convention(const std::string& name) {
  if (name == "amber") return ion_convention::amber;
  if (name == "charmm") return ion_convention::charmm;
  throw std::out_of_range("unknown ion naming convention '" + name + "'");
}

const char* config_name(ion_convention c) {
  return c == ion_convention::charmm ? "charmm" : "amber";
}

}  // namespace ppl
