#include <gtest/gtest.h>

#include "ppl/core/registry.hpp"
#include "ppl/jobs/job.hpp"

TEST(registry, duplicate_names_throw_and_unknown_lists_available) {
  ppl::registry<int> r("widget");
  r.add({"a", "first", "all", 1});
  r.add({"b", "second", "all", 2});
  EXPECT_THROW(r.add({"a", "again", "all", 3}), ppl::error);
  EXPECT_EQ(r.get("b", "here").factory, 2);
  try {
    r.get("c", "j.yaml:3:5");
    FAIL() << "no error";
  } catch (const ppl::input_error& e) {
    EXPECT_STREQ(e.what(), "j.yaml:3:5: unknown widget 'c'; available in this build: a, b");
  }
}

TEST(registry, job_kinds_include_info) { EXPECT_NE(ppl::job_kinds().find("info"), nullptr); }
