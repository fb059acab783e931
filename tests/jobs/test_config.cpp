// The checked config node: typed access, ranges, choices, unknown keys, overrides, and where errors point.
#include <gtest/gtest.h>

#include "ppl/jobs/config.hpp"
#include "ppl/core/error.hpp"
#include "support/ppl_test.hpp"

namespace {

template <class F>
std::string error_of(F&& f) {
  return ppl_test::error_of<ppl::input_error>(std::forward<F>(f));
}

TEST(config, typed_values_and_defaults) {
  auto c = ppl::config_node::from_string("a: 3\nb: 2.5\nc: hello\nd: [1, 2, 3]\ne: true\n", "t.yaml");
  EXPECT_EQ(c.get<int>("a"), 3);
  EXPECT_DOUBLE_EQ(c.get<double>("b"), 2.5);
  EXPECT_EQ(c.get<std::string>("c"), "hello");
  EXPECT_EQ(c.get<std::vector<int>>("d"), (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(c.get<bool>("e"));
  EXPECT_EQ(c.get<int>("missing", 7), 7);
  EXPECT_NO_THROW(c.check_all_used());
}

TEST(config, unknown_key_names_file_line_and_valid_keys) {
  auto c = ppl::config_node::from_string("job: x\nlattice:\n  spacing: 0.5\n  spcing: 1\n", "jobs/j.yaml");
  c.get<std::string>("job");
  auto l = c.child("lattice");
  l.get<double>("spacing");
  l.has("dims");
  const auto msg = error_of([&] { c.check_all_used(); });
  EXPECT_NE(msg.find("jobs/j.yaml:4:3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown key 'spcing'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("valid keys: dims, spacing"), std::string::npos) << msg;
}

TEST(config, unknown_top_level_key) {
  auto c = ppl::config_node::from_string("job: x\nfoo: 1\n", "j.yaml");
  c.get<std::string>("job");
  const auto msg = error_of([&] { c.check_all_used(); });
  EXPECT_NE(msg.find("j.yaml:2:1: unknown key 'foo'"), std::string::npos) << msg;
}

TEST(config, wrong_type_names_key_and_line) {
  auto c = ppl::config_node::from_string("job: x\nn: abc\nm: 2.5\nv: [1, x]\n", "j.yaml");
  auto msg = error_of([&] { c.get<int>("n"); });
  EXPECT_NE(msg.find("j.yaml:2:4: 'n' must be an integer, got 'abc'"), std::string::npos) << msg;
  msg = error_of([&] { c.get<int>("m"); });
  EXPECT_NE(msg.find("'m' must be an integer, got '2.5'"), std::string::npos) << msg;
  msg = error_of([&] { c.get<std::vector<double>>("v"); });
  EXPECT_NE(msg.find("'v' must be a list of numbers"), std::string::npos) << msg;
}

TEST(config, range_and_choice) {
  auto c = ppl::config_node::from_string("x: 40\ns: fast\n", "j.yaml");
  auto msg = error_of([&] { c.get_in<int>("x", 1, 1, 32); });
  EXPECT_NE(msg.find("'x' = 40 is out of range [1, 32]"), std::string::npos) << msg;
  msg = error_of([&] { c.get_choice("s", "a", {"a", "b"}); });
  EXPECT_NE(msg.find("'s' = 'fast' is not one of: a, b"), std::string::npos) << msg;
  EXPECT_EQ(c.get_in<int>("y", 5, 1, 32), 5);
}

TEST(config, missing_required_key) {
  auto c = ppl::config_node::from_string("a:\n  b: 1\n", "j.yaml");
  const auto msg = error_of([&] { c.child("a").get<int>("c"); });
  EXPECT_NE(msg.find("missing required key 'a.c'"), std::string::npos) << msg;
}

TEST(config, invalid_yaml_reports_line) {
  const auto msg = error_of([] { ppl::config_node::from_string("a: [1, 2\nb: 3\n", "bad.yaml"); });
  EXPECT_NE(msg.find("bad.yaml:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("invalid YAML"), std::string::npos) << msg;
}

TEST(config, missing_file) {
  const auto msg = error_of([] { ppl::config_node::from_file("/nonexistent/job.yaml"); });
  EXPECT_NE(msg.find("/nonexistent/job.yaml: cannot open"), std::string::npos) << msg;
}

TEST(config, overrides_set_nested_values_and_are_checked) {
  auto c = ppl::config_node::from_string("job: x\nlattice:\n  spacing: 0.5\n", "j.yaml");
  c.apply_override("lattice.spacing=0.25");
  c.apply_override("lattice.dims=[2, 3, 4]");
  c.apply_override("output.path=out.dx");
  EXPECT_DOUBLE_EQ(c.child("lattice").get<double>("spacing"), 0.25);
  EXPECT_EQ(c.child("lattice").get<std::vector<int>>("dims"), (std::vector<int>{2, 3, 4}));
  c.get<std::string>("job");
  const auto msg = error_of([&] { c.check_all_used(); });
  EXPECT_NE(msg.find("--set output: unknown key 'output'"), std::string::npos) << msg;
  EXPECT_NE(error_of([&] { c.apply_override("noequals"); }).find("expected key.path=value"), std::string::npos);
  EXPECT_NE(error_of([&] { c.apply_override("job.x=1"); }).find("'job' is not a map"), std::string::npos);
}

TEST(config, sequences_of_maps_are_checked) {
  auto c = ppl::config_node::from_string("items:\n  - {a: 1}\n  - {a: 2, b: 3}\n", "j.yaml");
  for (const auto& it : c.child("items").items()) it.get<int>("a");
  const auto msg = error_of([&] { c.check_all_used(); });
  EXPECT_NE(msg.find("unknown key 'b' in 'items[1]'"), std::string::npos) << msg;
}

}  // namespace

TEST(config, duplicate_keys_second_documents_and_misspelt_required_keys) {
  auto msg = error_of([] { ppl::config_node::from_string("a: 1\nb:\n  c: 1\n  c: 2\n", "d.yaml"); });
  EXPECT_NE(msg.find("d.yaml:4:3: duplicate key 'c' (first at line 3)"), std::string::npos) << msg;
  msg = error_of([] { ppl::config_node::from_string("a: 1\n---\na: 2\n", "two.yaml"); });
  EXPECT_NE(msg.find("two.yaml:3:1: a second YAML document"), std::string::npos) << msg;
  EXPECT_NO_THROW(ppl::config_node::from_string("a: 1\n---\n", "trailing.yaml"));
  // Stray commas made yaml-cpp 0.7's LoadAll loop forever (fuzz_job): each is an error now, at its place.
  msg = error_of([] { ppl::config_node::from_string(", 4]}\nb: 1\n", "comma.yaml"); });
  EXPECT_NE(msg.find("comma.yaml:1:1: a job file must be a YAML map"), std::string::npos) << msg;
  msg = error_of([] { ppl::config_node::from_string("a: 1\n---\n,\n", "comma2.yaml"); });
  EXPECT_NE(msg.find("comma2.yaml:3:1: invalid YAML"), std::string::npos) << msg;
  // A misspelt required key: the reader goes on with it, and the check names the typo and every valid key.
  auto c = ppl::config_node::from_string("lattice: 1\nstratgy: x\n", "m.yaml");
  EXPECT_EQ(c.get<std::string>("strategy"), "x");
  EXPECT_EQ(c.get<int>("lattice"), 1);
  EXPECT_FALSE(c.has("output"));
  msg = error_of([&] { c.check_all_used(); });
  EXPECT_NE(msg.find("m.yaml:2:1: unknown key 'stratgy': did you mean 'strategy' (required)? valid keys: lattice, "
                     "output, strategy"),
            std::string::npos)
      << msg;
  // Short keys are not guessed at.
  auto s = ppl::config_node::from_string("b: 1\n", "s.yaml");
  msg = error_of([&] { s.get<int>("c"); });
  EXPECT_NE(msg.find("missing required key 'c'"), std::string::npos) << msg;
}
