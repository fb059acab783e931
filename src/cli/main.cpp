// The `ppl` command. Kokkos' own flags (--kokkos-threads=N, --kokkos-device-id=N, ...) are passed to
// Kokkos::initialize; everything else goes to CLI11. Exit codes: see ppl::exit_code and docs/cli.md.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_session.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/core/text.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/strategies.hpp"
#if PPL_HAVE_MPI
#include <mpi.h>
#endif

namespace {

int run_cli(int argc, char** argv) {
  CLI::App app{
      "ppl: portable performance layer -- electrostatic potential maps, ion placement and sparse Krylov "
      "solves as Kokkos kernels.\nKokkos flags (--kokkos-threads=N, --kokkos-device-id=N, "
      "--kokkos-help) pass through.\nExit codes: 0 ok, 1 run-time failure, 2 bad input, 3 verification "
      "failed, 4 solver did not converge."};
  app.require_subcommand(1);
  const auto revision = ppl::build_git_revision();
  app.set_version_flag("--version",
                       fmt::format("ppl {} ({})\nKokkos {}", PPL_VERSION, revision ? revision : "revision unknown",
                                   ppl::kokkos_version()),
                       "the version, source revision and Kokkos version");

  auto* info = app.add_subcommand("info", "versions, Kokkos backends, the device and its limits");
  bool info_json = false;
  info->add_flag("--json", info_json, "print as JSON");

  auto* strategies = app.add_subcommand("strategies",
                                        "every registered job kind and strategy, with the backends it runs on (those "
                                        "this build cannot run are marked)");
  bool with_parameters = false;
  strategies->add_flag("--parameters", with_parameters,
                       "also each strategy's declared parameters: values, defaults per backend, meaning (markdown)");

  std::string job_path;
  std::vector<std::string> overrides;
  bool quiet = false;
  auto* run = app.add_subcommand("run", "run a YAML job file");
  run->add_option("job", job_path, "job file (YAML)")->required();
  run->add_option("--set", overrides, "override a config value: key.path=value (repeatable)");
  run->add_flag("-q,--quiet", quiet, "no progress lines");
  bool verbose = false;
  run->add_flag("-v,--verbose", verbose, "more progress lines (job: ions: one per ion placed)");
  bool overwrite = false;
  run->add_flag("--overwrite", overwrite,
                "job: sweep: measure again the points whose records are already in the results file");

  auto* validate = app.add_subcommand("validate", "check a YAML job file without running it");
  validate->add_option("job", job_path, "job file (YAML)")->required();
  validate->add_option("--set", overrides, "override a config value: key.path=value (repeatable)");

  std::string molecule, map_file, map_summary;
  auto* map = app.add_subcommand("map",
                                 "a potential map of one PQR file with a potential job's defaults, without a job file "
                                 "(ppl map MOL.pqr -o map.dx [--set key=value]...)");
  map->add_option("molecule", molecule, "the molecule (PQR), relative to the current folder")->required();
  map->add_option("-o,--output", map_file,
                  "the map; its extension names the format: .dx, .dx.gz (OpenDX), .mrc, .map (MRC), .raw, .raw.gz "
                  "(float32 + JSON sidecar)")
      ->required();
  map->add_option("--summary", map_summary, "also write the job's summary (JSON)");
  map->add_option("--set", overrides, "override a potential job key: key.path=value (repeatable)");
  map->add_flag("-q,--quiet", quiet, "no progress lines");

  // CLI11 reports an unknown first word as "A subcommand is required": name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    bool known = false;
    for (const auto* sub : app.get_subcommands({})) known = known || sub->get_name() == word;
    if (!known) {
      std::cerr << "ppl: error: unknown command '" << ppl::one_line(word)
                << "' (commands: info, strategies, run, validate, map)\n";
      return static_cast<int>(ppl::exit_code::bad_input);
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help: the usage on stdout, exit 0
  } catch (const CLI::ParseError& e) {
    // One line on stderr, as for every other bad input (CLI11's own report takes two).
    std::cerr << "ppl: error: " << ppl::one_line(e.what()) << " (ppl --help lists the commands and options)\n";
    return static_cast<int>(ppl::exit_code::bad_input);
  }

  if (info->parsed()) {
    const auto s = ppl::query_system_info();
    std::cout << (info_json ? ppl::to_json(s) + "\n" : ppl::to_text(s));
    return 0;
  }
  if (app.got_subcommand("strategies")) {
    std::string family;
    for (const auto& s : ppl::all_strategies()) {
      if (s.family != family) std::cout << (family.empty() ? "" : "\n") << s.family << ":\n";
      family = s.family;
      const std::string mark = s.unavailable.empty() ? "" : "(" + s.unavailable + ") ";
      std::cout << fmt::format("  {:<24} [{}] {}{}\n", s.name, s.backends, mark, s.description);
      if (with_parameters && !s.parameters.empty()) std::cout << "\n" << s.parameters << "\n";
    }
    return 0;
  }
  const auto load_start = std::chrono::steady_clock::now();
  auto job = map->parsed() ? ppl::make_map_job(molecule, map_file, map_summary, overrides)
                           : ppl::load_job(job_path, overrides);
  if (validate->parsed()) {
    std::cout << job_path << ": ok\n";
    return 0;
  }
  ppl::job_context ctx{std::cout, quiet, overwrite, verbose, load_start};
  return job->run(ctx);
}

// What was printed must have reached standard output: a full disk or `> /dev/full` shows up only when the
// buffer is flushed, and would otherwise exit 0 with the report lost. Exits 0, 3 and 4 become 1 with one line;
// 1 and 2 keep their code and their own line.
int check_stdout(int rc) {
  errno = 0;  // the first failing write sets it: cout's flush is stdout's (synced with stdio)
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout;
  if (!failed || rc == int(ppl::exit_code::failure) || rc == int(ppl::exit_code::bad_input)) return rc;
  const int err = errno;
  std::cerr << "ppl: error: cannot write the standard output" << (err ? std::string(": ") + std::strerror(err) : "")
            << "\n";
  return int(ppl::exit_code::failure);
}

// Kokkos' flags go to Kokkos (checked first: a malformed value is bad input, not an abort), the rest to CLI11,
// so `--help` is ours and `--kokkos-help` is Kokkos'.
int run_main(int argc, char** argv, ppl::process_restart restart) {
  try {
    ppl::kokkos_session kokkos(argc, argv, restart);
    try {
      return check_stdout(run_cli(argc, argv));
    } catch (const ppl::error& e) {
      std::cerr << "ppl: error: " << ppl::one_line(e.what()) << "\n";
      return static_cast<int>(e.code());
    } catch (const std::exception& e) {
      // Kokkos' allocation failures and other multi-line reports: one line, as every error.
      std::cerr << "ppl: error: " << ppl::one_line_failure(e) << "\n";
      return static_cast<int>(ppl::exit_code::failure);
    }
  } catch (const ppl::error& e) {
    std::cerr << "ppl: error: " << ppl::one_line(e.what()) << "\n";
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {  // Kokkos::initialize's own refusals
    std::cerr << "ppl: error: " << ppl::one_line_failure(e) << "\n";
    return static_cast<int>(ppl::exit_code::failure);
  }
}

}  // namespace

int main(int argc, char** argv) {
#if PPL_HAVE_MPI
  // MPI before Kokkos (docs/mpi.md): MPI may take its own arguments and pick the device and threads a rank uses.
  // Only the main thread calls MPI (FUNNELED), Kokkos' threads never do. Only under a launcher (mpirun, srun: the
  // variables they set): a singleton MPI_Init starts Open MPI's daemon, which fails under the resource limits and
  // parallel runs the CLI tests use, and a run without a launcher is one process anyway. Once MPI is up the process
  // must not start itself again (kokkos_session's OpenMP spin bound): set OMP_WAIT_POLICY or GOMP_SPINCOUNT.
  const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK") ||
                        std::getenv("PMI_SIZE");
  if (!launched) return run_main(argc, argv, ppl::process_restart::allowed);
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    std::cerr << "ppl: error: MPI_Init_thread failed\n";
    return static_cast<int>(ppl::exit_code::failure);
  }
  const int rc = run_main(argc, argv, ppl::process_restart::forbidden);
  MPI_Finalize();
  return rc;
#else
  return run_main(argc, argv, ppl::process_restart::allowed);
#endif
}
