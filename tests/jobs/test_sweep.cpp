// `job: sweep` (ppl/jobs/sweep.hpp, docs/sweep.md): the expansion of vary / zip / ranges / space: declared, bad
// input, resuming by key and --overwrite, and a real interruption: a sweep started as a `ppl` process, killed after
// its first records, then resumed, loses and repeats no point.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "ppl/core/error.hpp"
#include "ppl/jobs/config.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/sweep.hpp"
#include "support/ppl_test.hpp"

namespace {

namespace fs = std::filesystem;

// A small potential base: a point runs in milliseconds.
const std::string tiny_base = R"(base:
  job: potential
  input: {random: {atoms: 50, seed: 7}}
  lattice: {dims: [6, 6, 4], spacing: 0.5}
  strategy: gather_coarsened
  verification: {mode: full}
)";

ppl::sweep_config read(const ppl_test::temp_dir& dir, const std::string& body) {
  const auto path = dir.write("sweep.yaml", "job: sweep\n" + tiny_base + body + "output: {results: r.jsonl}\n");
  ppl_test::scoped_cwd cwd(dir.path);
  auto root = ppl::config_node::from_file(path);
  auto s = ppl::read_sweep_config(root);
  root.child("job");
  root.check_all_used();
  return s;
}

std::vector<std::string> texts(const ppl::sweep_config& s) {
  std::vector<std::string> out;
  for (const auto& p : s.points) out.push_back(p.text());
  return out;
}

std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

std::string bad(const std::string& body) {
  ppl_test::temp_dir dir;
  return ppl_test::error_of<ppl::input_error>([&] { read(dir, body); });
}

TEST(sweep, cartesian_product_first_key_slowest) {
  ppl_test::temp_dir dir;
  const auto s = read(dir, "vary:\n  strategy: [gather, gather_coarsened]\n  input.random.atoms: [10, 20, 30]\n");
  EXPECT_EQ(s.base_kind, "potential");
  EXPECT_EQ(texts(s),
            (std::vector<std::string>{
                "strategy=gather input.random.atoms=10", "strategy=gather input.random.atoms=20",
                "strategy=gather input.random.atoms=30", "strategy=gather_coarsened input.random.atoms=10",
                "strategy=gather_coarsened input.random.atoms=20", "strategy=gather_coarsened input.random.atoms=30"}));
  for (std::size_t i = 0; i < s.points.size(); ++i) EXPECT_EQ(s.points[i].index, i);
}

TEST(sweep, zip_groups_step_together) {
  ppl_test::temp_dir dir;
  const auto s = read(dir,
                      "vary:\n  lattice.dims: [[4, 4, 4], [8, 8, 4]]\n  strategy: [gather, scatter]\n"
                      "  input.random.atoms: [10, 40]\nzip: [[lattice.dims, input.random.atoms]]\n");
  EXPECT_EQ(texts(s), (std::vector<std::string>{"lattice.dims=[4, 4, 4] strategy=gather input.random.atoms=10",
                                                "lattice.dims=[4, 4, 4] strategy=scatter input.random.atoms=10",
                                                "lattice.dims=[8, 8, 4] strategy=gather input.random.atoms=40",
                                                "lattice.dims=[8, 8, 4] strategy=scatter input.random.atoms=40"}));
}

TEST(sweep, a_list_of_vary_maps_is_the_union_of_their_products) {
  ppl_test::temp_dir dir;
  const auto s =
      read(dir,
           "vary:\n  - {strategy: [gather, scatter]}\n"
           "  - {strategy: [gather_coarsened], strategy_params.coarsening: [1, 2], input.random.atoms: [7, 9]}\n"
           "zip: [[strategy_params.coarsening, input.random.atoms]]\n");
  EXPECT_EQ(texts(s),
            (std::vector<std::string>{"strategy=gather", "strategy=scatter",
                                      "strategy=gather_coarsened strategy_params.coarsening=1 input.random.atoms=7",
                                      "strategy=gather_coarsened strategy_params.coarsening=2 input.random.atoms=9"}));
  EXPECT_EQ(s.varied, (std::vector<std::string>{"strategy", "strategy_params.coarsening", "input.random.atoms"}));
  // A zip group must stand whole in a block.
  EXPECT_NE(bad("vary:\n  - {strategy: [gather]}\n  - {input.random.atoms: [1, 2]}\n"
                "zip: [[strategy, input.random.atoms]]\n")
                .find("is not a key of 'vary'"),
            std::string::npos);
}

