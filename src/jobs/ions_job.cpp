// `job: ions`: counter-ions and salt placed cionize-style on a potential map (docs/ions.md). The map comes from
// any registered strategy (as in `job: potential`), then one ion at a time goes to the allowed point of lowest
// q x V, its potential is added to the map on the device, and so on. Writes the solute plus ions (PQR, PDB), the
// maps before and after (OpenDX) and a summary. Configuration: ions_config.cpp and docs/config.md ("ions").
#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "ions_config.hpp"
#include "job_map.hpp"
#include "ppl/core/error.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/io/opendx.hpp"
#include "ppl/ions/ion_plan.hpp"
#include "ppl/ions/structure_io.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/job_kinds.hpp"
#include "ppl/potential/summary.hpp"
#include "ppl/spatial/lattice_geometry.hpp"
#if PPL_HAVE_MPI
#include "mpi/split_map.hpp"
#endif

namespace ppl {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

class ions_job final : public job {
 public:
  explicit ions_job(const config_node& c) : cfg_(read_ions_job(c)) {
#if PPL_HAVE_MPI
    if (mpi::ranks() > 1) mpi::check_split(c, cfg_);
#endif
  }

  int run(job_context& ctx) override {
    // More than one rank (docs/mpi.md): the map is split over the ranks and gathered on rank 0, which places the
    // ions and writes everything as one process does; the other ranks compute their planes and nothing else.
    return run_map_job(cfg_, [&] { return run_whole(ctx); });
  }

 private:
  int run_whole(job_context& ctx) {
    phases_.clear();
    auto say = [&](const std::string& line) {
      if (!ctx.quiet) ctx.out << "ions: " << line << "\n" << std::flush;
    };
    const atoms& a = cfg_.input;
    const lattice& g = cfg_.grid;
    const double scale = cfg_.physics.scale();
    const char* units = unit_label(cfg_.physics.units);
    say(fmt::format("{} atoms from {}, net charge {:+.4f} e", a.size(), a.source, cfg_.solute_charge));
    say(fmt::format("lattice {} x {} x {} ({} points), spacing {} A", g.dims[0], g.dims[1], g.dims[2], g.size(),
                    g.spacing));
    say("interaction " + cfg_.pair.describe());
    say(fmt::format("allowed points {} of {} (min distance {} A from the solute, {} A from the faces; mask {:.3g} s)",
                    cfg_.mask.allowed, g.size(), cfg_.min_solute, cfg_.min_border, cfg_.mask_seconds));
    say(fmt::format("solvent volume {:.6g} A^3 of {:.6g} A^3", cfg_.solvent_volume, cfg_.box_volume));
    say("plan: " + plan_text());

    potential_view v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::ions::potential"), g.size());
    const progress_sink progress = progress_of(ctx);
    const map_timing map = compute_job_map(cfg_, v, say, progress);
    // The map stays on the device: statistics and a sample check read it there; the maps before and after come to
    // the host (4 bytes a point, 0.26 GB on a 400^3 lattice) only when they are written.
    potential_summary s;
    auto t0 = clock_type::now();
    s.verification =
        verify_potential(cfg_.verification, a, g, cfg_.pair, Kokkos::View<const float*>(v), verification_bar(progress));
    phases_.emplace_back("verification", seconds_since(t0));
    if (s.verification.mode != "none")
      say(fmt::format("verification ({}, {} points): relative L2 error {:.3e} (tolerance {:.1e}) {}",
                      s.verification.mode, s.verification.points, s.verification.error, s.verification.tolerance,
                      s.verification.passed ? "passed" : "FAILED"));
    t0 = clock_type::now();
    s.values = compute_stats(g, Kokkos::View<const float*>(v));
    // Raw statistics, then scaled: the unit scale is positive (unit factor over permittivity), so the extremes
    // stay where they are.
    s.values.min *= scale, s.values.max *= scale, s.values.mean *= scale;
    phases_.emplace_back("statistics", seconds_since(t0));
    t0 = clock_type::now();
    // create_mirror, not create_mirror_view: on a host backend a mirror view is the map itself, which placement
    // then changes and the scaling below would scale twice.
    using host_map = decltype(Kokkos::create_mirror(Kokkos::HostSpace(), v));
    host_map before, after;
    if (cfg_.dx_before) {
      before = Kokkos::create_mirror(Kokkos::HostSpace(), v);
      Kokkos::deep_copy(before, v);
    }
    phases_.emplace_back("copy_map_to_host", seconds_since(t0));

    std::vector<placed_ion> ions = place(v, say, progress);
    phases_.emplace_back("placement", placement_seconds_);
    t0 = clock_type::now();
    map_checksum_ = fmt::format("{:016x}", map_checksum(Kokkos::View<const float*>(v)));
    phases_.emplace_back("checksum", seconds_since(t0));
    t0 = clock_type::now();
    if (cfg_.dx_after) {
      after = Kokkos::create_mirror(Kokkos::HostSpace(), v);
      Kokkos::deep_copy(after, v);
    }
    phases_.emplace_back("copy_map_after_to_host", seconds_since(t0));
    for (auto& ion : ions) {
      ion.potential *= scale;
      ion.nearest_solute = nearest_atom_distance(a, ion.x, ion.y, ion.z);
    }
    for (std::size_t n = 0; n < ions.size() && ctx.verbose; ++n) {
      const auto& ion = ions[n];
      say(fmt::format("ion {:>4} {:<4} at ({:9.3f}, {:9.3f}, {:9.3f}) A  V = {:+.6g} {}  nearest solute atom {:.3f} A",
                      n + 1, ion.species->name, ion.x, ion.y, ion.z, ion.potential, units, ion.nearest_solute));
    }
    double final_charge = cfg_.solute_charge;
    for (const auto& ion : ions) final_charge += ion.species->charge;
    if (std::abs(final_charge) < 1e-9) final_charge = 0.0;  // the PQR's charges in float64: -24 + 24 = -1.7e-13
    // The rounding rule (docs/ions.md) leaves at most half a counter-ion's charge; salt is neutral.
    if (cfg_.neutralize && cfg_.counterion && std::abs(final_charge) > 0.5 * std::abs(cfg_.counterion->charge) + 1e-6)
      throw error(exit_code::failure, fmt::format("ions: net charge {:+.4f} e after neutralising", final_charge));
    say(fmt::format("net charge: solute {:+.4f} e, with ions {:+.4f} e", cfg_.solute_charge, final_charge));

    t0 = clock_type::now();
    describe_map(s, cfg_, map);
#if PPL_HAVE_MPI
    s.mpi_ranks = mpi::ranks();
#endif
    // Over the map's own extent: a bound from the grid let GCC assume the loop might run past any allocation.
    const auto rescale = [scale](const host_map& m) {
      for (std::size_t n = 0; n < m.extent(0); ++n) m(n) = float(m(n) * scale);
    };
    if (cfg_.dx_before) rescale(before);
    if (cfg_.dx_after) rescale(after);
    phases_.emplace_back("scaling", seconds_since(t0));
    job_seconds_ = seconds_since(ctx.started);  // before the outputs, whose writing the summary itself is part of
    t0 = clock_type::now();
    write_outputs(s, ions, final_charge, before.data(), after.data(), say);
    phases_.emplace_back("outputs", seconds_since(t0));
    ctx.out << to_text(s) << ions_text(ions, final_charge);
    return int(s.verification.passed ? exit_code::ok : exit_code::verification_failed);
  }

