// The shared job config readers (ppl/jobs/config_helpers.hpp): each error names file:line:col and the dotted key.
#include <gtest/gtest.h>

#include "ppl/jobs/config.hpp"
#include "ppl/core/error.hpp"
#include "ppl/jobs/config_helpers.hpp"
#include "support/ppl_test.hpp"

namespace {

template <class F>
std::string error_of(F&& f) {
  return ppl_test::error_of<ppl::input_error>(std::forward<F>(f));
}

ppl::config_node parse(const std::string& text) {
  return ppl::config_node::from_string(text, "j.yaml");
}

TEST(config_helpers, optional_map_is_absent_or_a_map) {
  auto c = parse("a: {x: 1}\nb: 3\nc: [1, 2]\nd:\n");
  const auto a = ppl::optional_map(c, "a");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->get<int>("x"), 1);
  EXPECT_FALSE(ppl::optional_map(c, "missing").has_value());
  EXPECT_FALSE(ppl::optional_map(c, "d").has_value());  // null: as if absent
  EXPECT_EQ(error_of([&] { ppl::optional_map(c, "b"); }), "j.yaml:2:4: 'b' must be a map");
  EXPECT_EQ(error_of([&] { ppl::optional_map(c, "c"); }), "j.yaml:3:4: 'c' must be a map");
  // Nested sections name their dotted path.
  auto n = parse("outer:\n  inner: 0.5\n");
  EXPECT_EQ(error_of([&] { ppl::optional_map(*ppl::optional_map(n, "outer"), "inner"); }),
            "j.yaml:2:10: 'outer.inner' must be a map");
}

TEST(config_helpers, exactly_one_of_returns_the_alternative_given) {
  auto c = parse("in: {b: 1}\n");
  const auto in = c.child("in");
  EXPECT_EQ(ppl::exactly_one_of(in, {"a", "b", "c"}), "b");
  in.get<int>("b");
  EXPECT_NO_THROW(c.check_all_used());  // every alternative is a valid key
  auto two = parse("in: {a: 1, c: 2}\n");
  EXPECT_EQ(error_of([&] {
              ppl::exactly_one_of(two.child("in"), {"a", "b", "c"});
            }),
            "j.yaml:1:5: 'in' needs exactly one of: a, b, c (2 given)");
  auto none = parse("in: {}\n");
  EXPECT_EQ(error_of([&] {
              ppl::exactly_one_of(none.child("in"), {"a", "b"});
            }),
            "j.yaml:1:5: 'in' needs exactly one of: a, b (0 given)");
  auto scalar = parse("in: 4\n");
  EXPECT_EQ(error_of([&] {
              ppl::exactly_one_of(scalar.child("in"), {"a", "b"});
            }),
            "j.yaml:1:5: 'in' must be a map with one of: a, b");
}

TEST(config_helpers, fixed_number_list_checks_length_finiteness_and_range) {
  auto c = parse(
      "s:\n  ok: [1, -2.5, 3]\n  short: [1, 2]\n  big: [0, 2e6, 0]\n  inf: [0, .inf, 0]\n  "
      "nan: [.nan, 0, 0]\n  word: [1, x, 2]\n");
  const auto s = c.child("s");
  EXPECT_EQ(ppl::fixed_number_list(s, "ok", 3, 1e6), (std::vector<double>{1, -2.5, 3}));
  EXPECT_EQ(ppl::fixed_number_list(s, "absent", 2, 1e6, {4, 5}), (std::vector<double>{4, 5}));
  EXPECT_EQ(error_of([&] { ppl::fixed_number_list(s, "absent", 2, 1e6); }),
            "j.yaml:2:3: missing required key 's.absent'");
  EXPECT_EQ(error_of([&] { ppl::fixed_number_list(s, "short", 3, 1e6); }), "j.yaml:3:3: 's.short' must have 3 numbers");
  EXPECT_EQ(error_of([&] { ppl::fixed_number_list(s, "big", 3, 1e6); }),
            "j.yaml:4:3: 's.big' values must be finite and within +-1e6");
  EXPECT_EQ(error_of([&] { ppl::fixed_number_list(s, "inf", 3, 1e6); }),
            "j.yaml:5:3: 's.inf' values must be finite and within +-1e6");
  EXPECT_EQ(error_of([&] { ppl::fixed_number_list(s, "nan", 3, 2000); }),
            "j.yaml:6:3: 's.nan' values must be finite and within +-2000");
  EXPECT_EQ(error_of([&] { ppl::fixed_number_list(s, "big", 3, 0.5); }),
            "j.yaml:4:3: 's.big' values must be finite and within +-0.5");
  EXPECT_NE(error_of([&] { ppl::fixed_number_list(s, "word", 3, 1e6); }).find("'s.word' must be a list of numbers"),
            std::string::npos);
}

TEST(config_helpers, optional_output_file_is_checked_only_when_given) {
  ppl_test::temp_dir dir;
  ppl_test::scoped_cwd cwd(dir.path);
  auto c = parse("out: {a: a.txt, b: a.txt}\n");
  const auto out = c.child("out");
  EXPECT_FALSE(ppl::optional_output_file(out, "none").has_value());
  EXPECT_EQ(ppl::optional_output_file(out, "a"), "a.txt");
  EXPECT_EQ(error_of([&] { ppl::optional_output_file(out, "b"); }),
            "j.yaml:1:17: 'out.b' would overwrite another output 'a.txt' (out.a)");
}

TEST(config_helpers, prefix_input_errors_adds_the_context_and_passes_results) {
  EXPECT_EQ(ppl::prefix_input_errors("ctx", [] { return 7; }), 7);
  EXPECT_EQ(error_of([] {
              ppl::prefix_input_errors("j.yaml:2:9: input.pqr", [] { throw ppl::input_error("a.pqr:3: bad"); });
            }),
            "j.yaml:2:9: input.pqr: a.pqr:3: bad");
  // Other errors pass unchanged.
  try {
    ppl::prefix_input_errors("ctx", [] { throw ppl::error(ppl::exit_code::failure, "io"); });
    FAIL() << "no exception";
  } catch (const ppl::input_error&) {
    FAIL() << "became an input error";
  } catch (const ppl::error& e) {
    EXPECT_STREQ(e.what(), "io");
  }
}

}  // namespace