TEST(sweep, ranges_step_factor_and_values) {
  ppl_test::temp_dir dir;
  EXPECT_EQ(texts(read(dir, "vary: {input.random.atoms: {from: 10, to: 40, step: 15}}\n")),
            (std::vector<std::string>{"input.random.atoms=10", "input.random.atoms=25", "input.random.atoms=40"}));
  EXPECT_EQ(texts(read(dir, "vary: {strategy_params.coarsening: {from: 1, to: 16, factor: 2}}\n")).size(), 5u);
  // Decimal steps reach their end despite rounding (0.1 + 0.1 + 0.1 > 0.3 in binary).
  EXPECT_EQ(texts(read(dir, "vary: {lattice.spacing: {from: 0.1, to: 0.3, step: 0.1}}\n")),
            (std::vector<std::string>{"lattice.spacing=0.1", "lattice.spacing=0.2", "lattice.spacing=0.3"}));
  EXPECT_EQ(texts(read(dir, "vary: {strategy: {values: [gather, scatter]}}\n")),
            (std::vector<std::string>{"strategy=gather", "strategy=scatter"}));
}

TEST(sweep, declared_space_per_strategy_and_cuda_points_listed_apart) {
  ppl_test::temp_dir dir;
  const auto s = read(dir, "vary: {strategy: [gather, gather_coarsened, gather_constmem_cuda]}\nspace: declared\n");
  // gather: rsqrt fast | ieee; gather_coarsened: coarsening 1, 2, 4, 8, 16; gather_constmem_cuda: 5 coarsenings.
  EXPECT_EQ(s.points.size() + s.skipped.size(), 2u + 5u + 5u);
  EXPECT_EQ(s.skipped.size(), ppl_test::cuda_build ? 0u : 5u);
  EXPECT_EQ(s.points[0].text(), "strategy=gather strategy_params.rsqrt=fast");
  EXPECT_EQ(s.points[2].text(), "strategy=gather_coarsened strategy_params.coarsening=1");
  // A parameter varied explicitly is not expanded again.
  EXPECT_EQ(read(dir, "vary: {strategy_params.coarsening: [4]}\nspace: declared\n").points.size(), 1u);
}

// A solve base: `space: declared` expands each point's SpMV strategy's declared finite parameters (spmv.<name>);
// ranges (vector's rows_per_team) keep their defaults, as do parameters already varied.
TEST(sweep, declared_space_of_a_solve_base_is_the_spmv_strategy_s) {
  ppl_test::temp_dir dir;
  auto read_solve = [&](const std::string& body) {
    const auto path =
        dir.write("sweep.yaml", "job: sweep\nbase:\n  job: solve\n  matrix: {generator: convection_diffusion, n: 4}\n" +
                                    body + "space: declared\noutput: {results: r.jsonl}\n");
    ppl_test::scoped_cwd cwd(dir.path);
    auto root = ppl::config_node::from_file(path);
    auto s = ppl::read_sweep_config(root);
    root.child("job");
    root.check_all_used();
    return s;
  };
  // scalar: none; vector: threads_per_row 1, 2, 4, 8, 16, 32; stream: rows_per_team 1, 2, ..., 256 (9).
  const auto s = read_solve("vary: {spmv.strategy: [scalar, vector, stream]}\n");
  ASSERT_EQ(s.points.size(), 1u + 6u + 9u);
  EXPECT_EQ(s.points[0].text(), "spmv.strategy=scalar");
  EXPECT_EQ(s.points[1].text(), "spmv.strategy=vector spmv.threads_per_row=1");
  EXPECT_EQ(s.points[6].text(), "spmv.strategy=vector spmv.threads_per_row=32");
  EXPECT_EQ(s.points[7].text(), "spmv.strategy=stream spmv.rows_per_team=1");
  EXPECT_EQ(read_solve("vary: {spmv.strategy: [vector], spmv.threads_per_row: [4]}\n").points.size(), 1u);
  // The base's strategy (auto: rows_per_team is a range) alone: the base point.
  EXPECT_EQ(read_solve("").points.size(), 1u);
}

