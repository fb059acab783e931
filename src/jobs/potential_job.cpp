// `job: potential`: a potential map of a molecule or a synthetic system with one registered strategy, timed,
// verified against float64 sums on the host, written as OpenDX / MRC / raw float32 / Parboil cutcp's output and
// summarised. Configuration: potential_config.cpp and docs/config.md ("potential").
#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

#include "job_map.hpp"
#include "potential_config.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/io/mrc.hpp"
#include "ppl/io/opendx.hpp"
#include "ppl/io/parboil_cutcp.hpp"
#include "ppl/io/raw_grid.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/job_kinds.hpp"
#include "ppl/potential/summary.hpp"
#include "ppl/spatial/lattice_geometry.hpp"
#if PPL_HAVE_MPI
#include "mpi/split_map.hpp"
#endif

namespace ppl {
namespace {

class potential_job final : public job {
 public:
  explicit potential_job(const config_node& c) : cfg_(read_potential_job(c)) {
#if PPL_HAVE_MPI
    if (mpi::ranks() > 1) mpi::check_split(c, cfg_);
#endif
  }

  int run(job_context& ctx) override {
    // More than one rank (docs/mpi.md): each computes its planes and rank 0, with the gathered map, does everything
    // the one-process run does after the compute; the other ranks print and write nothing and exit with rank 0's
    // code.
    return run_map_job(cfg_, [&] { return run_whole(ctx); });
  }

 private:
  int run_whole(job_context& ctx) {
    auto say = [&](const std::string& line) {
      if (!ctx.quiet) ctx.out << "potential: " << line << "\n" << std::flush;
    };
    const atoms& a = cfg_.input;
    const lattice& g = cfg_.grid;
    say(fmt::format("{} atoms from {}", a.size(), a.source));
    say(fmt::format("lattice {} x {} x {} ({} points), spacing {} A", g.dims[0], g.dims[1], g.dims[2], g.size(),
                    g.spacing));

    say("interaction " + cfg_.pair.describe());
    potential_view out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::potential::lattice"), g.size());
    const progress_sink progress = progress_of(ctx);
    const map_timing run = compute_job_map(cfg_, out, say, progress);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    float* values = host.data();

    potential_summary s;
    s.verification = verify_potential(cfg_.verification, a, g, cfg_.pair, values, verification_bar(progress));
    if (s.verification.mode != "none")
      say(fmt::format("verification ({}, {} points): relative L2 error {:.3e} (tolerance {:.1e}) {}",
                      s.verification.mode, s.verification.points, s.verification.error, s.verification.tolerance,
                      s.verification.passed ? "passed" : "FAILED"));

    s.excluded_points = apply_physics(cfg_.physics, a, g, values);
    describe_map(s, cfg_, run);
#if PPL_HAVE_MPI
    s.mpi_ranks = mpi::ranks();
#endif
    s.values = compute_stats(g, values);
    write_outputs(s, values, say);
    ctx.out << to_text(s);
    return int(s.verification.passed ? exit_code::ok : exit_code::verification_failed);
  }

 private:
  // Runs `write` (staged in `set`), timing it, and records the file and its size in the summary.
  template <class Write>
  output_file& timed_write(potential_summary& s, const output_set& set, const std::string& path, const char* format,
                           const Write& write) {
    const auto t0 = std::chrono::steady_clock::now();
    write();
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.outputs.push_back(path);
    s.files.push_back({path, format, set.bytes(path), dt, true, {}});
    return s.files.back();
  }
  static std::string size_and_time(const output_file& f) {
    return fmt::format("({}, {:.3g} s)", human_bytes(f.bytes), f.seconds);
  }

  // Every output is staged and committed with the summary, after the last one is complete: a failure on the way
  // leaves all the old files. The "wrote" lines follow the commit.
  template <class Say>
  void write_outputs(potential_summary& s, const float* values, const Say& say_after_commit) {
    output_set set;
    std::vector<std::string> wrote;
    const auto say = [&](const std::string& line) { wrote.push_back(line); };
    const auto geo = geometry_of(cfg_.grid);
    const char* units = unit_label(cfg_.physics.units);
    const std::string what = fmt::format("electrostatic potential ({})", units);
    const std::string atoms_line = fmt::format("atoms: {} ({})", s.atoms, s.atoms_source);
    const std::string strategy_line =
        fmt::format("strategy: {}, permittivity {}, exclusion radius {} A", s.strategy_chosen,
                    cfg_.physics.permittivity, cfg_.physics.exclusion_radius);
    if (cfg_.dx) {
      const auto& f = timed_write(s, set, *cfg_.dx, "opendx", [&] {
        write_opendx(*cfg_.dx, geo, values,
                     {fmt::format("{} written by ppl {}", what, PPL_VERSION), atoms_line, strategy_line});
      });
      say("wrote " + *cfg_.dx + " " + size_and_time(f));
    }
    if (cfg_.mrc) {
      // MRC labels are 80 characters: the first one (program, quantity, units) always fits.
      const auto& f = timed_write(s, set, *cfg_.mrc, "mrc", [&] {
        write_mrc(*cfg_.mrc, geo, values, {fmt::format("ppl {}: {}", PPL_VERSION, what), atoms_line, strategy_line});
      });
      say("wrote " + *cfg_.mrc + " " + size_and_time(f));
    }
    if (cfg_.raw) {
      auto& f = timed_write(s, set, *cfg_.raw, "raw_float32", [&] {
        write_raw_float32(*cfg_.raw, geo, values,
                          {units, fmt::format("electrostatic potential of {} ({} atoms), strategy {}", s.atoms_source,
                                              s.atoms, s.strategy_chosen)});
      });
      f.sidecar = raw_sidecar_path(*cfg_.raw);
      s.outputs.push_back(f.sidecar);
      say("wrote " + *cfg_.raw + " and " + f.sidecar + " " + size_and_time(f));
    }
    if (cfg_.parboil_cutcp) {
      const auto& f = timed_write(s, set, *cfg_.parboil_cutcp, "parboil_cutcp",
                                  [&] { write_parboil_cutcp(*cfg_.parboil_cutcp, cfg_.grid.dims, values); });
      say("wrote " + *cfg_.parboil_cutcp + " " + size_and_time(f));
    }
    if (cfg_.summary) {
      // Listed in itself without size and time (unknown while it is being written); measured for the text summary.
      s.outputs.push_back(*cfg_.summary);
      s.files.push_back({*cfg_.summary, "json", 0, 0, false, {}});
      const auto t0 = std::chrono::steady_clock::now();
      const std::string text = to_json(s) + "\n";
      write_file_atomically(*cfg_.summary, [&](std::ostream& o) { o << text; });
      auto& f = s.files.back();
      f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      f.bytes = text.size();
      f.measured = true;
      say("wrote " + *cfg_.summary + " " + size_and_time(f));
    }
    set.commit();
    for (const auto& line : wrote) say_after_commit(line);
  }

  potential_job_config cfg_;
};

}  // namespace

std::unique_ptr<job> make_potential_job(const config_node& c) {
  return std::make_unique<potential_job>(c);
}

}  // namespace ppl
