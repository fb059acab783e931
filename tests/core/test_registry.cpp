#include <gtest/gtest.h>

#include <functional>

#include "ppl/core/registry.hpp"
#include "support/ppl_test.hpp"

namespace {

using widget_registry = ppl::registry<std::function<int()>>;
using ppl::build_requirement;

std::function<int()> returns(int v) {
  return [v] { return v; };
}

using ppl_test::cuda_build;

}  // namespace

TEST(registry, duplicate_names_throw_and_unknown_lists_available) {
  widget_registry r("widget");
  r.add({"a", "first", "all", returns(1)});
  r.add({"b", "second", "all", returns(2)});
  EXPECT_THROW(r.add({"a", "again", "all", returns(3)}), ppl::error);
  EXPECT_EQ(r.get("b", "here").factory(), 2);
  const auto msg = ppl_test::error_of<ppl::input_error>([&] { r.get("c", "j.yaml:3:5"); });
  EXPECT_EQ(msg, "j.yaml:3:5: unknown widget 'c'; available in this build: a, b");
}

// A CUDA-only entry is registered in every build; without CUDA it has no factory, is listed but not runnable, and
// asking for it names the build that has it.
TEST(registry, cuda_only_entries_stay_registered_and_name_the_build_they_need) {
  widget_registry r("widget");
  r.add({"a", "first", "all", returns(1)});
  r.add({"fast_cuda", "second", "cuda", PPL_CUDA_ONLY(returns(2)), build_requirement::cuda});
  ASSERT_NE(r.lookup("fast_cuda"), nullptr);
  EXPECT_EQ(r.entries().size(), 2u);
  EXPECT_EQ(r.lookup("fast_cuda")->available(), cuda_build);
  if (cuda_build) {
    EXPECT_EQ(r.get("fast_cuda", "here").factory(), 2);
    EXPECT_EQ(r.names(), (std::vector<std::string>{"a", "fast_cuda"}));
  } else {
    EXPECT_EQ(r.find("fast_cuda"), nullptr);
    EXPECT_EQ(r.names(), (std::vector<std::string>{"a"}));
    const auto msg = ppl_test::error_of<ppl::input_error>([&] { r.get("fast_cuda", "j.yaml:2:11: strategy"); });
    EXPECT_EQ(msg, "j.yaml:2:11: strategy: widget 'fast_cuda' needs a CUDA build (this build: " +
                       ppl::build_backends_text() + ")");
    EXPECT_EQ(ppl::build_backends_text(), "OpenMP, Serial");
  }
}

// One naming rule: an entry needs CUDA exactly when its name ends in _cuda and its backends are "cuda"; an entry
// with a factory in a build that cannot run it, or without one where it could run, is a programming error.
TEST(registry, the_cuda_naming_rule_and_factory_presence_are_enforced) {
  widget_registry r("widget");
  EXPECT_THROW(
      r.add({"fast", "needs cuda, name does not say so", "cuda", PPL_CUDA_ONLY(returns(1)), build_requirement::cuda}),
      ppl::error);
  EXPECT_THROW(r.add({"plain_cuda", "name says cuda, entry does not", "all", returns(1)}), ppl::error);
  EXPECT_THROW(r.add({"odd_cuda", "backends disagree", "all", PPL_CUDA_ONLY(returns(1)), build_requirement::cuda}),
               ppl::error);
  EXPECT_THROW(r.add({"a", "no factory", "all", nullptr}), ppl::error);
  if (!cuda_build) {
    EXPECT_THROW(r.add({"x_cuda", "factory without CUDA", "cuda", returns(1), build_requirement::cuda}), ppl::error);
  }
  EXPECT_TRUE(r.entries().empty());
}

// Host-SIMD entries: the same rule for _avx2 (backends "host"), and a factory only in an x86-64 host build on a CPU
// with AVX2 and FMA; elsewhere the entry is listed, and asking for it says what it needs.
TEST(registry, the_avx2_naming_rule_and_the_cpu_check) {
#if defined(PPL_HAS_X86_SIMD)
  const bool runnable = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  const bool runnable = false;
#endif
  widget_registry r("widget");
  r.add({"fast_avx2", "simd", "host", PPL_AVX2_ONLY(returns(3)), build_requirement::avx2});
  EXPECT_EQ(r.lookup("fast_avx2")->available(), runnable);
  if (runnable) {
    EXPECT_EQ(r.get("fast_avx2", "here").factory(), 3);
  } else {
    const auto msg = ppl_test::error_of<ppl::input_error>([&] { r.get("fast_avx2", "j.yaml:4:3: strategy"); });
    EXPECT_EQ(msg,
              "j.yaml:4:3: strategy: widget 'fast_avx2' needs a host (OpenMP or Serial) build on an x86-64 CPU "
              "with AVX2 and FMA (this build: " +
                  ppl::build_backends_text() + ")");
  }
  EXPECT_THROW(
      r.add({"simd", "needs avx2, name does not say so", "host", PPL_AVX2_ONLY(returns(1)), build_requirement::avx2}),
      ppl::error);
  EXPECT_THROW(r.add({"plain_avx2", "name says avx2, entry does not", "host", returns(1)}), ppl::error);
  EXPECT_THROW(r.add({"odd_avx2", "backends disagree", "all", PPL_AVX2_ONLY(returns(1)), build_requirement::avx2}),
               ppl::error);
  EXPECT_EQ(r.entries().size(), 1u);
}
