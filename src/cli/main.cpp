// The `ppl` command. Kokkos' own flags (--kokkos-threads=N, --kokkos-device-id=N, ...) are passed to
// Kokkos::initialize; everything else goes to CLI11. Exit codes: see ppl::exit_code and docs/cli.md.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_session.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/strategies.hpp"

namespace {

int run_cli(int argc, char** argv) {
  CLI::App app{
      "ppl: portable performance layer -- electrostatic potential maps, ion placement and sparse Krylov "
      "solves as Kokkos kernels.\nKokkos flags (--kokkos-threads=N, --kokkos-device-id=N, "
      "--kokkos-help) pass through.\nExit codes: 0 ok, 1 run-time failure, 2 bad input, 3 verification "
      "failed, 4 solver did not converge."};
  app.require_subcommand(1);

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
  bool overwrite = false;
  run->add_flag("--overwrite", overwrite,
                "job: sweep: measure again the points whose records are already in the results file");

  auto* validate = app.add_subcommand("validate", "check a YAML job file without running it");
  validate->add_option("job", job_path, "job file (YAML)")->required();
  validate->add_option("--set", overrides, "override a config value: key.path=value (repeatable)");

  // CLI11 reports an unknown first word as "A subcommand is required": name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    bool known = false;
    for (const auto* sub : app.get_subcommands({})) known = known || sub->get_name() == word;
    if (!known) {
      std::cerr << "ppl: error: unknown command '" << word << "' (commands: info, strategies, run, validate)\n";
      return static_cast<int>(ppl::exit_code::bad_input);
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help: the usage on stdout, exit 0
  } catch (const CLI::ParseError& e) {
    // One line on stderr, as for every other bad input (CLI11's own report takes two).
    std::cerr << "ppl: error: " << e.what() << " (ppl --help lists the commands and options)\n";
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
  auto job = ppl::load_job(job_path, overrides);
  if (validate->parsed()) {
    std::cout << job_path << ": ok\n";
    return 0;
  }
  ppl::job_context ctx{std::cout, quiet, overwrite, load_start};
  return job->run(ctx);
}

}  // namespace

int main(int argc, char** argv) {
  // Kokkos' flags go to Kokkos (checked first: a malformed value is bad input, not an abort), the rest to CLI11,
  // so `--help` is ours and `--kokkos-help` is Kokkos'.
  try {
    ppl::kokkos_session kokkos(argc, argv);
    try {
      return run_cli(argc, argv);
    } catch (const ppl::error& e) {
      std::cerr << "ppl: error: " << e.what() << "\n";
      return static_cast<int>(e.code());
    } catch (const std::exception& e) {
      // Kokkos' allocation failures and other multi-line reports: one line, as every error.
      std::cerr << "ppl: error: " << ppl::one_line_failure(e) << "\n";
      return static_cast<int>(ppl::exit_code::failure);
    }
  } catch (const ppl::error& e) {
    std::cerr << "ppl: error: " << e.what() << "\n";
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {  // Kokkos::initialize's own refusals
    std::cerr << "ppl: error: " << ppl::one_line_failure(e) << "\n";
    return static_cast<int>(ppl::exit_code::failure);
  }
}
