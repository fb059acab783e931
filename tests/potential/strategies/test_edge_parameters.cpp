// Every strategy with its parameters at the edges of their documented ranges either runs correctly or is rejected
// when the strategy is made (what `ppl validate` does) with an input error naming the key; it never reaches a
// Kokkos abort. The table covers every registered strategy, runnable in this build or not, so a new strategy needs
// its edges here.
#include <array>
#include <map>
#include <ostream>

#include "ppl/core/error.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/reference.hpp"
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

// Team shapes at the edges: 1 (always possible), 2-4 (more than one host thread: OpenMP teams are at most the
// thread pool), 1024 (the documented maximum of each key; 1024 x 1024 is more than any backend runs).
std::vector<parameter_values> team_shapes(const parameter_values& fixed) {
  std::vector<parameter_values> out;
  auto with = [&](std::initializer_list<std::pair<const std::string, parameter_value>> more) {
    parameter_values v = fixed;
    for (const auto& [k, x] : more) v[k] = x;
    out.push_back(v);
  };
  for (int w : {1, 2, 3, 4, 1024})
    for (int r : {1, 2, 1024}) with({{"block_width", w}, {"block_rows", r}});
  with({{"block_rows", 1024}});  // the width left to the backend
  with({{"block_width", 1024}});
  return out;
}

const std::map<std::string, std::vector<parameter_values>>& edges() {
  static const auto table = [] {
    using a3 = std::array<int, 3>;
    std::map<std::string, std::vector<parameter_values>> t;
    t["reference"] = {{}};
    t["cutoff_reference"] = {};  // no parameters, cutoff only (these cases are Coulomb): test_cutoff_reference.cpp
    t["scatter"] = {{}};
    t["gather"] = {{{"rsqrt", "fast"}}, {{"rsqrt", "ieee"}}};
    t["gather_coarsened"] = {{{"coarsening", 1}}, {{"coarsening", 16}}};
    for (const parameter_values& fixed : {parameter_values{{"coarsening", 16}, {"tile_atoms", 1}},
                                          parameter_values{{"coarsening", 1}, {"tile_atoms", 2048}}})
      for (const auto& s : team_shapes(fixed)) t["gather_coalesced"].push_back(s);
    for (const parameter_values& fixed :
         {parameter_values{{"coarsening", 16}, {"tile_atoms", 1}, {"atoms_per_chunk", 7}},
          parameter_values{{"coarsening", 1}, {"combine", "atomic"}, {"atoms_per_chunk", 1}},
          parameter_values{{"coarsening", 8}, {"tile_atoms", 2048}, {"atoms_per_chunk", 100000000}}})
      for (const auto& s : team_shapes(fixed)) t["gather_atom_split"].push_back(s);
    t["gather_constmem_cuda"] = {{{"coarsening", 1}, {"atoms_per_pass", 32}},
                                 {{"coarsening", 16}, {"atoms_per_pass", 1920}}};
    for (const parameter_values& fixed :
         {parameter_values{{"coarsening", 8}, {"software_points", 0}, {"tile_atoms", 1}},
          parameter_values{{"coarsening", 16}, {"software_points", 8}, {"tile_atoms", 2048}}})
      for (const auto& s : team_shapes(fixed)) t["gather_hybrid_rsqrt_cuda"].push_back(s);
    t["cutoff_large_bins"] = {{{"bin_capacity", 1}},
                              {{"coarsening", 1}, {"region", a3{1, 1, 1}}},
                              {{"team_size", 1}},
                              {{"stage_atoms", 1}}};
    t["cutoff_binned"] = {
        {{"bin_edge", 0.25}, {"bin_capacity", 1}, {"coarsening", 1}, {"region", a3{1, 1, 1}}, {"stage_atoms", 1}},
        {{"bin_edge", 64.0}, {"bin_capacity", 1024}, {"coarsening", 8}, {"region", a3{64, 1, 1}}, {"stage_atoms", 1}},
        {{"coarsening", 2}, {"region", a3{2, 64, 64}}, {"team_size", 1024}},
        {{"team_size", 1}},
        {{"team_size", 2}},
        {{"stage_atoms", 2048}},
        {{"atom_test", "cylinder"}}};
    t["msm"] = {{{"short_range", "cutoff_binned"}}, {{"short_range", "auto"}}, {{"short_range", "cutoff_binned_cuda"}}};
    t["cutoff_binned_cuda"] = {{{"coarsening", 4}, {"region", a3{4, 1, 1}}, {"stage_atoms", 32}},
                               {{"coarsening", 16}, {"region", a3{64, 8, 8}}, {"stage_atoms", 2048}},
                               {{"coarsening", 4}, {"region", a3{64, 16, 4}}},
                               {{"coarsening", 4}, {"region", a3{64, 16, 8}}},
                               {{"bin_edge", 64.0}, {"bin_capacity", 1024}, {"atom_test", "cylinder"}},
                               {{"bin_edge", 1.0}, {"bin_capacity", 1}}};
    return t;
  }();
  return table;
}