  std::string plan_text() const {
    std::string o;
    for (const auto& sp : ion_species_table()) {
      const auto n = std::count(cfg_.order.begin(), cfg_.order.end(), &sp);
      if (n) o += fmt::format("{}{} {} ({})", o.empty() ? "" : ", ", n, sp.name, sp.residue(cfg_.convention));
    }
    if (o.empty()) o = "no ions";
    if (cfg_.counterion)
      o += fmt::format("; neutralising {:+.4f} e with round({:.4f} / {}) = {} {}", cfg_.solute_charge,
                       std::abs(cfg_.solute_charge), std::abs(cfg_.counterion->charge), cfg_.counterions,
                       cfg_.counterion->name);
    if (cfg_.salt_molar > 0)
      o += fmt::format("; salt {} M in {:.6g} A^3: {} formula units", cfg_.salt_molar, cfg_.solvent_volume,
                       cfg_.salt_units);
    return o;
  }

  // The placement loop (ppl/ions/ion_plan.hpp), with the job's progress lines and bar.
  template <class Say>
  std::vector<placed_ion> place(potential_view v, const Say& say, const progress_sink& progress) {
    const auto& order = cfg_.order;
    if (order.empty()) return {};
    const auto start = clock_type::now();
    auto bar = make_progress(progress, order.size());
    std::vector<placed_ion> ions;
    try {
      ions = place_ions(
          *cfg_.placer, v, order, cfg_.min_ions,
          [&](std::size_t n, const placed_ion& ion) {
            if (cfg_.progress_every > 0 && ((n + 1) % std::size_t(cfg_.progress_every) == 0 || n + 1 == order.size()))
              say(fmt::format("placed {}/{} ({:.0f}%), {:.3g} s", n + 1, order.size(),
                              100.0 * double(n + 1) / order.size(), seconds_since(start)));
            if (bar) bar->step(fmt::format("ions: {} {} placed", n + 1, ion.species->name));
          },
          cfg_.algorithm, &report_);
    } catch (const input_error& e) {
      throw input_error(cfg_.count_where + ": " + e.what());
    }
    if (bar) bar->finish();
    placement_seconds_ = seconds_since(start);
    return ions;
  }

