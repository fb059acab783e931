// The checked config node: typed access, ranges, choices, unknown keys, overrides, and where errors point.
#include <gtest/gtest.h>

#include <filesystem>

#include "ppl/core/error.hpp"
#include "ppl/core/text.hpp"
#include "ppl/jobs/config.hpp"
#include "ppl/jobs/config_helpers.hpp"
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

TEST(config, suggestions_for_misspelt_keys_and_values) {
  EXPECT_EQ(ppl::closest_match("neutralise", {"counts", "neutralize", "salt_molar"}), "neutralize");
  EXPECT_EQ(ppl::closest_match("pqrr", {"pqr", "random", "water_box"}), "pqr");
  EXPECT_EQ(ppl::closest_match("generater", {"file", "generator"}), "generator");
  EXPECT_EQ(ppl::closest_match("jbo", {"job"}), "job");  // short: swapped letters only
  EXPECT_EQ(ppl::closest_match("pdb", {"pqr"}), "");     // ... not a substitution
  EXPECT_EQ(ppl::closest_match("xyz", {"pqr", "random"}), "");
  EXPECT_EQ(ppl::closest_match("spacing", {"spacing"}), "");                         // no suggestion for a valid name
  EXPECT_EQ(ppl::closest_match("gathr", {"gather", "gather_coarsened"}), "gather");  // the closest, not the first
  // An unknown optional key: the closest valid key is suggested.
  auto c = ppl::config_node::from_string("job: x\nphysics: {permitivity: 2}\n", "j.yaml");
  c.get<std::string>("job");
  c.child("physics").has("permittivity");
  c.child("physics").has("units");
  auto msg = error_of([&] { c.check_all_used(); });
  EXPECT_NE(msg.find("j.yaml:2:11: unknown key 'permitivity' in 'physics': did you mean 'permittivity'? valid keys: "
                     "permittivity, units"),
            std::string::npos)
      << msg;
  // A misspelt value of a choice.
  auto v = ppl::config_node::from_string("units: kT_per_ee\n", "j.yaml");
  msg = error_of([&] { v.get_choice("units", "a", {"e_per_angstrom", "kT_per_e"}); });
  EXPECT_NE(msg.find("is not one of: e_per_angstrom, kT_per_e: did you mean 'kT_per_e'?"), std::string::npos) << msg;
}

TEST(config, a_misspelt_alternative_is_a_typo_at_its_place) {
  auto c = ppl::config_node::from_string("job: x\ninput:\n  pqrr: a.pqr\n", "j.yaml");
  auto msg = error_of([&] { ppl::exactly_one_of(c.child("input"), {"pqr", "random", "water_box"}); });
  EXPECT_NE(msg.find("j.yaml:3:3: unknown key 'pqrr' in 'input': did you mean 'pqr'?"), std::string::npos) << msg;
  // Nothing close: the section's own error.
  auto d = ppl::config_node::from_string("job: x\ninput:\n  pdb: a.pdb\n", "j.yaml");
  msg = error_of([&] { ppl::exactly_one_of(d.child("input"), {"pqr", "random", "water_box"}); });
  EXPECT_NE(msg.find("'input' needs exactly one of: pqr, random, water_box (0 given)"), std::string::npos) << msg;
}