TEST(sweep, bad_input_names_the_key) {
  EXPECT_NE(bad("vary: {strategy_params.coarsning: [1, 2]}\n")
                .find("vary 'strategy_params.coarsning': unknown key 'coarsning'"),
            std::string::npos);
  EXPECT_NE(bad("vary: {input.random.atoms: []}\n").find("vary 'input.random.atoms': empty list"), std::string::npos);
  EXPECT_NE(bad("vary: {input.random.atoms: {from: 5, to: 1, step: 1}}\n").find("from (5) is greater than to (1)"),
            std::string::npos);
  EXPECT_NE(bad("vary: {input.random.atoms: {from: 1, to: 5, step: -1}}\n").find("step must be > 0"),
            std::string::npos);
  EXPECT_NE(bad("vary: {input.random.atoms: {from: 1, to: 5, stp: 1}}\n").find("needs from, to and one of step"),
            std::string::npos);
  EXPECT_NE(bad("vary: {input.random.atoms: 5}\n").find("must be a list of values or a range"), std::string::npos);
  EXPECT_NE(bad("vary: {strategy_params.coarsening: [1, 3]}\n").find("point 2 of 2 (strategy_params.coarsening=3)"),
            std::string::npos);
  EXPECT_NE(bad("vary: {strategy: [gather]}\nzip: [[strategy, lattice.spacing]]\n")
                .find("'lattice.spacing' is not a key of 'vary'"),
            std::string::npos);
  EXPECT_NE(bad("vary: {timing.repeats: [1, 2]}\n").find("timing is the sweep's"), std::string::npos);
  EXPECT_NE(bad("").find("a sweep needs 'vary'"), std::string::npos);
}

// Runs the sweep at `path` in this process from `dir`; its exit code and printed text.
int run_sweep(const ppl_test::temp_dir& dir, const std::string& path, bool overwrite, std::string& text) {
  ppl_test::scoped_cwd cwd(dir.path);
  auto j = ppl::load_job(path, {});
  std::ostringstream out;
  ppl::job_context ctx{out, true, overwrite};
  const int rc = j->run(ctx);
  text = out.str();
  return rc;
}

TEST(sweep, records_resume_by_key_and_overwrite_redoes_them) {
  ppl_test::temp_dir dir;
  const auto path = dir.write("sweep.yaml", "job: sweep\nname: t\n" + tiny_base +
                                                "vary: {strategy: [gather, scatter], input.random.atoms: [5, 9]}\n"
                                                "repeats: 1\noutput: {results: r.jsonl}\n");
  std::string text;
  ASSERT_EQ(run_sweep(dir, path, false, text), 0) << text;
  EXPECT_NE(text.find("4 points measured, 0 already"), std::string::npos) << text;
  const auto first = lines_of(dir.file("r.jsonl"));
  ASSERT_EQ(first.size(), 4u);
  std::set<std::string> keys;
  for (std::size_t i = 0; i < first.size(); ++i) {
    const auto r = nlohmann::json::parse(first[i]);
    keys.insert(r["key"].get<std::string>());
    EXPECT_EQ(r["schema"], "ppl.summary/1");
    EXPECT_EQ(r["job"], "sweep");
    EXPECT_EQ(r["sweep"]["point"], i);
    EXPECT_EQ(r["sweep"]["study"], "t");
    EXPECT_EQ(r["sweep"]["base_job"], "potential");
    EXPECT_EQ(r["sweep"]["config"]["timing"]["repeats"], 1);  // the sweep's timing is part of what was run
    const auto& m = r["measurement"];
    EXPECT_EQ(m["timing"]["samples_s"].size(), 1u);
    EXPECT_EQ(m["timing"]["median_s"], m["timing"]["samples_s"][0]);
    EXPECT_EQ(m["time_per"], "map");
    EXPECT_TRUE(m["verification"]["passed"].get<bool>());
    EXPECT_LT(m["verification"]["error"].get<double>(), 1e-5);
    EXPECT_GT(m["throughput"]["value"].get<double>(), 0);
    EXPECT_TRUE(r["ppl"].contains("git_revision") && r["build"].contains("kokkos_version") && r.contains("device"));
    EXPECT_TRUE(r["device"]["gpu"].get<bool>() || r["device"]["clock_ghz"].is_null());  // unknown: null, not 0
  }
  EXPECT_EQ(keys.size(), 4u);
  EXPECT_EQ(nlohmann::json::parse(first[3])["sweep"]["settings"],
            nlohmann::json::parse(R"({"strategy": "scatter", "input.random.atoms": 9})"));
  // The CSV view: a header and one row per record.
  EXPECT_EQ(lines_of(dir.file("r.csv")).size(), 5u);

  ASSERT_EQ(run_sweep(dir, path, false, text), 0);
  EXPECT_NE(text.find("0 points measured, 4 already"), std::string::npos) << text;
  EXPECT_EQ(lines_of(dir.file("r.jsonl")), first);  // untouched

  ASSERT_EQ(run_sweep(dir, path, true, text), 0);
  EXPECT_NE(text.find("4 points measured, 0 already"), std::string::npos) << text;
  const auto again = lines_of(dir.file("r.jsonl"));
  ASSERT_EQ(again.size(), 4u);  // replaced in place, not appended
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_EQ(nlohmann::json::parse(again[i])["key"], nlohmann::json::parse(first[i])["key"]);

  // Another point added to the sweep: only it runs.
  dir.write("sweep.yaml", "job: sweep\nname: t\n" + tiny_base +
                              "vary: {strategy: [gather, scatter], input.random.atoms: [5, 9, 13]}\n"
                              "repeats: 1\noutput: {results: r.jsonl}\n");
  ASSERT_EQ(run_sweep(dir, path, false, text), 0);
  EXPECT_NE(text.find("2 points measured, 4 already"), std::string::npos) << text;
  EXPECT_EQ(lines_of(dir.file("r.jsonl")).size(), 6u);
}

