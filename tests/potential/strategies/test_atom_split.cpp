// gather_atom_split beyond the registry-wide tests (which run its defaults, one chunk on a host): explicit chunkings
// at the edges (a chunk count that does not divide the atoms, one atom, a chunk per atom, chunks larger than the
// atoms), both combines in overwrite and accumulate mode, the automatic chunking, and two_pass giving the same bits
// on one and two threads. Also the `strategy: auto` rule (strategy_choice.hpp) on summarised problems.
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

#include "ppl/core/error.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/strategy_choice.hpp"
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

// The plan's own numbers (point_tiles, atom_chunks, atoms_per_chunk, teams).
std::map<std::string, double> breakdown_of(const potential_strategy& s, const atoms& a, const lattice& g) {
  std::map<std::string, double> out;
  for (const auto& [k, v] : s.prepare({a, g, coulomb_interaction()})->breakdown()) out[k] = v;
  return out;
}

struct split_case {
  std::size_t atoms;
  int atoms_per_chunk;
  int chunks;  // expected
};

class AtomSplitChunks : public ::testing::TestWithParam<std::tuple<split_case, std::string>> {};

TEST_P(AtomSplitChunks, MatchTheFloat64Sum) {
  const auto& [c, combine] = GetParam();
  const lattice g = make_lattice(-1.0, 0.5, 2.0, 0.5, 21, 6, 5);
  const atoms a = atoms_around(g, c.atoms, 2.0, test_seed(7));
  gather_atom_split_params params;
  params.combine = combine;
  params.atoms_per_chunk = c.atoms_per_chunk;
  params.coarsening = 4;
  const auto s = make_gather_atom_split(params);
  const std::string what = "combine " + combine + ", atoms_per_chunk " + std::to_string(c.atoms_per_chunk);
  const auto b = breakdown_of(*s, a, g);
  EXPECT_EQ(b.at("atom_chunks"), c.chunks) << what;
  EXPECT_EQ(b.at("teams"), b.at("point_tiles") * c.chunks);
  const std::vector<float> v = run_strategy(*s, a, g);  // over NaN: an atomic overwrite that did not zero fails
  expect_within_tolerance("gather_atom_split", g, v, float64_expected(a, g), what);
}

std::vector<std::tuple<split_case, std::string>> chunk_cases() {
  std::vector<std::tuple<split_case, std::string>> out;
  for (const split_case& c : {split_case{150, 7, 22},    // 21 chunks of 7 and one of 3
                              split_case{150, 150, 1},   // one chunk: stored directly
                              split_case{150, 149, 2},   // a last chunk of one atom
                              split_case{1, 1, 1},       // one atom
                              split_case{1, 64, 1},      // a chunk larger than the atoms
                              split_case{5, 1, 5},       // a chunk per atom
                              split_case{300, 1000, 1},  // chunks larger than the atoms
                              split_case{0, 4, 1}})      // no atoms: zeros
    for (const char* combine : {"atomic", "two_pass"}) out.emplace_back(c, combine);
  return out;
}

std::string chunk_name(const ::testing::TestParamInfo<std::tuple<split_case, std::string>>& info) {
  const auto& [c, combine] = info.param;
  return combine + "_" + std::to_string(c.atoms) + "_atoms_" + std::to_string(c.atoms_per_chunk) + "_per_chunk";
}

INSTANTIATE_TEST_SUITE_P(Chunkings, AtomSplitChunks, ::testing::ValuesIn(chunk_cases()), chunk_name);

