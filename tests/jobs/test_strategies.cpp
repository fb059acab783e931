// The composition point: the job registry and `ppl strategies`' listing of every family (src/jobs/strategies.cpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "ppl/jobs/job.hpp"
#include "ppl/jobs/strategies.hpp"
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