TEST(sweep, a_solve_base_is_timed_per_iteration_against_the_copy_bandwidth) {
  ppl_test::temp_dir dir;
  const auto path = dir.write("sweep.yaml", R"(job: sweep
base:
  job: solve
  matrix: {generator: convection_diffusion, n: 6}
  rhs: manufactured
  solver: {method: bicg}
  spmv: {strategy: vector}
vary: {spmv.threads_per_row: {from: 2, to: 8, factor: 2}}
repeats: 2
output: {results: r.jsonl}
)");
  std::string text;
  ASSERT_EQ(run_sweep(dir, path, false, text), 0) << text;
  const auto lines = lines_of(dir.file("r.jsonl"));
  ASSERT_EQ(lines.size(), 3u);
  for (const auto& l : lines) {
    const auto r = nlohmann::json::parse(l);
    const auto& m = r["measurement"];
    EXPECT_EQ(m["time_per"], "iteration");
    EXPECT_EQ(m["timing"]["repeats"], 2);
    EXPECT_EQ(m["problem"]["rows"], 125);
    EXPECT_GT(m["ceiling"]["value"].get<double>(), 0);
    EXPECT_GT(m["ceiling"]["fraction"].get<double>(), 0);
    EXPECT_TRUE(m["verification"]["passed"].get<bool>());
    EXPECT_LT(m["verification"]["error"].get<double>(), 1e-7);
  }
}

TEST(sweep, overlapping_keys_duplicate_zip_keys_and_outputs_over_inputs_are_refused) {
  auto msg = bad("vary:\n  lattice.spacing: [0.5, 1.0]\n  lattice: [{dims: [4, 4, 4]}, {dims: [6, 6, 6]}]\n");
  EXPECT_NE(msg.find("vary 'lattice': overlaps vary 'lattice.spacing'"), std::string::npos) << msg;
  msg = bad("vary:\n  lattice: [{dims: [4, 4, 4]}]\n  lattice.spacing: [0.5, 1.0]\n");
  EXPECT_NE(msg.find("vary 'lattice.spacing': overlaps vary 'lattice'"), std::string::npos) << msg;
  // A common prefix that is not a parent map is fine.
  EXPECT_EQ(read(ppl_test::temp_dir(), "vary: {strategy: [gather_coarsened], strategy_params.coarsening: [1]}\n")
                .points.size(),
            1u);
  msg =
      bad("vary: {strategy_params.coarsening: [1, 2], input.random.atoms: [1, 2]}\n"
          "zip: [[strategy_params.coarsening, strategy_params.coarsening]]\n");
  EXPECT_NE(msg.find("'strategy_params.coarsening' is in the group twice"), std::string::npos) << msg;
  // The CSV view of r.jsonl is the base's PQR.
  ppl_test::temp_dir dir;
  dir.write("r.csv", "ATOM      1  N   MET A   1      -0.500   1.000   0.250 -0.3000 1.8500\n");
  dir.write("sweep.yaml",
            "job: sweep\nbase:\n  job: potential\n  input: {pqr: ./r.csv}\n  lattice: {dims: [4, 4, "
            "4]}\n  strategy: gather\nvary: {strategy: [gather, scatter]}\noutput: {results: r.jsonl}\n");
  ppl_test::scoped_cwd cwd(dir.path);
  msg = ppl_test::error_of<ppl::input_error>([&] { ppl::load_job("sweep.yaml", {}); });
  EXPECT_NE(msg.find("sweep.yaml:8:10: 'output.results' would overwrite an input"), std::string::npos) << msg;
}

