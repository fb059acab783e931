// progress_bar (include/ppl/core/progress.hpp): one line per step by default, one per tenth when sparse, nothing
// before the delay, and the redrawn terminal line ended once.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "ppl/core/progress.hpp"

namespace {

std::size_t lines(const std::string& s) {
  return std::size_t(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST(progress_bar, one_line_per_step_unless_sparse) {
  std::ostringstream every, sparse;
  ppl::progress_bar a(every, 1000, false);
  ppl::progress_bar b(sparse, 1000, false, ppl::progress_options{0.0, true});
  for (int n = 0; n < 1000; ++n) a.step("x"), b.step("x");
  EXPECT_EQ(lines(every.str()), 1000u);
  // The first step, then one line per tenth: 11 at most, never a flood.
  EXPECT_LE(lines(sparse.str()), 11u);
  EXPECT_GE(lines(sparse.str()), 10u);
  EXPECT_NE(sparse.str().find("1000/1000 100%"), std::string::npos) << sparse.str();
}

TEST(progress_bar, nothing_before_the_delay_and_update_sets_the_count) {
  std::ostringstream quiet, counted;
  ppl::progress_bar a(quiet, 10, true, ppl::progress_options{3600.0, true});
  for (int n = 0; n < 10; ++n) a.step("x");
  a.finish();
  EXPECT_EQ(quiet.str(), "");  // not even the terminal's closing newline
  ppl::progress_bar b(counted, 400, false);
  b.update(100, "points");
  b.update(400, "points");
  EXPECT_NE(counted.str().find("100/400  25%"), std::string::npos) << counted.str();
  EXPECT_NE(counted.str().find("400/400 100%"), std::string::npos) << counted.str();
}
