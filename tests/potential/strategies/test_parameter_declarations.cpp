// The drift check of the typed parameters: for every registered potential strategy, its registry entry, its struct,
// its fields() and its docs table say the same thing.
//  (a) every declared default lies within its declaration and is the value a default-constructed struct holds;
//  (b) setting one declared parameter alone to a value other than its default, by name, changes exactly that
//      member (the struct's values by name differ in that name only): no two names bound to one member, no name
//      bound to the wrong one;
//  (c) docs/potential.md or docs/cutoff.md holds the strategy's table as parameter_table() prints it (what
//      `ppl strategies --parameters` shows), under "Parameters of `<name>` (`ppl strategies --parameters`):",
//      verbatim.
// A registered strategy without a row in typed_strategies() fails here, so a new one is covered by adding its row.
#include <filesystem>
#include <functional>
#include <map>

#include "ppl/potential/strategies.hpp"
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

// What the checks need of a strategy's struct P, without knowing P.
struct typed_strategy {
  std::function<const parameter_space&()> space;
  std::function<parameter_values()> defaults;                              // fields().values(P{})
  std::function<parameter_values(const parameter_values&)> values_given;  // fields().values(fields().from(v))
};

template <class P>
typed_strategy typed() {
  return {[]() -> const parameter_space& { return P::fields().space(); }, [] { return P::fields().values(P{}); },
          [](const parameter_values& v) { return P::fields().values(P::fields().from(v)); }};
}

const std::map<std::string, typed_strategy>& typed_strategies() {
  static const std::map<std::string, typed_strategy> table{
      {"reference", typed<no_parameters>()},
      {"cutoff_reference", typed<no_parameters>()},
      {"scatter", typed<no_parameters>()},
      {"gather", typed<gather_params>()},
      {"gather_coarsened", typed<gather_coarsened_params>()},
      {"gather_coalesced", typed<gather_coalesced_params>()},
      {"gather_atom_split", typed<gather_atom_split_params>()},
      {"cutoff_binned", typed<cutoff_binned_params>()},
      {"cutoff_large_bins", typed<cutoff_large_bins_params>()},
      {"msm", typed<msm_params>()},
      {"gather_constmem_cuda", typed<gather_constmem_cuda_params>()},
      {"gather_hybrid_rsqrt_cuda", typed<gather_hybrid_rsqrt_cuda_params>()},
      {"cutoff_binned_cuda", typed<cutoff_binned_cuda_params>()},
  };
  return table;
}

// A declared value of `s` other than `d` (every declaration here has one).
parameter_value other_value(const parameter_spec& s, const parameter_value& d) {
  std::vector<parameter_value> candidates;
  if (s.type == parameter_type::choice) {
    for (const auto& v : s.allowed) candidates.emplace_back(v);
  } else if (!s.allowed.empty()) {
    for (const auto& v : s.allowed) candidates.emplace_back(std::stoi(v));
  } else if (s.type == parameter_type::integer3) {
    candidates = {std::array<int, 3>{int(s.lo), int(s.lo), int(s.lo)}, std::array<int, 3>{int(s.hi), 1, 1}};
  } else if (s.type == parameter_type::real) {
    candidates = {s.lo, s.hi};
  } else {
    candidates = {int(s.lo), int(s.hi)};
  }
  for (const auto& v : candidates)
    if (v != d) return v;
  ADD_FAILURE() << s.name << ": no declared value other than the default " << value_text(d);
  return d;
}

std::string repository_file(const std::string& relative) {
  // data_path: <repository>/data/...
  return (std::filesystem::path(ppl_test::data_path("README.md")).parent_path().parent_path() / relative).string();
}

TEST(ParameterDeclarations, EveryRegisteredStrategyHasItsStruct) {
  for (const auto& e : potential_strategies().entries()) EXPECT_EQ(typed_strategies().count(e.name), 1u) << e.name;
}

// (a)
TEST(ParameterDeclarations, DefaultsAreTheStructsAndLieWithinTheirDeclarations) {
  for (const auto& e : potential_strategies().entries()) {
    const auto it = typed_strategies().find(e.name);
    if (it == typed_strategies().end()) continue;
    const parameter_values defaults = it->second.defaults();
    EXPECT_EQ(defaults.size(), e.parameters.size()) << e.name;
    EXPECT_EQ(it->second.space().size(), e.parameters.size()) << e.name;
    for (const auto& s : e.parameters) {
      SCOPED_TRACE(e.name + "." + s.name);
      const auto d = defaults.find(s.name);
      ASSERT_NE(d, defaults.end()) << "declared, but not a member of the struct";
      EXPECT_NO_THROW(s.check(d->second)) << value_text(d->second);
      const bool is_auto = s.has_auto && std::get<int>(d->second) == 0;
      EXPECT_EQ(s.default_text, is_auto ? "auto" : value_text(d->second));
    }
  }
}

// (b)
TEST(ParameterDeclarations, EachNameSetsExactlyItsMember) {
  for (const auto& e : potential_strategies().entries()) {
    const auto it = typed_strategies().find(e.name);
    if (it == typed_strategies().end()) continue;
    const parameter_values defaults = it->second.defaults();
    for (const auto& s : e.parameters) {
      SCOPED_TRACE(e.name + "." + s.name);
      const parameter_value v = other_value(s, defaults.at(s.name));
      const parameter_values got = it->second.values_given({{s.name, v}});
      for (const auto& [name, value] : got) {
        if (name == s.name)
          EXPECT_EQ(value_text(value), value_text(v)) << "set through its name, the member did not change";
        else
          EXPECT_EQ(value_text(value), value_text(defaults.at(name))) << "setting " << s.name << " changed " << name;
      }
    }
  }
}

// (c)
// The docs show a host build's defaults (the tables say where a GPU build's differ, as gather_atom_split's
// coarsening), so the comparison runs in host builds; GPU builds still check (a) and (b).
TEST(ParameterDeclarations, DocsHoldEachTableVerbatim) {
  if (potential_gpu_build) GTEST_SKIP() << "the docs tables hold a host build's defaults";
  const std::string docs = ppl_test::read_file(repository_file("docs/potential.md")) + "\n" +
                           ppl_test::read_file(repository_file("docs/cutoff.md")) + "\n" +
                           ppl_test::read_file(repository_file("docs/msm.md"));
  for (const auto& e : potential_strategies().entries()) {
    if (e.parameters.empty()) continue;
    const std::string block =
        "Parameters of `" + e.name + "` (`ppl strategies --parameters`):\n\n" + parameter_table(e.parameters) + "\n";
    EXPECT_NE(docs.find(block), std::string::npos)
        << "docs/potential.md, docs/cutoff.md or docs/msm.md lacks, or has another version of, this table of " << e.name
        << " (`ppl strategies --parameters` prints it):\n"
        << block;
  }
}

}  // namespace
}  // namespace ppl::test
