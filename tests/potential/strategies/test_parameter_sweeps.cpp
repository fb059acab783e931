// Strategy parameters: coarsening C in {1, 2, 4, 8, 16} for every strategy that takes it, the other tunables of
// gather_coalesced and gather_hybrid_rsqrt_cuda, and gather's IEEE path, each against the test's float64 loop on a
// lattice whose rows are not multiples of C x 32 (points per thread x warp width). Bad values are input errors.
#include <ostream>
#include <tuple>

#include "ppl/core/error.hpp"
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

struct sweep_case {
  std::string strategy;
  parameter_values params;
};

void PrintTo(const sweep_case& c, std::ostream* os) {
  *os << c.strategy << " " << text(c.params);
}

std::vector<sweep_case> sweep_cases() {
  std::vector<sweep_case> out;
  for (const char* s : {"gather_coarsened", "gather_coalesced", "gather_constmem_cuda"})
    if (potential_strategies().find(s))
      for (int c : {1, 2, 4, 8, 16}) out.push_back({s, {{"coarsening", c}}});
  out.push_back({"gather", {{"rsqrt", "ieee"}}});
  out.push_back({"gather", {{"rsqrt", "fast"}}});
  // Host teams are one thread; a GPU runs 32 x 3 teams with tiles smaller than the atom count.
  out.push_back({"gather_coalesced", {{"coarsening", 4}, {"tile_atoms", 7}}});
#if defined(KOKKOS_ENABLE_CUDA)
  out.push_back(
      {"gather_coalesced", {{"coarsening", 8}, {"block_width", 32}, {"block_rows", 3}, {"tile_atoms", 100}}});
  out.push_back(
      {"gather_coalesced", {{"coarsening", 2}, {"block_width", 16}, {"block_rows", 5}, {"tile_atoms", 2048}}});
#endif
  if (potential_strategies().find("gather_constmem_cuda"))
    out.push_back({"gather_constmem_cuda", {{"coarsening", 4}, {"atoms_per_pass", 100}}});
  if (potential_strategies().find("gather_hybrid_rsqrt_cuda"))
    out.push_back({"gather_hybrid_rsqrt_cuda",
                   {{"coarsening", 8}, {"software_points", 2}, {"block_rows", 3}, {"tile_atoms", 100}}});
  if (potential_strategies().find("gather_hybrid_rsqrt_cuda"))
    for (int p : {8, 16})
      for (int s : {0, 1, 3, p / 2}) out.push_back({"gather_hybrid_rsqrt_cuda", {{"coarsening", p}, {"software_points", s}}});
  return out;
}

class PotentialParameters : public ::testing::TestWithParam<sweep_case> {};

TEST_P(PotentialParameters, MatchesFloat64) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + ", " + GetParam().strategy + " " + text(GetParam().params));
  for (const lattice& g :
       {make_lattice(-1.0, 2.0, -3.0, 0.5, 37, 23, 11), make_lattice(0.0, 0.0, 0.0, 0.4375, 531, 3, 2)}) {
    // More atoms than one constant-memory pass (1920) so chunk accumulation is exercised.
    const atoms a = atoms_around(g, 2100, 2.0, seed);
    auto s = make_strategy(GetParam().strategy, GetParam().params);
    const std::vector<float> v = run_strategy(*s, a, g);
    expect_within_tolerance(GetParam().strategy, g, v, float64_expected(a, g),
                            text(GetParam().params) + " on " + std::to_string(g.dims[0]) + "x" + std::to_string(g.dims[1]) +
                                "x" + std::to_string(g.dims[2]));
  }
}

std::string printable(const ::testing::TestParamInfo<sweep_case>& info) {
  std::string name = info.param.strategy + "_" + text(info.param.params);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Sweep, PotentialParameters, ::testing::ValuesIn(sweep_cases()), printable);

TEST(PotentialParameterErrors, NameTheKey) {
  for (const auto& [strategy, key, value] : std::vector<std::tuple<std::string, std::string, parameter_value>>{
           {"gather_coarsened", "coarsening", 3},
           {"gather_coalesced", "coarsening", 32},
           {"gather_coalesced", "block_width", -1},
           {"gather_coalesced", "block_width", 1025},
           {"gather", "rsqrt", "exact"},
           {"gather", "rsqrt", 1},
       }) {
    try {
      make_potential_strategy(strategy, {{key, value}}, coulomb_interaction(), "test");
      ADD_FAILURE() << strategy << " accepted " << key << " = " << value_text(value);
    } catch (const parameter_error& e) {
      EXPECT_EQ(e.parameter(), key) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("'" + key + "' ", 0), 0u) << e.what();
    }
  }
  // The struct a C++ caller fills is checked by the typed factory too.
  gather_coarsened_params p;
  p.coarsening = 3;
  EXPECT_THROW(make_gather_coarsened(p), parameter_error);
  // An undeclared name is refused, naming the strategy's parameters.
  const std::string msg =
      ppl_test::error_of<parameter_error>([] { make_strategy("gather_coarsened", {{"no_such_parameter", 1}}); });
  EXPECT_NE(msg.find("'no_such_parameter' is not a parameter of this strategy; its parameters: coarsening"),
            std::string::npos)
      << msg;
}

}  // namespace
}  // namespace ppl::test