// accumulate adds the map to what is there, overwrite replaces it, whatever the combine and chunking.
TEST(AtomSplit, AccumulateAndOverwriteWithEveryCombine) {
  const lattice g = make_lattice(0.25, -1.0, 1.0, 0.5, 17, 4, 3);
  const atoms a = atoms_around(g, 90, 2.0, test_seed(8));
  const expected_values e = float64_expected(a, g);
  for (const parameter_values& params :
       {parameter_values{{"combine", "atomic"}, {"atoms_per_chunk", 16}},
        parameter_values{{"combine", "two_pass"}, {"atoms_per_chunk", 16}},
        parameter_values{{"combine", "atomic"}, {"atoms_per_chunk", 90}}, parameter_values{{"combine", "two_pass"}}}) {
    SCOPED_TRACE(text(params));
    const auto s = make_strategy("gather_atom_split", params);
    const auto plan = s->prepare({a, g, coulomb_interaction()});
    potential_view out("potential", g.size());
    Kokkos::deep_copy(out, 1000.0f);  // overwrite must not keep it
    s->compute(*plan, out, write_mode::overwrite);
    const auto once = Kokkos::create_mirror(out);
    Kokkos::deep_copy(once, out);
    expect_within_tolerance("gather_atom_split", g, std::vector<float>(once.data(), once.data() + g.size()), e,
                            text(params));
    s->compute(*plan, out, write_mode::accumulate);
    s->compute(*plan, out, write_mode::accumulate);
    const auto thrice = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    float scale = 0.0f;
    for (std::size_t i = 0; i < g.size(); ++i) scale = std::max(scale, std::abs(once(i)));
    for (std::size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(thrice(i), 3.0f * once(i), 1e-5f * scale) << "point " << i;
  }
}

// A chunking the device cannot hold is refused when the job is read (check(), what `ppl validate` runs), naming
// atoms_per_chunk: on a host the launch's teams pass the int range first, on a GPU the partial sums the memory.
TEST(AtomSplit, ImpossibleChunkingIsAnInputError) {
  const lattice g = make_lattice(0, 0, 0, 0.5, 8, 1000, 1000);
  const atoms a = atoms_around(make_lattice(0, 0, 0, 0.5, 8, 8, 8), 10000, 1.0, test_seed(14));
  const auto s = make_strategy("gather_atom_split", {{"combine", "two_pass"}, {"atoms_per_chunk", 1}});
  const std::string msg = ppl_test::error_of<input_error>([&] { s->check({a, g, coulomb_interaction()}); });
  EXPECT_NE(msg.find("atoms_per_chunk"), std::string::npos) << msg;
  // One chunk of every atom needs nothing beyond the map.
  make_strategy("gather_atom_split", {{"combine", "two_pass"}})->check({a, g, coulomb_interaction()});
}

// The same plan computed twice gives the same bits with two_pass (with atomics only on a host with one thread).
TEST(AtomSplit, TwoPassRepeatsItsBits) {
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 23, 7, 2);
  const atoms a = atoms_around(g, 400, 2.0, test_seed(9));
  const auto s = make_strategy("gather_atom_split", {{"combine", "two_pass"}, {"atoms_per_chunk", 33}});
  const std::vector<float> v1 = run_strategy(*s, a, g), v2 = run_strategy(*s, a, g);
  ASSERT_EQ(v1.size(), v2.size());
  EXPECT_EQ(std::memcmp(v1.data(), v2.data(), v1.size() * sizeof(float)), 0);
}

// atoms_per_chunk: auto splits the atoms when the point tiles alone are fewer than the teams wanted, in chunks of
// at least auto_rule::split_min_chunk_atoms; a lattice with many tiles keeps one chunk.
TEST(AtomSplit, AutomaticChunking) {
  const auto s = make_strategy("gather_atom_split");
  const int concurrency = Kokkos::DefaultExecutionSpace().concurrency();
  {  // one point: one tile, so as many chunks as the rule wants, within the atoms
    const lattice g = make_lattice(0, 0, 0, 0.5, 1, 1, 1);
    const atoms a = atoms_around(g, 5000, 3.0, test_seed(10));
    const auto b = breakdown_of(*s, a, g);
    EXPECT_EQ(b.at("point_tiles"), 1);
    EXPECT_GE(b.at("atoms_per_chunk"), auto_rule::split_min_chunk_atoms);
    if (!default_space_is_gpu()) {  // host: one-thread teams, so split_target_waves x the threads are wanted
      const double wanted = double(auto_rule::split_target_waves) * concurrency;
      const double per_chunk = std::max<double>(auto_rule::split_min_chunk_atoms, std::ceil(5000 / wanted));
      EXPECT_EQ(b.at("atom_chunks"), std::ceil(5000 / per_chunk));
    }
    expect_within_tolerance("gather_atom_split", g, run_strategy(*s, a, g), float64_expected(a, g), "one point");
  }
  {  // few atoms: never chunks below the minimum, so a single chunk
    const lattice g = make_lattice(0, 0, 0, 0.5, 2, 1, 1);
    const atoms a = atoms_around(g, std::size_t(auto_rule::split_min_chunk_atoms) - 1, 3.0, test_seed(11));
    EXPECT_EQ(breakdown_of(*s, a, g).at("atom_chunks"), 1);
  }
  if (!default_space_is_gpu()) {  // a host lattice of many rows: the tiles alone are enough
    const lattice g = make_lattice(0, 0, 0, 0.5, 16, 16, 4);
    const atoms a = atoms_around(g, 3000, 3.0, test_seed(12));
    EXPECT_EQ(breakdown_of(*s, a, g).at("atom_chunks"), 1);
  }
}