  timing_stats ion_times(const std::vector<placed_ion>& ions) const {
    std::vector<double> t;
    for (const auto& ion : ions) t.push_back(ion.seconds);
    return summarize_times(0, t);
  }

  // Blocks brought up to date per ion (bounded placement): median, min, max; zeros without ions.
  std::array<std::int64_t, 3> block_counts(const std::vector<placed_ion>& ions) const {
    std::vector<std::int64_t> b;
    for (const auto& ion : ions) b.push_back(ion.blocks);
    if (b.empty()) return {0, 0, 0};
    std::sort(b.begin(), b.end());
    return {b[b.size() / 2], b.front(), b.back()};
  }

  std::string ions_text(const std::vector<placed_ion>& ions, double final_charge) const {
    const auto t = ion_times(ions);
    std::string o =
        fmt::format("ions         {} placed ({}), {} convention; net charge {:+.4f} e -> {:+.4f} e\n", ions.size(),
                    plan_text(), config_name(cfg_.convention), cfg_.solute_charge, final_charge);
    o += fmt::format(
        "placement    {:.6g} s ({} ions, {}; per ion median {:.4g} ms, min {:.4g}, max {:.4g}), mask {:.4g} s\n",
        placement_seconds_, ions.size(), config_name(report_.algorithm), t.median * 1e3, t.min * 1e3, t.max * 1e3,
        cfg_.mask_seconds);
    if (report_.algorithm == placement_algorithm::bounded && !ions.empty()) {
      const auto b = block_counts(ions);
      o += fmt::format("blocks       per ion median {} of {} (min {}, max {}), finishing the map {:.4g} ms\n", b[0],
                       report_.blocks, b[1], b[2], report_.finish_seconds * 1e3);
    }
    std::string phases;
    for (const auto& [name, seconds] : phases_)
      phases += fmt::format("{}{} {:.3g} s", phases.empty() ? "" : ", ", name, seconds);
    o += "phases       " + phases + "\n";
    o += fmt::format("job          {:.4g} s from loading the job to its outputs (Kokkos' start not included)\n",
                     job_seconds_);
    return o;
  }

  std::string summary_json(const potential_summary& s, const std::vector<placed_ion>& ions, double final_charge) const {
    using json = nlohmann::ordered_json;
    json j = json::parse(to_json(s));  // the header, outputs and map, as `job: potential` writes them
    j["job"] = "ions";
    const auto t = ion_times(ions);
    json list = json::array();
    for (const auto& ion : ions)
      list.push_back({{"species", ion.species->name},
                      {"residue", ion.species->residue(cfg_.convention)},
                      {"charge", ion.species->charge},
                      {"position", {ion.x, ion.y, ion.z}},
                      {"point", ion.point},
                      {"potential", ion.potential},
                      {"nearest_solute_atom", std::isfinite(ion.nearest_solute) ? json(ion.nearest_solute) : json()},
                      {"time_s", ion.seconds},
                      {"blocks", ion.blocks >= 0 ? json(ion.blocks) : json()}});
    json counts = json::object();
    for (const auto& sp : ion_species_table()) {
      const auto n = std::count(cfg_.order.begin(), cfg_.order.end(), &sp);
      if (n) counts[sp.name] = n;
    }
    j["ions"] = {
        {"convention", config_name(cfg_.convention)},
        {"counts", counts},
        {"solute_charge", cfg_.solute_charge},
        {"net_charge", final_charge},
        {"neutralize", cfg_.neutralize},
        {"counterions", cfg_.counterions},
        {"salt_molar", cfg_.salt_molar},
        {"salt_units", cfg_.salt_units},
        {"box_volume_A3", cfg_.box_volume},
        {"solvent_volume_A3", cfg_.solvent_volume},
        {"min_distance_solute", cfg_.min_solute},
        {"min_distance_ions", cfg_.min_ions},
        {"min_distance_border", cfg_.min_border},
        {"allowed_points", cfg_.mask.allowed},
        {"mask_s", cfg_.mask_seconds},
        {"placement_s", placement_seconds_},
        {"per_ion", {{"median_s", t.median}, {"min_s", t.min}, {"max_s", t.max}}},
        {"algorithm", config_name(report_.algorithm)},
        {"blocks", blocks_json(ions)},
        {"finish_s", report_.algorithm == placement_algorithm::bounded ? json(report_.finish_seconds) : json()},
        {"map_after_checksum", map_checksum_},
        {"phases_s", phases_json()},
        {"job_s", job_seconds_},
        {"placed", list}};
    return j.dump(2);
  }

