// The composition point: the job registry and `ppl strategies`' listing of every family (src/jobs/strategies.cpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "ppl/core/parameters.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/strategies.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "ppl/sparse/spmv_strategy.hpp"
#include "support/ppl_test.hpp"

namespace {

using ppl_test::cuda_build;

}  // namespace

TEST(strategies, job_kinds_include_info) {
  EXPECT_NE(ppl::job_kinds().find("info"), nullptr);
}

// `ppl strategies` lists every registered strategy of every family, marking those this build cannot run.
TEST(strategies, listing_marks_what_this_build_cannot_run) {
  const auto all = ppl::all_strategies();
  auto listed = [&](const std::string& family, const std::string& name) -> const ppl::strategy_listing* {
    for (const auto& s : all)
      if (s.family == family && s.name == name) return &s;
    return nullptr;
  };
  for (const auto& [family, name] : std::vector<std::pair<std::string, std::string>>{
           {"potential", "gather_constmem_cuda"}, {"potential", "gather_hybrid_rsqrt_cuda"}, {"spmv", "vector_cuda"}}) {
    const auto* s = listed(family, name);
    ASSERT_NE(s, nullptr) << family << " " << name;
    EXPECT_EQ(s->backends, "cuda");
    EXPECT_EQ(s->unavailable, cuda_build ? "" : "needs a CUDA build") << name;
  }
  ASSERT_NE(listed("potential", "gather_coalesced"), nullptr);
  EXPECT_EQ(listed("potential", "gather_coalesced")->unavailable, "");
  EXPECT_EQ(listed("potential", "gather_hybrid_rsqrt"), nullptr);  // renamed: the name says it is CUDA-only
  for (const auto& s : all) {
    const bool cuda_name = s.name.size() > 5 && s.name.substr(s.name.size() - 5) == "_cuda";
    EXPECT_EQ(cuda_name, s.backends == "cuda") << s.family << " " << s.name;
  }
}

// `ppl strategies --parameters` lists every family of pluggable parts -- potential strategies, SpMV strategies,
// Krylov methods, preconditioners -- and in each every registered entry with its parameter table (what
// --parameters prints; "(no parameters)" for an entry that declares none).
TEST(strategies, every_family_lists_every_entry_with_its_parameter_table) {
  const auto all = ppl::all_strategies();
  auto listed = [&](const std::string& family, const std::string& name) -> const ppl::strategy_listing* {
    for (const auto& s : all)
      if (s.family == family && s.name == name) return &s;
    return nullptr;
  };
  std::size_t entries = 0;
  auto check = [&](const std::string& family, const auto& registry) {
    EXPECT_FALSE(registry.entries().empty()) << family;
    for (const auto& e : registry.entries()) {
      const auto* s = listed(family, e.name);
      ASSERT_NE(s, nullptr) << family << " " << e.name;
      EXPECT_EQ(s->parameters, ppl::parameter_table(e.parameters)) << family << " " << e.name;
      EXPECT_EQ(s->description, e.description);
      ++entries;
    }
  };
  check("potential", ppl::potential_strategies());
  check("spmv", ppl::spmv_strategies());
  check("solver", ppl::solvers());
  check("preconditioner", ppl::preconditioners());
  EXPECT_GE(all.size(), entries);
  // The tables say what the declarations say.
  EXPECT_NE(listed("spmv", "vector")->parameters.find("| `threads_per_row` | one of 1, 2, 4, 8, 16, 32 | 8 |"),
            std::string::npos)
      << listed("spmv", "vector")->parameters;
  EXPECT_NE(listed("spmv", "stream")->parameters.find("| `rows_per_team` | auto or one of 1, 2, 4"), std::string::npos);
  EXPECT_NE(listed("solver", "gmres")->parameters.find("| `restart` | [1, 10000] | 30 |"), std::string::npos);
  EXPECT_EQ(listed("preconditioner", "jacobi")->parameters, "(no parameters)\n");
  EXPECT_EQ(listed("spmv", "scalar")->parameters, "(no parameters)\n");
}
