// ppl.place_ions and ppl.write_ions: cionize's placement (ppl/ions/ion_plan.hpp) from arrays.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <limits>

#include "bindings.hpp"
#include "map_plan.hpp"
#include "ppl/core/error.hpp"
#include "ppl/ions/ion_plan.hpp"
#include "ppl/ions/placement.hpp"
#include "ppl/ions/structure_io.hpp"
#include "ppl/potential/verification.hpp"

namespace ppl::python {
namespace {

const ion_species& species_named(const std::string& name, const std::string& what) {
  try {
    return find_ion_species(name);
  } catch (const std::out_of_range&) {
    std::string names;
    for (const auto& n : ion_species_names()) names += (names.empty() ? "" : ", ") + n;
    throw input_error(what + ": '" + name + "' is not one of " + names);
  }
}

py::array_t<float> scaled_host_copy(potential_view v, const lattice& g, double scale) {
  py::array_t<float> a(std::vector<py::ssize_t>{g.dims[2], g.dims[1], g.dims[0]});
  Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(a.mutable_data(), v.extent(0));
  py::gil_scoped_release release;
  Kokkos::deep_copy(h, v);
  for (std::size_t i = 0; i < h.extent(0); ++i) h(i) = float(double(h(i)) * scale);
  return a;
}

py::dict place(const py::object& positions, const py::object& charges, const lattice& g, const py::object& radii,
               const py::object& counts, bool neutralize, double salt_molar, const std::string& cation,
               const std::string& anion, double min_solute, double min_ions, double min_border,
               const py::object& interaction_arg, const std::string& strategy, const std::string& units,
               double permittivity, const py::object& temperature, const py::object& tolerance,
               const py::object& strategy_params, bool maps, const py::kwargs& params) {
  ensure_kokkos();
  const atoms a = atoms_from(positions, charges, radii);
  if (g.periodic) throw input_error("lattice: ion placement needs a non-periodic lattice");
  for (auto [name, v] : {std::pair{"min_distance_solute", min_solute},
                         {"min_distance_ions", min_ions},
                         {"min_distance_border", min_border}})
    if (!(v >= 0 && v <= 1000)) throw input_error(std::string(name) + ": must be in [0, 1000] A");
  if (!(min_ions > 0))
    throw input_error("min_distance_ions: must be > 0 A (with 0 every ion would go to the same point)");
  ion_request r;
  if (!counts.is_none()) {
    if (neutralize || salt_molar != 0.0)
      throw input_error(
          "counts: does not go with neutralize or salt_molar (either counts per species, or "
          "neutralize and salt)");
    if (!py::isinstance<py::dict>(counts) || py::len(counts) == 0)
      throw input_error("counts: a non-empty dict of ions per species, e.g. {'Na+': 10, 'Cl-': 4}");
    for (const auto& [k, v] : counts.cast<py::dict>()) {
      const auto& s = species_named(py::str(k), "counts");
      if (!py::isinstance<py::int_>(v)) throw input_error("counts: '" + s.name + "' needs an integer count");
      r.counts.push_back({&s, v.cast<int>()});
    }
  } else {
    if (!neutralize && salt_molar == 0.0) throw input_error("place_ions: needs counts, neutralize=True or salt_molar");
    r.neutralize = neutralize, r.salt_molar = salt_molar;
    r.cation = &species_named(cation, "cation"), r.anion = &species_named(anion, "anion");
  }
  const interaction pair = interaction_from(interaction_arg);
  const physics_options phys = physics_from(units, permittivity, temperature, 0.0);
  py::dict sp = strategy_params.is_none() ? py::dict() : strategy_params.cast<py::dict>();
  for (const auto& [k, v] : params) sp[k] = v;
  const double tol = tolerance.is_none() ? (pair.is_msm() ? msm_default_tolerance : verification_options{}.tolerance)
                                         : tolerance.cast<double>();
  map_plan plan(a, g, pair, strategy, values_from(sp, "strategy_params"), phys, tol);
  potential_view v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::python::ions_map"), g.size());
  plan.compute_raw(v, write_mode::overwrite);
  const double scale = phys.scale();
  py::dict out;
  if (maps) out["map_before"] = scaled_host_copy(v, g, scale);

  const double q = solute_charge(a.q);
  std::vector<placed_ion> ions;
  ion_mask_counts mask;
  ion_plan order;
  {
    py::gil_scoped_release release;
    ion_placer placer(g, plan.strategy().pair);
    mask = placer.build_mask(a, min_solute, min_border);
    if (mask.allowed == 0)
      throw input_error("min_distance_solute, min_distance_border: exclude every point of the lattice");
    const double cell = g.spacing * g.spacing * g.spacing;
    const double solvent = double(std::int64_t(g.size()) - mask.inside_solute) * cell;
    order = plan_ions(r, q, solvent);
    ions = place_ions(placer, v, order.order, min_ions);
  }
  const std::size_t n = ions.size();
  py::list species;
  py::array_t<int> ion_charges(n);
  py::array_t<double> pos(std::vector<py::ssize_t>{py::ssize_t(n), 3});
  py::array_t<std::int64_t> points(n);
  py::array_t<double> potential(n), nearest(n), seconds(n);
  double net = q;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& ion = ions[i];
    species.append(ion.species->name);
    ion_charges.mutable_data()[i] = ion.species->charge;
    net += ion.species->charge;
    pos.mutable_data()[3 * i] = ion.x, pos.mutable_data()[3 * i + 1] = ion.y, pos.mutable_data()[3 * i + 2] = ion.z;
    points.mutable_data()[i] = ion.point;
    potential.mutable_data()[i] = ion.potential * scale;
    nearest.mutable_data()[i] = nearest_atom_distance(a, ion.x, ion.y, ion.z);
    seconds.mutable_data()[i] = ion.seconds;
  }
  if (std::abs(net) < 1e-9) net = 0.0;
  out["species"] = species;
  out["charges"] = ion_charges;
  out["positions"] = pos;
  out["points"] = points;
  out["potential"] = potential;
  out["nearest_solute"] = nearest;
  out["seconds"] = seconds;
  out["solute_charge"] = q;
  out["net_charge"] = net;
  out["counterions"] = order.counterions;
  out["salt_units"] = order.salt_units;
  out["allowed_points"] = mask.allowed;
  out["solvent_volume"] = double(std::int64_t(g.size()) - mask.inside_solute) * g.spacing * g.spacing * g.spacing;
  out["strategy"] = plan.strategy().name;
  out["reason"] = plan.strategy().reason;
  out["units"] = config_name(phys.units);
  if (maps) out["map_after"] = scaled_host_copy(v, g, scale);
  return out;
}

void write_ions(const std::string& path, const py::object& positions, const py::object& charges,
                const py::object& radii, const std::vector<std::string>& species, const py::object& ion_positions,
                const std::string& convention, const std::string& format) {
  const atoms solute = atoms_from(positions, charges, radii);
  const auto p = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(host_array(ion_positions));
  if (!p || p.ndim() != 2 || p.shape(1) != 3 || std::size_t(p.shape(0)) != species.size())
    throw input_error("ion_positions: expected shape (" + std::to_string(species.size()) + ", 3), one per species");
  std::vector<placed_ion> ions(species.size());
  for (std::size_t i = 0; i < species.size(); ++i) {
    ions[i].species = &species_named(species[i], "species");
    ions[i].x = p.data()[3 * i], ions[i].y = p.data()[3 * i + 1], ions[i].z = p.data()[3 * i + 2];
  }
  ion_convention c;
  try {
    c = parse_ion_convention(convention);
  } catch (const std::exception&) {
    throw input_error("convention: '" + convention + "' is not one of charmm, amber");
  }
  std::string f = format;
  if (f.empty()) {
    const auto dot = path.rfind('.');
    f = dot == std::string::npos ? "" : path.substr(dot + 1);
  }
  const std::vector<std::string> remarks{"solute and ions written by ppl " PPL_VERSION " (Python)"};
  if (f == "pqr") {
    write_pqr_with_ions(path, solute, ions, c, remarks);
  } else if (f == "pdb") {
    for (std::size_t i = 0; i < solute.size(); ++i)
      if (!fits_pdb_columns(solute.x[i]) || !fits_pdb_columns(solute.y[i]) || !fits_pdb_columns(solute.z[i]))
        throw input_error("positions: coordinates outside [-999.999, 9999.999] A do not fit the PDB's columns");
    for (const auto& ion : ions)
      if (!fits_pdb_columns(ion.x) || !fits_pdb_columns(ion.y) || !fits_pdb_columns(ion.z))
        throw input_error("ion_positions: coordinates outside [-999.999, 9999.999] A do not fit the PDB's columns");
    write_pdb_with_ions(path, solute, ions, c, remarks);
  } else {
    throw input_error("format: '" + f + "' is not one of pqr, pdb (from the path's suffix, or format=)");
  }
}

}  // namespace

