// Reading and checking the `job: ions` configuration (see ions_config.hpp, docs/config.md "ions").
#include "ions_config.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "ppl/core/error.hpp"
#include "ppl/ions/ion_plan.hpp"
#include "ppl/ions/structure_io.hpp"
#include "ppl/jobs/config_helpers.hpp"

namespace ppl {
namespace {

const ion_species& species_choice(const config_node& in, const char* key, const char* fallback, int sign) {
  const auto& s = find_ion_species(in.get_choice(key, fallback, ion_species_names()));
  if (s.charge * sign <= 0)
    throw input_error(in.where(key) + ": '" + in.key_path(key) + "' = " + s.name + " is not " +
                      (sign > 0 ? "a cation" : "an anion"));
  return s;
}

// The order of the ions (ppl/ions/ion_plan.hpp) from the `ions` block; a request error is placed at its key.
void plan_ions(const config_node& in, ions_job_config& j) {
  ion_request r;
  if (const auto counts = optional_map(in, "counts")) {
    for (const auto& s : ion_species_table())
      if (counts->has(s.name)) r.counts.push_back({&s, counts->get_in<int>(s.name, 0, 0, 1000000)});
  } else {
    r.neutralize = j.neutralize;
    r.salt_molar = j.salt_molar;
    r.cation = j.cation;
    r.anion = j.anion;
  }
  try {
    ion_plan p = plan_ions(r, j.solute_charge, j.solvent_volume);
    j.order = std::move(p.order);
    j.counterion = p.counterion;
    j.counterions = p.counterions;
    j.salt_units = p.salt_units;
  } catch (const ion_request_error& e) {
    throw input_error(in.where(e.key()) + ": " + e.what());
  }
}

}  // namespace

ions_job_config read_ions_job(const config_node& root) {
  ions_job_config j;
  potential_map_rules rules;
  rules.job = "ions";
  rules.plane_and_periodic = false;
  rules.exclusion_radius = false;
  rules.extra_bytes_per_point = 10.0;  // the masks (2 bytes), the maps before and after on the host (8 bytes)
  read_potential_map(root, j, rules);

  const auto in = optional_map(root, "ions");
  if (!in) throw input_error(root.where() + ": missing required key 'ions'");
  j.convention = parse_ion_convention(in->get_choice("convention", "charmm", ion_convention_names()));
  j.min_solute = in->get_in<double>("min_distance_solute", 6.0, 0.0, 1000.0);
  j.min_ions = in->get_in<double>("min_distance_ions", 10.0, 0.0, 1000.0);
  // 0 would let every ion take the same lowest point: they would stack there (the ion's own point gets none of its
  // potential), so a positive distance is what keeps them apart.
  if (!(j.min_ions > 0))
    throw input_error(in->where("min_distance_ions") +
                      ": 'ions.min_distance_ions' must be > 0 A (with 0 every ion would go to the same point)");
  j.min_border = in->get_in<double>("min_distance_border", 0.0, 0.0, 1000.0);
  j.algorithm = parse_placement_algorithm(in->get_choice("algorithm", "bounded", placement_algorithm_names()));
  const bool counts = in->has("counts");
  if (const auto c = optional_map(*in, "counts")) {
    // An empty map or a species without a number would place fewer ions than the file seems to ask for.
    if (c->unread_keys().empty())
      throw input_error(c->where() + ": 'ions.counts' is empty (give ions per species: {Na+: 10, Cl-: 4})");
    const auto& species = ion_species_names();  // asked about by plan_ions anyway; other keys stay unknown
    for (const auto& name : c->unread_keys())
      if (std::find(species.begin(), species.end(), name) != species.end() && !c->find(name))
        throw input_error(c->where(name) + ": '" + c->key_path(name) + "' has no count (an integer, 0 to 1e6)");
  }
  for (const char* key : {"neutralize", "salt_molar", "cation", "anion"})
    if (counts && in->has(key))
      throw input_error(in->where(key) + ": '" + in->key_path(key) +
                        "' does not go with 'ions.counts' (either counts per species, or neutralize and salt)");
  j.neutralize = in->get<bool>("neutralize", false);
  j.salt_molar = in->get_in<double>("salt_molar", 0.0, 0.0, 10.0);
  j.cation = &species_choice(*in, "cation", "Na+", 1);
  j.anion = &species_choice(*in, "anion", "Cl-", -1);
  if (!counts && !j.neutralize && !in->has("salt_molar")) {
    throw_if_misspelt_among(*in, {"counts", "neutralize", "salt_molar"});
    throw input_error(in->where() + ": 'ions' needs 'counts', 'neutralize: true' or 'salt_molar'");
  }
  j.solute_charge = solute_charge(j.input.q);

  // The mask of the first ion, on the device: it decides whether the ions can fit at all.
  Kokkos::fence();
  const auto t0 = std::chrono::steady_clock::now();
  j.placer = std::make_unique<ion_placer>(j.grid, j.pair);
  j.mask = j.placer->build_mask(j.input, j.min_solute, j.min_border);
  Kokkos::fence();
  j.mask_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cell = j.grid.spacing * j.grid.spacing * j.grid.spacing;
  j.box_volume = double(j.grid.size()) * cell;
  j.solvent_volume = double(std::int64_t(j.grid.size()) - j.mask.inside_solute) * cell;
  if (j.mask.allowed == 0)
    throw input_error(in->where() + fmt::format(": the distances (min_distance_solute {} A, min_distance_border {} A) "
                                                "exclude every point of the lattice ({} points)",
                                                j.min_solute, j.min_border, j.grid.size()));
  plan_ions(*in, j);

  // Fit: at least one allowed point per ion, and balls of radius min_ions / 2 around the ions are disjoint, so they
  // cannot fill more than the densest sphere packing (pi / sqrt(18)) of the lattice's box grown by min_ions.
  const std::string what = counts ? "ions.counts" : j.salt_units > 0 ? "ions.salt_molar" : "ions.neutralize";
  const std::string where = in->where(counts ? "counts" : j.salt_units > 0 ? "salt_molar" : "neutralize");
  j.count_where = where + ": '" + what + "'";
  const double n = double(j.order.size());
  if (n > double(j.mask.allowed))
    throw input_error(where + fmt::format(": '{}' asks for {} ions but only {} lattice points are allowed "
                                          "(min_distance_solute {} A, min_distance_border {} A)",
                                          what, j.order.size(), j.mask.allowed, j.min_solute, j.min_border));
  if (n >= 2 && j.min_ions > 0) {
    const double pi = 3.14159265358979323846;
    double room = pi / std::sqrt(18.0);
    for (int d = 0; d < 3; ++d) room *= (j.grid.dims[d] - 1) * j.grid.spacing + j.min_ions;
    const double need = n * 4.0 / 3.0 * pi * std::pow(0.5 * j.min_ions, 3);
    if (need > room)
      throw input_error(where + fmt::format(": '{}' asks for {} ions, more than fit {} A apart in the lattice "
                                            "({:.4g} A^3 of exclusion spheres, {:.4g} A^3 at the densest packing)",
                                            what, j.order.size(), j.min_ions, need, room));
  }
  // The progress bar follows a placement that takes long; these lines are for logs that want them at fixed counts.
  j.progress_every = in->get_in<int>("progress_every", 0, 0, 1000000000);

  if (const auto o = optional_map(root, "output")) {
    j.pqr = optional_output_file(*o, "pqr");
    j.pdb = optional_output_file(*o, "pdb");
    j.dx_before = optional_output_file(*o, "dx_before", {}, true);
    j.dx_after = optional_output_file(*o, "dx_after", {}, true);
    j.summary = optional_output_file(*o, "summary");
    if (j.pdb) {
      bool fits = true;
      for (std::size_t a = 0; a < j.input.size(); ++a)
        fits =
            fits && fits_pdb_columns(j.input.x[a]) && fits_pdb_columns(j.input.y[a]) && fits_pdb_columns(j.input.z[a]);
      for (int d = 0; d < 3; ++d)
        fits = fits && fits_pdb_columns(j.grid.origin[d]) && fits_pdb_columns(j.grid.coord(d, j.grid.dims[d] - 1));
      if (!fits)
        throw input_error(o->where("pdb") +
                          ": 'output.pdb': coordinates outside [-999.999, 9999.999] A do not fit the PDB's columns "
                          "(write output.pqr instead)");
    }
  }
  return j;
}

}  // namespace ppl
