// `job: potential`: a potential map of a molecule or a synthetic system with one registered strategy, timed,
// verified against float64 sums on the host, written as OpenDX / raw float32 and summarised. Configuration:
// potential_config.cpp and docs/config.md ("potential").
#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <numeric>
#include <ostream>

#include "potential_config.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/io/opendx.hpp"
#include "ppl/io/raw_grid.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/job_kinds.hpp"
#include "ppl/potential/summary.hpp"

namespace ppl {
namespace {

grid_geometry geometry_of(const lattice& g) {
  grid_geometry out;
  out.origin = g.origin;
  out.delta = {g.spacing, g.spacing, g.spacing};
  out.dims = g.dims;
  return out;
}

class potential_job final : public job {
 public:
  explicit potential_job(const config_node& c) : cfg_(read_potential_job(c)) {}

  int run(job_context& ctx) override {
    auto say = [&](const std::string& line) {
      if (!ctx.quiet) ctx.out << "potential: " << line << "\n" << std::flush;
    };
    const atoms& a = cfg_.input;
    const lattice& g = cfg_.grid;
    say(fmt::format("{} atoms from {}", a.size(), a.source));
    say(fmt::format("lattice {} x {} x {} ({} points), spacing {} A", g.dims[0], g.dims[1], g.dims[2], g.size(),
                    g.spacing));

    say("interaction " + cfg_.pair.describe());
    Kokkos::fence();
    const auto setup_start = std::chrono::steady_clock::now();
    const std::unique_ptr<potential_plan> plan = cfg_.strategy->prepare({a, g, cfg_.pair});
    Kokkos::fence();
    const double setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
    say(fmt::format("{} set-up: {:.6g} s", cfg_.strategy_name, setup_seconds));
    potential_view out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::potential::lattice"), g.size());
    std::vector<double> seconds;
    const int runs = cfg_.warmup + cfg_.repeats;
    for (int r = 0; r < runs; ++r) {
      Kokkos::fence();
      const auto t0 = std::chrono::steady_clock::now();
      cfg_.strategy->compute(*plan, out, write_mode::overwrite);
      Kokkos::fence();
      const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const bool warm = r < cfg_.warmup;
      if (!warm) seconds.push_back(dt);
      say(fmt::format("{} {} {}/{}: {:.6g} s", cfg_.strategy_name, warm ? "warm-up" : "run",
                      warm ? r + 1 : r + 1 - cfg_.warmup, warm ? cfg_.warmup : cfg_.repeats, dt));
    }
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    float* values = host.data();

    potential_summary s;
    s.verification = verify_potential(cfg_.verification, a, g, cfg_.pair, values);
    if (s.verification.mode != "none")
      say(fmt::format("verification ({}, {} points): relative L2 error {:.3e} (tolerance {:.1e}) {}",
                      s.verification.mode, s.verification.points, s.verification.error, s.verification.tolerance,
                      s.verification.passed ? "passed" : "FAILED"));

    s.excluded_points = apply_physics(cfg_.physics, a, g, values);
    s.job_file = cfg_.job_file;
    s.atoms_source = a.source;
    s.atoms = a.size();
    s.net_charge = std::accumulate(a.q.begin(), a.q.end(), 0.0);
    s.grid = g;
    s.single_plane = cfg_.single_plane;
    s.strategy = cfg_.strategy_name;
    s.pair = cfg_.pair;
    s.physics = cfg_.physics;
    s.setup_seconds = setup_seconds;
    s.values = compute_stats(g, values);
    s.timing = summarize_times(cfg_.warmup, seconds);
    s.evaluations = plan->pairs_examined();
    s.pairs_within = plan->pairs_within();
    s.evaluations_per_s = s.timing.median > 0 ? s.evaluations / s.timing.median : 0.0;
    s.system = query_system_info();
    write_outputs(s, values, say);
    ctx.out << to_text(s);
    return int(s.verification.passed ? exit_code::ok : exit_code::verification_failed);
  }

 private:
  template <class Say>
  void write_outputs(potential_summary& s, const float* values, const Say& say) {
    const auto geo = geometry_of(cfg_.grid);
    const char* units = unit_label(cfg_.physics.units);
    if (cfg_.dx) {
      write_opendx(*cfg_.dx, geo, values,
                   {fmt::format("electrostatic potential ({}) written by ppl {}", units, PPL_VERSION),
                    fmt::format("atoms: {} ({})", s.atoms, s.atoms_source),
                    fmt::format("strategy: {}, permittivity {}, exclusion radius {} A", s.strategy,
                                cfg_.physics.permittivity, cfg_.physics.exclusion_radius)});
      s.outputs.push_back(*cfg_.dx);
      say("wrote " + *cfg_.dx);
    }
    if (cfg_.raw) {
      write_raw_float32(*cfg_.raw, geo, values,
                        {units, fmt::format("electrostatic potential of {} ({} atoms), strategy {}", s.atoms_source,
                                            s.atoms, s.strategy)});
      s.outputs.push_back(*cfg_.raw);
      s.outputs.push_back(raw_sidecar_path(*cfg_.raw));
      say("wrote " + *cfg_.raw + " and " + raw_sidecar_path(*cfg_.raw));
    }
    if (cfg_.summary) {
      s.outputs.push_back(*cfg_.summary);
      write_file_atomically(*cfg_.summary, [&](std::ostream& o) { o << to_json(s) << "\n"; });
      say("wrote " + *cfg_.summary);
    }
  }

  potential_job_config cfg_;
};

}  // namespace

std::unique_ptr<job> make_potential_job(const config_node& c) {
  return std::make_unique<potential_job>(c);
}

}  // namespace ppl
