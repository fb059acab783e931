// Parboil cutcp compatibility: the writer of Parboil's output file (output.parboil_cutcp), and the job
// configs/compat/parboil_cutcp_watbox.yaml run with every cutoff strategy of this build against Parboil's own
// reference output (data/molecules/watbox.sl40.cutcp-lattice.dat.gz).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/io/parboil_cutcp.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "support/ppl_test.hpp"

namespace {

std::string little_endian_u32(std::uint32_t u) {
  std::string s(4, '\0');
  for (int k = 0; k < 4; ++k) s[std::size_t(k)] = char((u >> (8 * k)) & 0xff);
  return s;
}

TEST(parboil_cutcp_output, layout_and_round_trip) {
  ppl_test::temp_dir t;
  const std::array<int, 3> dims{3, 2, 4};
  std::vector<float> v(24);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = (i % 2 ? -0.25f : 0.5f) * float(i + 1);
  ppl::write_parboil_cutcp(t.file("p.dat"), dims, v.data());
  const std::string bytes = ppl_test::read_file(t.file("p.dat"));
  ASSERT_EQ(bytes.size(), 8u + 2u * 6u * 4u);
  EXPECT_EQ(bytes.substr(4, 4), little_endian_u32(6));  // nx * ny
  double abs_sum = 0;
  for (float x : v) abs_sum += std::abs(double(x));
  EXPECT_EQ(bytes.substr(0, 4), little_endian_u32([&] {
              const float f = float(abs_sum);
              std::uint32_t u;
              std::memcpy(&u, &f, 4);
              return u;
            }()));
  const auto f = ppl::parse_parboil_cutcp(bytes, "p.dat");
  EXPECT_FLOAT_EQ(f.abs_sum, float(abs_sum));
  EXPECT_EQ(f.plane_points, 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(f.first[i], v[i]) << i;      // k = 0
    EXPECT_EQ(f.last[i], v[18 + i]) << i;  // k = 3
  }
  // One plane: written twice.
  ppl::write_parboil_cutcp(t.file("one.dat"), {3, 2, 1}, v.data());
  const auto one = ppl::parse_parboil_cutcp(ppl_test::read_file(t.file("one.dat")), "one.dat");
  EXPECT_EQ(one.first, one.last);
  EXPECT_EQ(one.first, std::vector<float>(v.begin(), v.begin() + 6));
}

TEST(parboil_cutcp_output, refuses_bad_values_and_files) {
  ppl_test::temp_dir t;
  std::vector<float> v(8, 1.0f);
  v[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(ppl::write_parboil_cutcp(t.file("nan.dat"), {2, 2, 2}, v.data()), ppl::error);
  EXPECT_FALSE(std::filesystem::exists(t.file("nan.dat")));  // nothing half-written
  EXPECT_THROW(ppl::write_parboil_cutcp(t.file("empty.dat"), {0, 2, 2}, v.data()), ppl::error);
  const std::string good = std::string(4, '\0') + little_endian_u32(2) + std::string(16, '\0');
  EXPECT_NO_THROW(ppl::parse_parboil_cutcp(good, "good"));
  const auto msg = ppl_test::error_of<ppl::input_error>([&] { ppl::parse_parboil_cutcp(good + "x", "f.dat"); });
  EXPECT_NE(msg.find("f.dat: a Parboil cutcp output with nx * ny = 2 has 24 bytes, not 25"), std::string::npos) << msg;
  EXPECT_THROW(ppl::parse_parboil_cutcp("abc", "short"), ppl::input_error);
}

// The runnable strategies that compute cutoff maps: cutoff_reference and whatever else this build registers, except
// the all-pairs `reference` (3.3e9 pairs here, half a minute on one thread; it is the oracle cutoff_reference is
// checked against in test_cutoff_reference.cpp, and test_lattice.cpp checks Parboil's planes with a float64 loop).
std::vector<std::string> cutoff_strategies() {
  std::vector<std::string> out;
  for (const auto& e : ppl::potential_strategies().entries())
    if (e.available() && e.can("cutoff") && e.name != "reference") out.push_back(e.name);
  return out;
}

std::string printable(const ::testing::TestParamInfo<std::string>& p) {
  return p.param;
}

class ParboilCompat : public ::testing::TestWithParam<std::string> {};

// The job file as committed (its input resolved relative to the file, its outputs relative to the current folder,
// here a temporary one), only the strategy set. Parboil sums in float32: sum |V| within 1e-5 relative, every value
// of both planes within 1e-4 of the largest |V|; the points zeroed by the 1 A exclusion must be the same.
TEST_P(ParboilCompat, WatboxMatchesParboilsReferenceOutput) {
  const std::string job_file = (std::filesystem::path(ppl_test::data_path("README.md")).parent_path().parent_path() /
                                "configs" / "compat" / "parboil_cutcp_watbox.yaml")
                                   .string();
  ppl_test::temp_dir t;
  std::string progress;
  {
    ppl_test::scoped_cwd cwd(t.path);
    auto j = ppl::load_job(job_file, {"strategy=" + GetParam()});
    std::ostringstream out;
    ppl::job_context ctx{out};
    ASSERT_EQ(j->run(ctx), 0) << out.str();
    progress = out.str();
  }
  const auto ours = ppl::parse_parboil_cutcp(ppl_test::read_file(t.file("watbox_cutcp.dat")), "ours");
  const auto ref = ppl::parse_parboil_cutcp(
      ppl_test::read_file(ppl_test::data_path("molecules/watbox.sl40.cutcp-lattice.dat.gz")), "reference");
  ASSERT_EQ(ours.plane_points, ref.plane_points);
  ASSERT_EQ(ref.plane_points, 82u * 82u);
  EXPECT_NEAR(ours.abs_sum, ref.abs_sum, 1e-5 * ref.abs_sum) << progress;
  double max_ref = 0;
  for (const auto* plane : {&ref.first, &ref.last})
    for (float v : *plane) max_ref = std::max(max_ref, double(std::abs(v)));
  ASSERT_GT(max_ref, 0.1);
  double worst = 0;
  std::size_t zeros_ours = 0, zeros_ref = 0;
  for (const auto& [a, b] : {std::pair{&ours.first, &ref.first}, {&ours.last, &ref.last}})
    for (std::size_t i = 0; i < a->size(); ++i) {
      worst = std::max(worst, double(std::abs((*a)[i] - (*b)[i])));
      zeros_ours += (*a)[i] == 0.0f;
      zeros_ref += (*b)[i] == 0.0f;
    }
  EXPECT_LE(worst, 1e-4 * max_ref) << "max |V| " << max_ref;
  EXPECT_EQ(zeros_ours, zeros_ref);
  EXPECT_GT(zeros_ref, 0u);
}

INSTANTIATE_TEST_SUITE_P(Registry, ParboilCompat, ::testing::ValuesIn(cutoff_strategies()), printable);

TEST(ParboilCompatRegistry, CoversTheCutoffReference) {
  const auto names = cutoff_strategies();
  EXPECT_NE(std::find(names.begin(), names.end(), "cutoff_reference"), names.end());
}

}  // namespace
