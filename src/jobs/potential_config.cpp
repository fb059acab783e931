// Reading and checking the `job: potential` configuration (see potential_config.hpp and docs/config.md).
#include "potential_config.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

#include "ppl/core/error.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/io/raw_grid.hpp"
#include "ppl/jobs/config_helpers.hpp"
#include "ppl/jobs/parameter_config.hpp"
#include "ppl/potential/strategy_choice.hpp"

namespace ppl {
namespace {

constexpr double max_length = 1e6;  // A; guards against typos like 1e9 in box sizes and origins

atoms read_input(const config_node& root) {
  const auto in = root.child("input");
  // A structure file without charges and radii: say what to do. Looked up in the JSON view, which marks no key
  // valid, so "pdb" never shows among the valid keys of `input`.
  if (in.is_map()) {
    const auto given = nlohmann::json::parse(in.to_json());
    for (const char* key : {"pdb", "cif", "mmcif", "ent"})
      if (given.contains(key))
        throw input_error(in.where(key) + ": 'input." + key +
                          "': PDB and mmCIF input needs charges and radii, which ppl reads from PQR: run pdb2pqr "
                          "first (pdb2pqr --ff=AMBER IN." +
                          key + " OUT.pqr) and give 'input.pqr: OUT.pqr'");
  }
  const std::string kind = exactly_one_of(in, {"pqr", "random", "water_box"});
  if (kind == "pqr") {
    const auto path = in.input_file("pqr");
    return prefix_input_errors(in.where("pqr") + ": input.pqr", [&] { return read_pqr(path); });
  }
  if (kind == "random") {
    const auto r = *optional_map(in, "random");
    const long n = r.get_in<long>("atoms", -1, 0, 100000000);
    if (n < 0) throw input_error(r.where() + ": missing required key 'input.random.atoms'");
    const auto lo = fixed_number_list(r, "box_lo", 3, max_length, {0, 0, 0}),
               hi = fixed_number_list(r, "box_hi", 3, max_length, {50, 50, 25});
    const auto q = fixed_number_list(r, "charge_range", 2, max_length, {-2, 2});
    for (int d = 0; d < 3; ++d)
      if (!(hi[d] > lo[d])) throw input_error(r.where("box_hi") + ": box_hi must exceed box_lo on every axis");
    if (!(q[1] >= q[0])) throw input_error(r.where("charge_range") + ": charge_range must be [min, max]");
    const long seed = r.get_in<long>("seed", 42, 0, std::numeric_limits<long>::max());
    return random_atoms(std::size_t(n), lo.data(), hi.data(), q[0], q[1], std::uint64_t(seed));
  }
  const auto w = *optional_map(in, "water_box");
  const auto size = fixed_number_list(w, "size", 3, max_length);
  for (double s : size)
    if (!(s > 0 && s <= 2000)) throw input_error(w.where("size") + ": water_box.size values must be in (0, 2000] A");
  if (size[0] * size[1] * size[2] > 1e9)  // 1e8 atoms, the limit of input.random too
    throw input_error(w.where("size") + ": water_box volume above 1e9 A^3 (1e8 atoms)");
  const long seed = w.get_in<long>("seed", 1, 0, std::numeric_limits<long>::max());
  try {
    return water_box(size[0], size[1], size[2], std::uint64_t(seed));
  } catch (const input_error& e) {  // the generator knows the box, not where the job gave it
    throw input_error(w.where("size") + ": " + e.what());
  }
}

// `lattice:` explicit {origin, spacing, dims} or around the atoms {spacing, padding}; optional plane_z.
void read_lattice(const config_node& root, potential_map_config& j, const potential_map_rules& rules) {
  const auto l = optional_map(root, "lattice");
  const double spacing = l ? l->get_in<double>("spacing", 0.5, 1e-3, 100.0) : 0.5;
  lattice g;
  if (l && l->has("dims")) {
    if (l->has("padding"))
      throw input_error(l->where("padding") +
                        ": 'lattice.padding' applies only to a lattice around the atoms "
                        "(without dims)");
    const auto dims = l->get<std::vector<int>>("dims");
    if (dims.size() != 3) throw input_error(l->where("dims") + ": 'lattice.dims' must be [nx, ny, nz]");
    for (int d = 0; d < 3; ++d) {
      if (dims[d] < 1 || dims[d] > 1000000)
        throw input_error(l->where("dims") + ": 'lattice.dims' values must be in [1, 1000000]");
      g.dims[d] = dims[d];
    }
    const auto o = fixed_number_list(*l, "origin", 3, max_length, {0, 0, 0});
    g.origin = {o[0], o[1], o[2]};
    g.spacing = spacing;
  } else {
    if (l && l->has("origin"))
      throw input_error(l->where("origin") + ": 'lattice.origin' needs 'lattice.dims' (an explicit lattice)");
    const double padding = l ? l->get_in<double>("padding", rules.default_padding, 0.0, 1000.0) : rules.default_padding;
    if (j.input.size() == 0)
      throw input_error((l ? l->where() : root.where()) +
                        ": zero atoms: a lattice around the atoms needs atoms; give lattice.dims (and origin)");
    try {
      g = lattice_around(j.input, spacing, padding);
    } catch (const input_error& e) {
      throw input_error((l ? l->where() : root.where()) +
                        ": 'lattice' (spacing, padding around the atoms): " + e.what());
    }
  }
  if (!rules.plane_and_periodic)
    for (const char* key : {"periodic", "plane_z"})
      if (l && l->has(key))
        throw input_error(l->where(key) + ": 'lattice." + key + "' applies only to job: potential (job: " + rules.job +
                          " needs the whole, non-periodic lattice)");
  if (l && l->has("periodic")) {
    g.periodic = l->get<bool>("periodic");
    if (g.periodic && !l->has("dims"))
      throw input_error(l->where("periodic") +
                        ": 'lattice.periodic' needs 'lattice.dims' (the box is dims x spacing from the origin)");
    if (g.periodic && l->has("plane_z"))
      throw input_error(l->where("plane_z") + ": 'lattice.plane_z' and 'lattice.periodic' do not go together");
  }
  if (l && l->has("plane_z")) {
    const double z = l->get<double>("plane_z");
    const double z0 = g.origin[2], z1 = g.coord(2, g.dims[2] - 1);
    if (!(z >= z0 - 1e-9 && z <= z1 + 1e-9))
      throw input_error(l->where("plane_z") + ": plane_z = " + std::to_string(z) +
                        " is outside the lattice's z range [" + std::to_string(z0) + ", " + std::to_string(z1) + "]");
    g.origin[2] = z;
    g.dims[2] = 1;
    j.single_plane = true;
  }
  // The limits of lattice.hpp, after plane_z: one plane of a lattice too large as a whole is fine.
  try {
    check_lattice(g);
  } catch (const input_error& e) {
    const bool explicit_dims = l && l->has("dims");
    throw input_error((explicit_dims ? l->where("dims")
                       : l           ? l->where()
                                     : root.where()) +
                      ": " + (explicit_dims ? "'lattice.dims'" : "'lattice' (spacing, padding around the atoms)") +
                      ": " + e.what());
  }
  j.grid = g;
}

// The lattice's values must fit: float32 on the device and, when the device is not the host, a host copy; the
// `reference` strategy also holds float64 values on the host. (The atoms and the verification's chunks are small.)
void check_memory(const config_node& root, const potential_map_config& j, const potential_map_rules& rules) {
  const auto l = root.find("lattice");
  const std::string where = l ? l->where() : root.where();
  const double host_bytes = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  const double per_point = (j.strategy_name == "reference" ? 8.0 : 0.0) + 4.0 + rules.extra_bytes_per_point;
  prefix_input_errors(where + ": 'lattice'", [&] {
    if (host_bytes > 0) check_lattice_memory(j.grid, per_point, host_bytes, "host memory");
    if (default_space_is_gpu())
      check_lattice_memory(j.grid, 4.0 + rules.extra_bytes_per_point,
                           query_system_info().device_memory_gib * 1073741824.0, "device memory");
  });
}

void read_physics(const config_node& root, potential_map_config& j, const potential_map_rules& rules) {
  const auto p = optional_map(root, "physics");
  if (!p) return;
  j.physics.units = parse_potential_units(p->get_choice("units", "kT_per_e", potential_unit_names()));
  if (p->has("temperature")) {
    if (j.physics.units != potential_units::kT_per_e)
      throw input_error(p->where("temperature") + ": 'physics.temperature' applies only to units: kT_per_e (units " +
                        config_name(j.physics.units) + " do not depend on it)");
    // Finite and positive; the range keeps kT/e's factor (560.47254 x 298.15 / T) and the map's values finite.
    j.physics.temperature = p->get_in<double>("temperature", default_temperature, 1.0, 1e6);
  }
  j.physics.permittivity = p->get_in<double>("permittivity", 1.0, 1e-6, 1e6);
  if (!rules.exclusion_radius && p->has("exclusion_radius"))
    throw input_error(p->where("exclusion_radius") +
                      ": 'physics.exclusion_radius' applies only to job: potential (job: " + rules.job +
                      " has its own distances)");
  j.physics.exclusion_radius = p->get_in<double>("exclusion_radius", 0.0, 0.0, 1000.0);
  const auto in = optional_map(*p, "interaction");
  if (!in) return;
  j.pair.kind = parse_interaction_kind(in->get_choice("kind", "coulomb", interaction_kind_names()));
  const auto& msm_space = msm_parameters::fields().space();
  if (!j.pair.is_msm())
    for (const auto& spec : msm_space)
      if (in->has(spec.name))
        throw input_error(in->where(spec.name) + ": '" + in->key_path(spec.name) + "' applies only to kind: msm");
  if (!j.pair.is_cutoff()) {
    for (const char* key : {"radius", "function"})
      if (in->has(key))
        throw input_error(
            in->where(key) + ": '" + in->key_path(key) + "' applies only to kind: cutoff" +
            (j.pair.is_msm() && std::string(key) == "radius" ? " (msm's splitting distance is 'cutoff')" : ""));
    if (j.pair.is_msm()) {
      const msm_parameters m = msm_parameters::fields().from(read_parameter_values(msm_space, &*in));
      j.pair = msm_interaction(m);
    }
    return;
  }
  if (!in->has("radius")) throw input_error(in->where() + ": missing required key '" + in->key_path("radius") + "'");
  // Above 1000 A a cutoff is no cutoff (use coulomb); bins and offset lists would only grow.
  j.pair.radius = in->get_in<double>("radius", 0.0, 1e-3, 1000.0);
  j.pair.function = parse_cutoff_function(in->get_choice("function", "cutcp", cutoff_function_names()));
}

// A periodic box needs a cutoff of at most half its shortest side: then each pair has one image within the cutoff
// (the minimum image), which is what every periodic strategy sums.
void check_periodic(const config_node& root, const potential_map_config& j) {
  if (!j.grid.periodic) return;
  const auto l = root.child("lattice");
  if (!j.pair.is_cutoff())
    throw input_error(l.where("periodic") +
                      ": 'lattice.periodic' needs a cutoff interaction (physics.interaction.kind: cutoff); a periodic "
                      "Coulomb sum needs Ewald summation or periodic multilevel grids, which ppl does not do");
  const auto box = j.grid.box();
  const double shortest = std::min({box[0], box[1], box[2]});
  if (j.pair.radius > 0.5 * shortest)
    throw input_error(root.child("physics").child("interaction").where("radius") + ": 'physics.interaction.radius' = " +
                      std::to_string(j.pair.radius) + " A is more than half the shortest side of the periodic box (" +
                      std::to_string(shortest) + " A)");
}

// `strategy` (default auto): a registered name with its strategy_params, or auto, which chooses both from the
// lattice, atoms, interaction and build (strategy_choice.hpp) and takes no strategy_params. The params are read
// against the strategy's declared space; the factory's parameter errors are placed at their key.
void read_strategy(const config_node& root, potential_map_config& j) {
  j.strategy_requested = root.get<std::string>("strategy", "auto");
  const std::string where = (root.has("strategy") ? root.where("strategy") : root.where()) + ": strategy";
  const auto params = root.find("strategy_params");
  if (params && !params->is_map())
    throw input_error(params->where() + ": 'strategy_params' must be a map of the strategy's parameters");
  if (j.strategy_requested != "auto") {
    j.strategy_name = j.strategy_requested;
    j.strategy_reason = "named in the job";
    const config_node* given = params ? &*params : nullptr;
    const auto& entry = registry_entry(potential_strategies(), j.strategy_name, where);
    const parameter_values values = read_parameter_values(entry.parameters, given);
    j.strategy = with_parameter_errors(
        given, where, [&] { return make_potential_strategy(j.strategy_name, values, j.pair, where, j.grid.periodic); });
    if (given != nullptr) given->check_all_used();  // keys the space does not declare
    return;
  }
  if (params)
    throw input_error(params->where() +
                      ": 'strategy_params' needs a named strategy; strategy: auto chooses the strategy and its "
                      "parameters");
  auto_strategy chosen = make_auto_strategy(j.input, j.grid, j.pair, j.verification.tolerance, where);
  j.pair = chosen.pair;
  j.strategy = std::move(chosen.strategy);
  j.strategy_name = chosen.name;
  j.strategy_params = chosen.parameters_yaml;
  j.strategy_reason = chosen.reason;
}

void read_outputs(const config_node& root, potential_job_config& j) {
  const auto o = optional_map(root, "output");
  if (!o) return;
  for (auto [key, slot] : {std::pair{"dx", &j.dx},
                           {"mrc", &j.mrc},
                           {"raw", &j.raw},
                           {"parboil_cutcp", &j.parboil_cutcp},
                           {"summary", &j.summary}}) {
    if (!o->has(key)) continue;
    const std::string k = key;
    const bool raw = k == "raw", map = k == "dx" || k == "mrc" || raw;  // the maps may be .gz
    *slot = o->output_file(
        key, raw ? std::vector<std::string>{raw_sidecar_path(o->get<std::string>(key))} : std::vector<std::string>{},
        map);
  }
}

// MSM approximates Coulomb, its oracle: its error is the method's (docs/msm.md), not float32's.
double default_tolerance(const interaction& pair) {
  return pair.is_msm() ? msm_default_tolerance : verification_options{}.tolerance;
}

void read_verification(const config_node& root, potential_map_config& j) {
  j.verification.tolerance = default_tolerance(j.pair);
  const auto v = optional_map(root, "verification");
  if (!v) return;
  auto& o = j.verification;
  o.mode = v->get_choice("mode", "auto", {"auto", "full", "sample", "none"});
  o.samples = std::size_t(v->get_in<long>("samples", 1000, 1, 100000000));
  o.tolerance = v->get_in<double>("tolerance", default_tolerance(j.pair), 0.0, 1.0);
  o.seed = std::uint64_t(v->get_in<long>("seed", 1, 0, std::numeric_limits<long>::max()));
}

void read_timing(const config_node& root, potential_map_config& j) {
  const auto t = optional_map(root, "timing");
  if (!t) return;
  j.warmup = t->get_in<int>("warmup", 0, 0, 1000);
  j.repeats = t->get_in<int>("repeats", 1, 1, 10000);
}

}  // namespace

void read_potential_map(const config_node& root, potential_map_config& j, const potential_map_rules& rules) {
  j.job_file = root.job_file();
  j.input = read_input(root);
  read_lattice(root, j, rules);
  read_physics(root, j, rules);
  check_periodic(root, j);
  read_verification(root, j);  // before the strategy: auto may approximate Coulomb within its tolerance
  read_strategy(root, j);
  check_memory(root, j, rules);
  try {
    j.strategy->check({j.input, j.grid, j.pair});
  } catch (const input_error& e) {
    throw input_error((root.has("strategy") ? root.where("strategy") : root.where()) + ": strategy " + j.strategy_name +
                      ": " + e.what());
  }
  read_timing(root, j);
}

potential_job_config read_potential_job(const config_node& root) {
  potential_job_config j;
  read_potential_map(root, j);
  read_outputs(root, j);
  return j;
}

progress_sink progress_of(const job_context& ctx) {
  progress_sink p;
  // A terminal's bar on stderr, redrawn in place; otherwise sparse lines among the job's own on its stream, so
  // stderr stays for errors (one line for bad input) and a log reads in order.
  if (ctx.quiet) return p;
  p.terminal = is_terminal(2);
  p.out = p.terminal ? &std::cerr : &ctx.out;
  return p;
}

std::optional<progress_bar> make_progress(const progress_sink& sink, std::size_t total) {
  std::optional<progress_bar> bar;
  if (sink.out) bar.emplace(*sink.out, total, sink.terminal, progress_options{2.0, true});
  return bar;
}

verification_progress verification_bar(const progress_sink& sink) {
  if (!sink.out) return {};
  // Shared: the verification copies the callback.
  auto bar = std::make_shared<std::optional<progress_bar>>();
  return [sink, bar](std::size_t done, std::size_t total) {
    if (!*bar) bar->emplace(*sink.out, total, sink.terminal, progress_options{2.0, true});
    (*bar)->update(done, fmt::format("verification: {} of {} points", done, total));
    if (done == total) (*bar)->finish();
  };
}

std::vector<std::pair<int, int>> map_slabs(const potential_map_config& m) {
  const lattice& g = m.grid;
  const double plane = double(g.dims[0]) * double(g.dims[1]);
  constexpr double min_points = double(1 << 20);
  constexpr int max_slabs = 16;
  if (m.warmup != 0 || m.repeats != 1 || g.periodic || double(g.size()) <= 2 * min_points) return {{0, g.dims[2]}};
  // MSM's grids span the atoms whatever the slab: each slab would redo them.
  if (m.pair.is_msm()) return {{0, g.dims[2]}};
  // On a GPU a map of this size takes milliseconds: one launch, no progress to show, no set-up repeated per slab.
  // The float64 host references stay slow there too.
  const bool host_reference = m.strategy_name == "reference" || m.strategy_name == "cutoff_reference";
  if (default_space_is_gpu() && !host_reference) return {{0, g.dims[2]}};
  const int per = std::max({1, int(std::ceil(min_points / plane)), (g.dims[2] + max_slabs - 1) / max_slabs});
  std::vector<std::pair<int, int>> slabs;
  for (int k = 0; k < g.dims[2]; k += per) slabs.emplace_back(k, std::min(g.dims[2], k + per));
  return slabs;
}

namespace {

// The summary's numbers of one plan, added to those of the slabs before it.
void add_plan_numbers(map_timing& t, const potential_plan& plan, bool first) {
  t.pairs_examined += plan.pairs_examined();
  t.pairs_within += plan.pairs_within();
  t.pairs_loaded += plan.pairs_loaded();
  const auto b = plan.breakdown();
  if (first) {
    t.breakdown = b;
    return;
  }
  for (std::size_t n = 0; n < b.size() && n < t.breakdown.size(); ++n) {
    const std::string& name = b[n].first;
    // Sizes (what one slab's plan had at most) take the largest; times and counts add up.
    const bool size = name == "bin_capacity" || name == "fullest_bin" || name == "stencil_bins" ||
                      name == "atoms_per_chunk" || name == "atom_chunks";
    t.breakdown[n].second = size ? std::max(t.breakdown[n].second, b[n].second) : t.breakdown[n].second + b[n].second;
  }
}

map_timing compute_in_slabs(const potential_map_config& m, potential_view out,
                            const std::function<void(const std::string&)>& say, const progress_sink& progress,
                            const std::vector<std::pair<int, int>>& slabs) {
  map_timing t;
  t.slabs = int(slabs.size());
  const lattice& g = m.grid;
  const std::size_t plane = std::size_t(g.dims[0]) * std::size_t(g.dims[1]);
  double compute_seconds = 0;
  auto bar = make_progress(progress, slabs.size());
  for (std::size_t s = 0; s < slabs.size(); ++s) {
    const auto [k0, k1] = slabs[s];
    lattice sub = g;
    sub.origin[2] = g.coord(2, k0);
    sub.dims[2] = k1 - k0;
    // Unmanaged: the slab's part of the whole map.
    potential_view part(out.data() + std::size_t(k0) * plane, std::size_t(k1 - k0) * plane);
    Kokkos::fence();
    const auto t0 = std::chrono::steady_clock::now();
    t.plan = m.strategy->prepare({m.input, sub, m.pair});
    Kokkos::fence();
    const auto t1 = std::chrono::steady_clock::now();
    m.strategy->compute(*t.plan, part, write_mode::overwrite);
    Kokkos::fence();
    t.setup_seconds += std::chrono::duration<double>(t1 - t0).count();
    compute_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    add_plan_numbers(t, *t.plan, s == 0);
    if (bar) bar->step(fmt::format("map: planes {}-{} of {}", k0, k1 - 1, g.dims[2]));
  }
  if (bar) bar->finish();
  t.breakdown.emplace_back("slabs", double(slabs.size()));
  t.seconds.push_back(compute_seconds);
  say(fmt::format("{} set-up: {:.6g} s ({} slabs)", m.strategy_name, t.setup_seconds, slabs.size()));
  say(fmt::format("{} run 1/1: {:.6g} s ({} slabs)", m.strategy_name, compute_seconds, slabs.size()));
  return t;
}

}  // namespace

map_timing compute_map(const potential_map_config& m, potential_view out,
                       const std::function<void(const std::string&)>& say, const progress_sink& progress) {
  if (m.strategy_requested == "auto")
    say(fmt::format("strategy auto: {}{} ({})", m.strategy_name,
                    m.strategy_params.empty() ? "" : " " + m.strategy_params, m.strategy_reason));
  const auto slabs = map_slabs(m);
  if (slabs.size() > 1) return compute_in_slabs(m, out, say, progress, slabs);
  map_timing t;
  Kokkos::fence();
  const auto setup_start = std::chrono::steady_clock::now();
  t.plan = m.strategy->prepare({m.input, m.grid, m.pair});
  Kokkos::fence();
  t.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
  say(fmt::format("{} set-up: {:.6g} s", m.strategy_name, t.setup_seconds));
  for (const auto& [name, value] : t.plan->breakdown())
    if (name.size() < 2 || name.compare(name.size() - 2, 2, "_s") != 0) say(fmt::format("  {}: {:.6g}", name, value));
  const int runs = m.warmup + m.repeats;
  auto bar = make_progress(progress, std::size_t(runs));
  for (int r = 0; r < runs; ++r) {
    Kokkos::fence();
    const auto t0 = std::chrono::steady_clock::now();
    m.strategy->compute(*t.plan, out, write_mode::overwrite);
    Kokkos::fence();
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const bool warm = r < m.warmup;
    if (!warm) t.seconds.push_back(dt);
    if (bar) bar->step(fmt::format("map: {} {}", warm ? "warm-up" : "run", warm ? r + 1 : r + 1 - m.warmup));
    say(fmt::format("{} {} {}/{}: {:.6g} s", m.strategy_name, warm ? "warm-up" : "run", warm ? r + 1 : r + 1 - m.warmup,
                    warm ? m.warmup : m.repeats, dt));
  }
  if (bar) bar->finish();
  add_plan_numbers(t, *t.plan, true);
  return t;
}

void describe_map(potential_summary& s, const potential_map_config& m, const map_timing& t) {
  s.job_file = m.job_file;
  s.atoms_source = m.input.source;
  s.atoms = m.input.size();
  s.net_charge = std::accumulate(m.input.q.begin(), m.input.q.end(), 0.0);
  s.grid = m.grid;
  s.single_plane = m.single_plane;
  s.strategy = m.strategy_requested.empty() ? m.strategy_name : m.strategy_requested;
  s.strategy_chosen = m.strategy_name;
  s.strategy_params = m.strategy_params;
  s.strategy_reason = m.strategy_reason;
  s.pair = m.pair;
  s.physics = m.physics;
  s.setup_seconds = t.setup_seconds;
  s.timing = summarize_times(m.warmup, t.seconds);
  s.evaluations = t.pairs_examined;
  s.pairs_within = t.pairs_within;
  s.pairs_loaded = t.pairs_loaded;
  s.breakdown = t.breakdown;
  s.evaluations_per_s = s.timing.median > 0 ? s.evaluations / s.timing.median : 0.0;
  s.system = query_system_info();
}

}  // namespace ppl