TEST(sweep, the_results_file_is_read_with_a_bounded_line) {
  ppl_test::temp_dir dir;
  dir.write("r.jsonl", "{\"key\": \"a\"}\n\n" + std::string(ppl::max_record_bytes + 1, 'x') + "\n");
  const auto msg = ppl_test::error_of<ppl::input_error>([&] { ppl::read_sweep_records(dir.file("r.jsonl")); });
  EXPECT_NE(msg.find("r.jsonl:3: a line longer than 1048576 bytes"), std::string::npos) << msg;
  dir.write("ok.jsonl", "{\"key\": \"a\"}\n\n{\"key\": \"b\"}");  // no final newline
  EXPECT_EQ(ppl::read_sweep_records(dir.file("ok.jsonl")).size(), 2u);
  EXPECT_TRUE(ppl::read_sweep_records(dir.file("none.jsonl")).empty());
}

TEST(sweep, one_sweep_per_results_file) {
  ppl_test::temp_dir dir;
  const auto path = dir.write("sweep.yaml", "job: sweep\nname: t\n" + tiny_base +
                                                "vary: {strategy: [gather]}\nrepeats: 1\noutput: {results: r.jsonl}\n");
  {
    ppl_test::scoped_cwd cwd(dir.path);
    const ppl::sweep_lock held("r.jsonl.lock", "elsewhere");
    // Refused when read (what validate does) ...
    auto msg = ppl_test::error_of<ppl::input_error>([&] { ppl::load_job(path, {}); });
    EXPECT_NE(msg.find("sweep.yaml:11:10: 'output.results': the results file is in use by another sweep (process " +
                       std::to_string(::getpid())),
              std::string::npos)
        << msg;
    // ... and a second lock on the same file, however it is spelt, is refused too.
    msg = ppl_test::error_of<ppl::input_error>([&] { ppl::sweep_lock again("./r.jsonl.lock", "there"); });
    EXPECT_NE(msg.find("there: the results file is in use"), std::string::npos) << msg;
  }
  std::string text;
  ASSERT_EQ(run_sweep(dir, path, false, text), 0) << text;
  EXPECT_FALSE(fs::exists(dir.file("r.jsonl.lock")));  // removed at the end
  {
    ppl_test::scoped_cwd cwd(dir.path);
    const ppl::sweep_lock stale("r.jsonl.lock", "stale");  // a lock file left by SIGKILL is taken over
  }
  EXPECT_FALSE(fs::exists(dir.file("r.jsonl.lock")));
}

TEST(sweep, the_csv_view_is_regenerated_and_overwrite_replaces_duplicates) {
  ppl_test::temp_dir dir;
  const auto path = dir.write("sweep.yaml", "job: sweep\nname: '=t'\n" + tiny_base +
                                                "vary: {strategy: [gather, scatter]}\nrepeats: 1\n"
                                                "output: {results: r.jsonl}\n");
  std::string text;
  ASSERT_EQ(run_sweep(dir, path, false, text), 0) << text;
  const auto csv = lines_of(dir.file("r.csv"));
  ASSERT_EQ(csv.size(), 3u);
  // A study name a spreadsheet would evaluate is quoted with a leading '.
  EXPECT_NE(csv[1].find(",\"'=t\","), std::string::npos) << csv[1];
  // A kill between the record and its CSV row: the next run repairs the view without measuring anything.
  dir.write("r.csv", csv[0] + "\n" + csv[1] + "\n");
  ASSERT_EQ(run_sweep(dir, path, false, text), 0) << text;
  EXPECT_NE(text.find("0 points measured, 2 already"), std::string::npos) << text;
  EXPECT_EQ(lines_of(dir.file("r.csv")), csv);
  // A stale duplicate record: --overwrite replaces both copies with one.
  const auto records = lines_of(dir.file("r.jsonl"));
  dir.write("r.jsonl", records[0] + "\n" + records[1] + "\n" + records[0] + "\n");
  ASSERT_EQ(run_sweep(dir, path, true, text), 0) << text;
  const auto after = lines_of(dir.file("r.jsonl"));
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(after[0])["key"], nlohmann::json::parse(records[0])["key"]);
  EXPECT_NE(after[0], records[0]);  // measured again
  EXPECT_NE(text.find("2 points measured, 0 already in r.jsonl (kept; --overwrite measures them again), 0 not "
                      "runnable in this build; 2 records in r.jsonl and r.csv"),
            std::string::npos)
      << text;
  EXPECT_EQ(lines_of(dir.file("r.csv")).size(), 3u);
}

