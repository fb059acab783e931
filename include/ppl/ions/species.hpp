#pragma once
// The ions ppl places (`job: ions`, docs/ions.md): charge, radius, element and the residue/atom names of the two
// naming conventions MD setups use, CHARMM (SOD, POT, CLA, MG, CAL: CHARMM36's toppar_water_ions) and AMBER
// (Na+, K+, Cl-, MG, CA: AmberTools' atomic_ions.lib). Whatever the convention, a job names species by their
// chemical names (Na+, K+, Mg2+, Ca2+, Cl-).
#include <string>
#include <vector>

namespace ppl {

enum class ion_convention { charmm, amber };

struct ion_species {
  std::string name;     // chemical name, the config value: "Na+"
  int charge;           // e
  double radius;        // A, written in the PQR radius column (CHARMM36 Rmin/2)
  std::string element;  // PDB columns 77-78: "NA"
  std::string charmm;   // residue and atom name under CHARMM: "SOD"
  std::string amber;    // residue and atom name under AMBER: "Na+"
  const std::string& residue(ion_convention c) const { return c == ion_convention::charmm ? charmm : amber; }
};

// In the order the job places blocks of explicit counts in (cations, then anions; docs/ions.md).
const std::vector<ion_species>& ion_species_table();
const std::vector<std::string>& ion_species_names();           // "Na+", "K+", "Mg2+", "Ca2+", "Cl-"
const ion_species& find_ion_species(const std::string& name);  // one of ion_species_names() (else std::out_of_range)

const std::vector<std::string>& ion_convention_names();  // "charmm", "amber"
ion_convention parse_ion_convention(const std::string& name);
const char* config_name(ion_convention c);

}  // namespace ppl
