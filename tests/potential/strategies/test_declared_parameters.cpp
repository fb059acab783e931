// Derived from the declared parameter spaces (registry entries' `parameters`): every runnable strategy with each of
// its parameters set alone to every allowed value, or to both ends of its range, either runs and matches the float64
// sum of its interaction, or is rejected when the strategy is made (what `ppl validate` does) with an input error at
// the parameter (a parameter_error: the job layer places it at the key). The values go in by name, as a job's
// strategy_params do after reading. A new parameter is covered by declaring it in its struct's fields().
#include <array>
#include <cmath>
#include <ostream>
#include <sstream>

#include "ppl/core/error.hpp"
#include "ppl/potential/reference.hpp"
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

struct declared_case {
  std::string strategy;
  parameter_values params;
};

// What a failure prints for the case (gtest would print its bytes).
void PrintTo(const declared_case& c, std::ostream* os) {
  *os << c.strategy << " " << text(c.params);
}

std::vector<declared_case> declared_cases() {
  std::vector<declared_case> out;
  for (const auto& e : potential_strategies().entries()) {
    if (!e.available()) continue;
    for (const auto& p : e.parameters) {
      std::vector<parameter_value> values;
      if (p.type == parameter_type::choice) {
        for (const auto& v : p.allowed) values.emplace_back(v);
      } else if (!p.allowed.empty()) {
        for (const auto& v : p.allowed) values.emplace_back(std::stoi(v));
      } else if (p.type == parameter_type::integer3) {
        const int lo = int(p.lo), hi = int(p.hi);
        values = {std::array<int, 3>{lo, lo, lo}, std::array<int, 3>{hi, 1, 1}, std::array<int, 3>{8, 2, hi}};
      } else if (p.type == parameter_type::real) {
        values = {p.lo, p.hi};
      } else {
        values = {int(p.lo), int(p.hi)};
        if (p.has_auto) values.emplace_back(0);  // auto
      }
      for (const auto& v : values) out.push_back({e.name, {{p.name, v}}});
    }
  }
  return out;
}

class DeclaredParameters : public ::testing::TestWithParam<declared_case> {};

TEST_P(DeclaredParameters, RunCorrectlyOrAreRejectedAtTheKey) {
  const auto& [name, params] = GetParam();
  const bool coulomb = potential_strategies().find(name)->can("coulomb");
  const interaction in = interaction_for(name);
  const lattice g = make_lattice(0.5, -1.0, 2.0, 0.5, 37, 5, 3);
  const atoms a = atoms_around(g, 150, 2.0, test_seed(5));
  std::unique_ptr<potential_strategy> s;
  try {
    s = make_strategy(name, params, in);
    s->check({a, g, in});  // what a job does with the problem before prepare (ppl validate too)
  } catch (const parameter_error& e) {
    // Rejected naming the parameter, or another one together with it (region[0] against a coarsening that does
    // not divide it), or the team shape the backend cannot run.
    const std::string msg = e.what(), key = params.begin()->first;
    EXPECT_TRUE(e.parameter() == key || msg.find(key) != std::string::npos || msg.find("team") != std::string::npos)
        << msg;
    return;
  } catch (const input_error& e) {
    // Rejected by check(problem): naming the parameter or the team shape it makes impossible.
    const std::string msg = e.what(), key = params.begin()->first;
    EXPECT_TRUE(msg.find(key) != std::string::npos || msg.find("team") != std::string::npos) << msg;
    return;
  }
  const std::vector<float> v = run_strategy(*s, a, g, in);
  if (coulomb) {
    expect_within_tolerance(name, g, v, float64_expected(a, g), text(params));
    return;
  }
  const std::vector<double> ref = reference_potential(a, g, in);
  double d2 = 0, r2 = 0;
  for (std::size_t p = 0; p < ref.size(); ++p) d2 += (v[p] - ref[p]) * (v[p] - ref[p]), r2 += ref[p] * ref[p];
  EXPECT_LE(std::sqrt(d2 / r2), relative_l2_allowed(in)) << text(params);
}

std::string printable(const ::testing::TestParamInfo<declared_case>& info) {
  return info.param.strategy + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Spaces, DeclaredParameters, ::testing::ValuesIn(declared_cases()), printable);

TEST(DeclaredParameters, EveryParameterIsDeclaredOnceWithADefaultAndAMeaning) {
  for (const auto& e : potential_strategies().entries())
    for (std::size_t i = 0; i < e.parameters.size(); ++i) {
      const auto& p = e.parameters[i];
      EXPECT_FALSE(p.default_text.empty()) << e.name << "." << p.name;
      EXPECT_FALSE(p.doc.empty()) << e.name << "." << p.name;
      for (std::size_t j = 0; j < i; ++j) EXPECT_NE(e.parameters[j].name, p.name) << e.name;
    }
}

TEST(DeclaredParameters, AnUndeclaredNameIsAParameterError) {
  for (const auto& e : potential_strategies().entries()) {
    if (!e.available()) continue;
    const interaction in = interaction_for(e.name);
    const std::string msg =
        ppl_test::error_of<parameter_error>([&] { make_strategy(e.name, {{"undeclared", 1}}, in); });
    EXPECT_NE(msg.find("'undeclared' is not a parameter of this strategy"), std::string::npos) << e.name << ": " << msg;
  }
}

}  // namespace
}  // namespace ppl::test