TEST(sweep, the_final_line_counts_what_the_files_hold) {
  ppl_test::temp_dir dir;
  // Two vary maps that meet: gather is one job, whichever map gives it.
  const auto path = dir.write("sweep.yaml", "job: sweep\nname: t\n" + tiny_base +
                                                "vary:\n  - {strategy: [gather]}\n  - {strategy: [gather, scatter]}\n"
                                                "repeats: 1\noutput: {results: r.jsonl}\n");
  std::string text;
  ASSERT_EQ(run_sweep(dir, path, false, text), 0) << text;
  EXPECT_NE(text.find("2 points measured, 0 already in r.jsonl (kept; --overwrite measures them again), 1 the same "
                      "job as an earlier point (one record), 0 not runnable in this build; 2 records in r.jsonl and "
                      "r.csv"),
            std::string::npos)
      << text;
  EXPECT_EQ(lines_of(dir.file("r.jsonl")).size(), 2u);
  EXPECT_EQ(lines_of(dir.file("r.csv")).size(), 3u);
}

// The `ppl` binary (CTest sets PPL_CLI).
std::string ppl_cli() {
  const char* p = std::getenv("PPL_CLI");
  return p ? p : "";
}

TEST(sweep, killed_midway_then_resumed_loses_and_repeats_no_point) {
  const auto cli = ppl_cli();
  ASSERT_FALSE(cli.empty()) << "PPL_CLI (the ppl binary) is not set; CTest sets it";
  ppl_test::temp_dir dir;
  // Eight points of about 0.1-0.3 s each on one thread: the kill lands after the first record, well before the end.
  dir.write("sweep.yaml", R"(job: sweep
name: interrupted
base:
  job: potential
  input: {random: {atoms: 1500, seed: 5}}
  lattice: {dims: [40, 40, 16]}
  strategy: gather
  verification: {mode: sample, samples: 50}
vary:
  strategy: [gather, gather_coarsened]
  input.random.atoms: [1500, 1600, 1700, 1800]
warmup: 1
repeats: 2
output: {results: r.jsonl}
)");
  const std::string run = "'" + cli + "' run sweep.yaml -q --kokkos-threads=1";
  int status = 0;
  // SIGTERM as soon as the results file holds a record (it only ever holds whole ones).
  const std::string out = ppl_test::run_command(
      "cd '" + dir.path.string() + "' && { " + run + " & pid=$!; i=0; while [ ! -s r.jsonl ] && [ $i -lt 6000 ]; " +
          "do sleep 0.01; i=$((i+1)); done; kill -TERM $pid; wait $pid; echo \"rc=$?\"; }",
      status);
  EXPECT_NE(out.find("rc=143"), std::string::npos) << out;  // killed by SIGTERM, not finished
  const auto before = lines_of(dir.file("r.jsonl"));
  ASSERT_GE(before.size(), 1u);
  ASSERT_LT(before.size(), 8u) << "the sweep finished before the kill: make its points slower";
  // No temporary files left beside the results.
  std::set<std::string> files;
  for (const auto& e : fs::directory_iterator(dir.path)) files.insert(e.path().filename().string());
  EXPECT_EQ(files, (std::set<std::string>{"sweep.yaml", "r.jsonl", "r.csv"}));
  EXPECT_EQ(lines_of(dir.file("r.csv")).size(), before.size() + 1);  // the view agrees with the records

  const std::string resumed = ppl_test::run_command("cd '" + dir.path.string() + "' && " + run, status);
  ASSERT_EQ(status, 0) << resumed;
  EXPECT_NE(resumed.find(std::to_string(8 - before.size()) + " points measured, " + std::to_string(before.size()) +
                         " already"),
            std::string::npos)
      << resumed;
  const auto after = lines_of(dir.file("r.jsonl"));
  ASSERT_EQ(after.size(), 8u);
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(after[i], before[i]);  // kept as measured
  std::set<std::string> keys;
  std::set<std::size_t> points;
  for (const auto& l : after) {
    const auto r = nlohmann::json::parse(l);
    keys.insert(r["key"].get<std::string>());
    points.insert(r["sweep"]["point"].get<std::size_t>());
  }
  EXPECT_EQ(keys.size(), 8u);    // none repeated
  EXPECT_EQ(points.size(), 8u);  // none lost: 0..7 each once
  EXPECT_EQ(*points.rbegin(), 7u);
}

}  // namespace