void bind_ions(py::module_& m) {
  m.def("_place_ions", &place, py::arg("positions"), py::arg("charges"), py::arg("lattice"),
        py::arg("radii") = py::none(), py::arg("counts") = py::none(), py::arg("neutralize") = false,
        py::arg("salt_molar") = 0.0, py::arg("cation") = "Na+", py::arg("anion") = "Cl-",
        py::arg("min_distance_solute") = 6.0, py::arg("min_distance_ions") = 10.0, py::arg("min_distance_border") = 0.0,
        py::arg("interaction") = py::none(), py::arg("strategy") = "auto", py::arg("units") = "kT_per_e",
        py::arg("permittivity") = 1.0, py::arg("temperature") = py::none(), py::arg("tolerance") = py::none(),
        py::arg("strategy_params") = py::none(), py::arg("maps") = false);
  m.def("write_ions", &write_ions, py::arg("path"), py::arg("positions"), py::arg("charges"), py::arg("radii"),
        py::arg("species"), py::arg("ion_positions"), py::arg("convention") = "charmm", py::arg("format") = "",
        "The solute plus ions as PQR or PDB (by the path's suffix or format=), ions named by the convention.");
  py::list names;
  for (const auto& s : ion_species_table()) {
    py::dict d;
    d["name"] = s.name, d["charge"] = s.charge, d["radius"] = s.radius, d["charmm"] = s.charmm, d["amber"] = s.amber;
    names.append(d);
  }
  m.attr("ion_species") = names;
}

}  // namespace ppl::python