// two_pass on one and on two threads gives the same bits: each point's chunk sums are added in chunk order and each
// chunk's sum in atom order, whatever thread runs it. Run in child processes of this binary (a Kokkos thread pool
// is fixed for a process): the child writes the map to $PPL_ATOM_SPLIT_DUMP.
constexpr const char* dump_variable = "PPL_ATOM_SPLIT_DUMP";

TEST(AtomSplitDump, WritesTheTwoPassMap) {
  const char* path = std::getenv(dump_variable);
  if (path == nullptr) GTEST_SKIP() << "run by AtomSplit.TwoPassIsTheSameOnOneAndTwoThreads";
  const lattice g = make_lattice(-2.0, 1.0, 0.5, 0.5, 29, 9, 4);
  const atoms a = atoms_around(g, 700, 2.0, 2024);
  const auto s =
      make_strategy("gather_atom_split", {{"combine", "two_pass"}, {"atoms_per_chunk", 45}, {"coarsening", 8}});
  const std::vector<float> v = run_strategy(*s, a, g);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

TEST(AtomSplit, TwoPassIsTheSameOnOneAndTwoThreads) {
  if (default_space_is_gpu()) GTEST_SKIP() << "thread counts are a host backend's";
  ppl_test::temp_dir t;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::array<std::string, 2> maps;
  for (int threads : {1, 2}) {
    const std::string file = t.file("map" + std::to_string(threads) + ".f32");
    int status = -1;
    const std::string out = ppl_test::run_command(std::string(dump_variable) + "=" + file + " " + self +
                                                      " --gtest_filter=AtomSplitDump.* "
                                                      "--kokkos-threads=" +
                                                      std::to_string(threads) + " 2>&1",
                                                  status);
    ASSERT_EQ(status, 0) << out;
    maps[threads - 1] = ppl_test::read_file(file);
  }
  ASSERT_EQ(maps[0].size(), 29u * 9 * 4 * sizeof(float));
  EXPECT_TRUE(maps[0] == maps[1]) << "two_pass differs between one and two threads";
}

// The `strategy: auto` rule on summarised problems: an H200 (132 SMs x 2048 threads), and a 2-thread host.
potential_problem_summary h200(std::array<int, 3> dims, std::size_t atoms) {
  potential_problem_summary p;
  p.dims = dims;
  p.atoms = atoms;
  p.cuda = p.gpu = true;
  p.concurrency = 132 * 2048;
  p.multiprocessors = 132;
  return p;
}
potential_problem_summary host(std::array<int, 3> dims, std::size_t atoms) {
  potential_problem_summary p;
  p.dims = dims;
  p.atoms = atoms;
  p.concurrency = 2;
  return p;
}

TEST(StrategyChoice, TheRule) {
  auto cutoff = h200({256, 256, 64}, 40000);
  cutoff.pair = cutoff_interaction(12.0, cutoff_function::cutcp);
  EXPECT_EQ(choose_potential_strategy(cutoff).strategy, "cutoff_binned_cuda");
  cutoff.cuda = cutoff.gpu = false;
  EXPECT_EQ(choose_potential_strategy(cutoff).strategy, "cutoff_binned");
  // The PMPP plane: 4 point tiles for 528 teams at once.
  const auto plane = choose_potential_strategy(h200({100, 100, 1}, 10000));
  EXPECT_EQ(plane.strategy, "gather_atom_split");
  EXPECT_NE(plane.reason.find("10000 points"), std::string::npos) << plane.reason;
  // ... but with too few atoms to split it stays with the tiles alone.
  EXPECT_EQ(choose_potential_strategy(h200({100, 100, 1}, 100)).strategy,
            auto_rule::cuda_prefers_hybrid_rsqrt ? "gather_hybrid_rsqrt_cuda" : "gather_coalesced");
  // 256 x 256 x 64 with 40k atoms fills the device, and so does the PMPP lattice (129 tiles, one per SM); ubiquitin's 305
  // tiles give some SMs 3 where the mean is 2.31, and 256 x 256 x 4 makes 64 tiles: both measured faster split
  // (perf/results/potential-h200/auto and atom_split); 256 x 256 x 8 makes 128, measured equal.
  const std::string whole = auto_rule::cuda_prefers_hybrid_rsqrt ? "gather_hybrid_rsqrt_cuda" : "gather_coalesced";
  EXPECT_EQ(choose_potential_strategy(h200({256, 256, 64}, 40000)).strategy, whole);
  EXPECT_EQ(choose_potential_strategy(h200({100, 100, 50}, 10000)).strategy, whole);
  if (auto_rule::cuda_prefers_hybrid_rsqrt) {  // short rows: C = 8; long rows: the defaults (C = 32)
    EXPECT_EQ(choose_potential_strategy(h200({100, 100, 50}, 10000)).parameters_yaml(),
              "{coarsening: 8, software_points: 1}");
    EXPECT_EQ(choose_potential_strategy(h200({256, 256, 64}, 40000)).parameters_yaml(), "");
  }
  EXPECT_EQ(choose_potential_strategy(h200({256, 256, 8}, 40000)).strategy, whole);
  const auto ubq = choose_potential_strategy(h200({102, 105, 113}, 1231));
  EXPECT_EQ(ubq.strategy, "gather_atom_split");
  EXPECT_NE(ubq.reason.find("1.30x"), std::string::npos) << ubq.reason;
  EXPECT_EQ(choose_potential_strategy(h200({256, 256, 4}, 40000)).strategy, "gather_atom_split");
  // Without an SM count a GPU falls back to the fill rule.
  auto unknown = h200({102, 105, 113}, 1231);
  unknown.multiprocessors = 0;
  EXPECT_EQ(choose_potential_strategy(unknown).strategy, whole);
  // A host: one of the coarsened kernels, unless the lattice has fewer tiles than threads.
  EXPECT_EQ(choose_potential_strategy(host({100, 100, 1}, 10000)).strategy,
            auto_rule::host_prefers_coarsened ? "gather_coarsened" : "gather_coalesced");
  EXPECT_EQ(choose_potential_strategy(host({1, 1, 1}, 10000)).strategy, "gather_atom_split");
  for (const auto& p : {plane, choose_potential_strategy(cutoff), choose_potential_strategy(host({9, 9, 9}, 9))}) {
    EXPECT_FALSE(p.reason.empty());
    EXPECT_EQ(p.reason.find('\n'), std::string::npos);
  }
}

// Whatever the rule picks here is runnable in this build, supports the interaction, and matches the float64 sum.
TEST(StrategyChoice, ChoicesRunHere) {
  for (const lattice& g : {make_lattice(0, 0, 0, 0.5, 1, 1, 1), make_lattice(0, 0, 0, 0.5, 37, 23, 11)}) {
    const atoms a = atoms_around(g, 500, 2.0, test_seed(13));
    const potential_choice c = choose_potential_strategy(summarize_problem(g, a.size(), coulomb_interaction()));
    SCOPED_TRACE(c.strategy + ": " + c.reason);
    ASSERT_NE(potential_strategies().find(c.strategy), nullptr);
    const auto s = make_strategy(c.strategy, c.parameters);
    expect_within_tolerance(c.strategy, g, run_strategy(*s, a, g), float64_expected(a, g), c.reason);
  }
  const interaction cut = cutoff_interaction(4.0, cutoff_function::cutcp);
  const potential_choice c = choose_potential_strategy(summarize_problem(make_lattice(0, 0, 0, 0.5, 9, 9, 9), 10, cut));
  ASSERT_NE(potential_strategies().find(c.strategy), nullptr) << c.strategy;
  EXPECT_TRUE(supports(*potential_strategies().find(c.strategy), cut));
}

}  // namespace
}  // namespace ppl::test