TEST(PotentialEdgeParameters, EveryRegisteredStrategyHasEdges) {
  for (const auto& e : potential_strategies().entries()) EXPECT_EQ(edges().count(e.name), 1u) << e.name;
}

struct edge_case {
  std::string strategy;
  parameter_values params;
};

void PrintTo(const edge_case& c, std::ostream* os) {
  *os << c.strategy << " " << text(c.params);
}

std::vector<edge_case> runnable_cases() {
  std::vector<edge_case> out;
  for (const auto& [name, list] : edges())
    if (potential_strategies().find(name))
      for (const auto& p : list) out.push_back({name, p});
  return out;
}

// On a host backend the rule is known: teams of at most min(threads, 64) (Kokkos' HostThreadTeamData limit).
bool host_accepts(const parameter_values& params) {
  auto value = [&](const std::string& key) {
    const auto at = params.find(key);
    return at == params.end() ? 1 : std::get<int>(at->second);
  };
  const int team = value("block_width") * value("block_rows");
  return team <= std::min(Kokkos::DefaultExecutionSpace().concurrency(), 64);
}

class PotentialEdges : public ::testing::TestWithParam<edge_case> {};

TEST_P(PotentialEdges, RunCorrectlyOrAreRejectedAtLoad) {
  const auto& [name, params] = GetParam();
  std::unique_ptr<potential_strategy> s;
  // The cutoff strategies run a cutoff interaction, checked against the float64 sum of the same.
  const bool coulomb = potential_strategies().find(name)->can("coulomb");
  const interaction in = interaction_for(name);
  try {
    s = make_strategy(name, params, in);
  } catch (const parameter_error& e) {
    // Rejected naming a parameter the case sets (the job layer places it at that key).
    const std::string msg = e.what();
    EXPECT_EQ(params.count(e.parameter()), 1u) << msg;
    if (!coulomb) {  // a team larger than this build launches: the message names the key and the limit
      // (msm: a short range this build lacks)
      EXPECT_TRUE(msg.find("team_size") != std::string::npos ||
                  msg.find("segments, more than the") != std::string::npos ||
                  (in.is_msm() && e.parameter() == "short_range" && msg.find("CUDA build") != std::string::npos))
          << msg;
      return;
    }
    // Only a team larger than this build launches may be rejected; the message names the key and the range.
    EXPECT_NE(msg.find("'block_"), std::string::npos) << msg;
    EXPECT_NE(msg.find("block_width x block_rows must be in [1, "), std::string::npos) << msg;
    if (!default_space_is_gpu()) {
      EXPECT_FALSE(host_accepts(params)) << "rejected: " << msg;
    }
    return;
  }
  if (!default_space_is_gpu() && coulomb) {
    EXPECT_TRUE(host_accepts(params)) << "accepted a team the host cannot run";
  }
  const std::uint64_t seed = test_seed(3);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(0.5, -1.0, 2.0, 0.5, 37, 5, 3);
  const atoms a = atoms_around(g, 150, 2.0, seed);
  const std::vector<float> v = run_strategy(*s, a, g, in);
  if (coulomb) {
    expect_within_tolerance(name, g, v, float64_expected(a, g), text(params) + " on 37x5x3");
    return;
  }
  const std::vector<double> ref = reference_potential(a, g, in);
  double d2 = 0, r2 = 0;
  for (std::size_t p = 0; p < ref.size(); ++p) d2 += (v[p] - ref[p]) * (v[p] - ref[p]), r2 += ref[p] * ref[p];
  EXPECT_LE(std::sqrt(d2 / r2), relative_l2_allowed(in)) << text(params) << " on 37x5x3";
}

std::string printable(const ::testing::TestParamInfo<edge_case>& info) {
  std::string out = info.param.strategy + "_" + std::to_string(info.index);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Edges, PotentialEdges, ::testing::ValuesIn(runnable_cases()), printable);

}  // namespace
}  // namespace ppl::test