  template <class Write>
  output_file& timed_write(potential_summary& s, const output_set& set, const std::string& path, const char* format,
                           const Write& write) {
    const auto t0 = clock_type::now();
    write();
    const double dt = seconds_since(t0);
    s.outputs.push_back(path);
    s.files.push_back({path, format, set.bytes(path), dt, true, {}});
    say_file_(s.files.back());
    return s.files.back();
  }

  // Every output is staged and committed with the summary, after the last one is complete: a failure on the way
  // leaves all the old files. The "wrote" lines follow the commit.
  template <class Say>
  void write_outputs(potential_summary& s, const std::vector<placed_ion>& ions, double final_charge,
                     const float* before, const float* after, const Say& say) {
    output_set set;
    std::vector<std::string> wrote;
    say_file_ = [&](const output_file& f) {
      wrote.push_back(fmt::format("wrote {} ({}, {:.3g} s)", f.path, human_bytes(f.bytes), f.seconds));
    };
    const std::vector<std::string> remarks{
        fmt::format("ions placed by ppl {} (job: ions, {} names) on the potential of {}", PPL_VERSION,
                    config_name(cfg_.convention), s.atoms_source),
        fmt::format("{}; net charge {:+.4f} e", plan_text(), final_charge)};
    if (cfg_.pqr)
      timed_write(s, set, *cfg_.pqr, "pqr",
                  [&] { write_pqr_with_ions(*cfg_.pqr, cfg_.input, ions, cfg_.convention, remarks); });
    if (cfg_.pdb)
      timed_write(s, set, *cfg_.pdb, "pdb",
                  [&] { write_pdb_with_ions(*cfg_.pdb, cfg_.input, ions, cfg_.convention, remarks); });
    const auto geo = geometry_of(cfg_.grid);
    const std::string what = fmt::format("electrostatic potential ({})", unit_label(cfg_.physics.units));
    if (cfg_.dx_before)
      timed_write(s, set, *cfg_.dx_before, "opendx", [&] {
        write_opendx(
            *cfg_.dx_before, geo, before,
            {fmt::format("{} of {} before ion placement, written by ppl {}", what, s.atoms_source, PPL_VERSION)});
      });
    if (cfg_.dx_after)
      timed_write(s, set, *cfg_.dx_after, "opendx", [&] {
        write_opendx(
            *cfg_.dx_after, geo, after,
            {fmt::format("{} of {} with {} ions, written by ppl {}", what, s.atoms_source, ions.size(), PPL_VERSION)});
      });
    if (cfg_.summary) {
      s.outputs.push_back(*cfg_.summary);
      s.files.push_back({*cfg_.summary, "json", 0, 0, false, {}});
      const auto t0 = clock_type::now();
      const std::string text = summary_json(s, ions, final_charge) + "\n";
      write_file_atomically(*cfg_.summary, [&](std::ostream& o) { o << text; });
      auto& f = s.files.back();
      f.seconds = seconds_since(t0);
      f.bytes = text.size();
      f.measured = true;
      say_file_(f);
    }
    set.commit();
    for (const auto& line : wrote) say(line);
  }

  // The job's phases after the map, in order (the map's own times are in the summary's timing).
  nlohmann::ordered_json phases_json() const {
    nlohmann::ordered_json p = nlohmann::ordered_json::object();
    for (const auto& [name, seconds] : phases_) p[name] = seconds;
    return p;
  }

  // The bounded placement's blocks: how many the lattice has, and per ion how many were brought up to date.
  nlohmann::ordered_json blocks_json(const std::vector<placed_ion>& ions) const {
    if (report_.algorithm != placement_algorithm::bounded || report_.blocks == 0) return nullptr;  // or no ions
    const auto b = block_counts(ions);
    return {{"count", report_.blocks},
            {"points_per_block", report_.points_per_block},
            {"per_ion", {{"median", b[0]}, {"min", b[1]}, {"max", b[2]}}}};
  }

  ions_job_config cfg_;
  placement_report report_;
  std::string map_checksum_;  // of the map after placement (map_checksum), 16 hex digits
  double placement_seconds_ = 0.0;
  std::vector<std::pair<std::string, double>> phases_;
  double job_seconds_ = 0;  // from loading the job (ctx.started) to its outputs: map, mask, placement and the rest
  std::function<void(const output_file&)> say_file_;
};

}  // namespace

std::unique_ptr<job> make_ions_job(const config_node& c) {
  return std::make_unique<ions_job>(c);
}

}  // namespace ppl