TEST(config, set_errors_name_the_override_and_refuse_what_the_file_refuses) {
  auto fresh = [] { return ppl::config_node::from_string("job: x\nlattice: {spacing: 0.5}\n", "job.yaml"); };
  // An error inside a value names the override, not the job file's line 1.
  auto c = fresh();
  c.apply_override("input={random: {atoms: abc}}");
  auto msg = error_of([&] { c.child("input").child("random").get<int>("atoms"); });
  EXPECT_EQ(msg.rfind("--set input: 'input.random.atoms' must be an integer", 0), 0u) << msg;
  c.child("input").child("random").has("seed");
  c.get<std::string>("job");
  c.child("lattice").has("spacing");
  c.apply_override("input.random.extra=1");
  msg = error_of([&] { c.check_all_used(); });
  EXPECT_EQ(msg.rfind("--set input.random.extra: unknown key 'extra'", 0), 0u) << msg;
  // Errors about the assignment name its key.
  msg = error_of([&] { fresh().apply_override("lattice.dims=[1,2"); });
  EXPECT_EQ(msg.rfind("--set lattice.dims: invalid YAML value", 0), 0u) << msg;
  msg = error_of([&] { fresh().apply_override("lattice.spacing.x=1"); });
  EXPECT_EQ(msg.rfind("--set lattice.spacing.x: 'lattice.spacing' is not a map", 0), 0u) << msg;
  // Duplicate keys, a second document, a recursive alias and an alias bomb inside a value.
  msg = error_of([&] { fresh().apply_override("lattice={dims: [4, 4, 4], dims: [8, 8, 8]}"); });
  EXPECT_EQ(msg, "--set lattice: duplicate key 'dims'") << msg;
  msg = error_of([&] { fresh().apply_override("lattice.dims=[4, 4, 4]\n---\n[8, 8, 8]"); });
  EXPECT_EQ(msg.rfind("--set lattice.dims: a second YAML document", 0), 0u) << msg;
  msg = error_of([&] { fresh().apply_override("output=&a {x: *a}"); });
  EXPECT_EQ(msg.rfind("--set output: a recursive alias", 0), 0u) << msg;
  std::string bomb = "[1,1,1,1,1,1,1,1,1,1]";
  for (char a = 'a'; a < 'h'; ++a) {
    std::string level = "[";
    for (int i = 0; i < 10; ++i) level += std::string(i ? "," : "") + "*" + a;
    bomb = "[&" + std::string(1, a) + " " + bomb + ", " + level + "]]";
  }
  msg = error_of([&] { fresh().apply_override("output=" + bomb); });
  EXPECT_EQ(msg.rfind("--set output: more than 100000 YAML nodes", 0), 0u) << msg;
  // A file-line error of an unrelated key still names the file.
  auto d = fresh();
  d.apply_override("lattice.dims=[4, 4, 4]");
  msg = error_of([&] { d.child("lattice").get<int>("spacing"); });
  EXPECT_EQ(msg.rfind("job.yaml:2:", 0), 0u) << msg;
}

TEST(config, set_paths_are_relative_to_the_current_folder_and_file_paths_to_the_file) {
  ppl_test::temp_dir dir;
  std::filesystem::create_directories(dir.path / "sub");
  dir.write("sub/in.pqr", "x\n");
  dir.write("in.pqr", "y\n");
  const auto job = dir.write("sub/job.yaml", "input: {pqr: in.pqr}\n");
  ppl_test::scoped_cwd cwd(dir.path);
  {
    auto c = ppl::config_node::from_file("sub/job.yaml");
    EXPECT_EQ(c.child("input").input_file("pqr"), "sub/in.pqr");
    EXPECT_EQ(c.child("input").folder_of("pqr"), "sub");
  }
  {
    auto c = ppl::config_node::from_file("sub/job.yaml");
    c.apply_override("input.pqr=in.pqr");
    EXPECT_EQ(c.child("input").input_file("pqr"), "in.pqr");
    auto copy = c.copy();  // replayed with the same rule
    EXPECT_EQ(copy.child("input").input_file("pqr"), "in.pqr");
  }
  {
    auto c = ppl::config_node::from_file("sub/job.yaml");
    c.apply_override("input={pqr: in.pqr}");  // inside a map set whole
    EXPECT_EQ(c.child("input").input_file("pqr"), "in.pqr");
  }
  {
    auto c = ppl::config_node::from_file("sub/job.yaml");
    c.apply_override("input.pqr=in.pqr", "sweep.yaml:3:3: vary 'input.pqr'", std::string("sub"));
    EXPECT_EQ(c.child("input").input_file("pqr"), "sub/in.pqr");
  }
  (void)job;
}
