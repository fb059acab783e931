#pragma once
// `job: ions`: the configuration, read and checked completely before any work (docs/config.md "ions",
// docs/ions.md). The map's keys are the potential job's (read_potential_map); the mask of allowed points is built
// here, on the device, so `ppl validate` refuses distances that leave no room as a run would.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "potential_config.hpp"
#include "ppl/ions/ion_plan.hpp"
#include "ppl/ions/placement.hpp"
#include "ppl/ions/species.hpp"

namespace ppl {

struct ions_job_config : potential_map_config {
  ion_convention convention = ion_convention::charmm;
  double min_solute = 6.0, min_ions = 10.0, min_border = 0.0;  // A (cionize's R_ION_SOLUTE, R_ION_ION; no border)
  bool neutralize = false;
  double salt_molar = 0.0;
  const ion_species* cation = nullptr;  // neutralize / salt
  const ion_species* anion = nullptr;
  double solute_charge = 0.0;  // e: the sum of the charges, rounded when within integer_charge_tolerance of an integer
  const ion_species* counterion = nullptr;
  int counterions = 0;                    // neutralize: round(|Q| / |z|)
  int salt_units = 0;                     // round(salt_molar x ions_per_A3_per_molar x solvent_volume) formula units
  double box_volume = 0.0;                // A^3: points x spacing^3
  double solvent_volume = 0.0;            // A^3: points outside every solute atom's radius x spacing^3
  std::vector<const ion_species*> order;  // one entry per ion, in placement order
  std::unique_ptr<ion_placer> placer;     // with the first ion's mask built
  ion_mask_counts mask;
  double mask_seconds = 0.0;
  placement_algorithm algorithm = placement_algorithm::bounded;  // ions.algorithm
  int progress_every = 0;                                        // ions between progress lines (0: none)
  std::string count_where;  // "file:line:col: 'ions.counts'" (or salt_molar, neutralize): what asked for the ions
  std::optional<std::string> pqr, pdb, dx_before, dx_after, summary;
};

ions_job_config read_ions_job(const config_node& root);

}  // namespace ppl
