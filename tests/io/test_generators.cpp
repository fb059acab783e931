// Synthetic atoms: the uniform random box (PMPP's scenario) and the TIP3-like water box.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "ppl/io/atoms.hpp"

namespace {

double sum(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}
double dist(const ppl::atoms& a, std::size_t i, std::size_t j) {
  return std::sqrt((a.x[i] - a.x[j]) * (a.x[i] - a.x[j]) + (a.y[i] - a.y[j]) * (a.y[i] - a.y[j]) +
                   (a.z[i] - a.z[j]) * (a.z[i] - a.z[j]));
}

}  // namespace

TEST(random_atoms, count_ranges_and_uniformity) {
  const double lo[3] = {0, 0, 0}, hi[3] = {50, 50, 25};
  const auto a = ppl::random_atoms(10000, lo, hi, -2.0, 2.0, 42);
  ASSERT_EQ(a.size(), 10000u);
  const std::vector<double>* c[3] = {&a.x, &a.y, &a.z};
  for (int d = 0; d < 3; ++d) {
    const auto mm = std::minmax_element(c[d]->begin(), c[d]->end());
    EXPECT_GE(*mm.first, lo[d]);
    EXPECT_LT(*mm.second, hi[d]);
    // Uniform on [lo, hi]: the mean is within 4 standard errors of the centre, the range nearly covered.
    const double mean = sum(*c[d]) / 1e4, se = (hi[d] - lo[d]) / std::sqrt(12.0 * 1e4);
    EXPECT_NEAR(mean, 0.5 * (lo[d] + hi[d]), 4 * se) << "axis " << d;
    EXPECT_LT(*mm.first, lo[d] + 0.01 * (hi[d] - lo[d]));
    EXPECT_GT(*mm.second, hi[d] - 0.01 * (hi[d] - lo[d]));
  }
  const auto q = std::minmax_element(a.q.begin(), a.q.end());
  EXPECT_GE(*q.first, -2.0);
  EXPECT_LT(*q.second, 2.0);
  EXPECT_NEAR(sum(a.q) / 1e4, 0.0, 4 * 4.0 / std::sqrt(12.0 * 1e4));
  for (double r : a.radius) ASSERT_EQ(r, 0.0);
}

TEST(random_atoms, deterministic_for_a_seed_and_different_for_another) {
  const double lo[3] = {-5, 1, 2}, hi[3] = {5, 2, 40};
  const auto a = ppl::random_atoms(1000, lo, hi, -1.0, 0.5, 7);
  const auto b = ppl::random_atoms(1000, lo, hi, -1.0, 0.5, 7);
  const auto c = ppl::random_atoms(1000, lo, hi, -1.0, 0.5, 8);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.y, b.y);
  EXPECT_EQ(a.z, b.z);
  EXPECT_EQ(a.q, b.q);
  EXPECT_NE(a.x, c.x);
  EXPECT_NE(a.q, c.q);
  // A prefix of a longer sequence: the generator draws x, y, z, q per atom in order.
  const auto longer = ppl::random_atoms(1500, lo, hi, -1.0, 0.5, 7);
  EXPECT_TRUE(std::equal(a.x.begin(), a.x.end(), longer.x.begin()));
}

TEST(random_atoms, zero_atoms) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  EXPECT_EQ(ppl::random_atoms(0, lo, hi, 0, 0, 1).size(), 0u);
}

class water_box_sizes : public ::testing::TestWithParam<std::array<double, 3>> {};

TEST_P(water_box_sizes, tip3_geometry_density_charge_and_no_overlap) {
  const auto s = GetParam();
  const auto w = ppl::water_box(s[0], s[1], s[2], 3);
  const double volume = s[0] * s[1] * s[2];
  ASSERT_EQ(w.size() % 3, 0u);
  EXPECT_EQ(w.size() / 3, std::size_t(std::llround(volume / 30.0)));  // 0.1 atoms / A^3
  EXPECT_NEAR(sum(w.q), 0.0, 1e-9 * double(w.size()));
  for (std::size_t m = 0; m < w.size(); m += 3) {
    ASSERT_DOUBLE_EQ(w.q[m], -0.834);
    ASSERT_DOUBLE_EQ(w.q[m + 1], 0.417);
    ASSERT_DOUBLE_EQ(w.q[m + 2], 0.417);
    ASSERT_NEAR(dist(w, m, m + 1), 0.9572, 1e-12);
    ASSERT_NEAR(dist(w, m, m + 2), 0.9572, 1e-12);
    // H-O-H angle from the law of cosines.
    const double hh = dist(w, m + 1, m + 2), cosang = 1 - hh * hh / (2 * 0.9572 * 0.9572);
    ASSERT_NEAR(std::acos(cosang) * 180.0 / M_PI, 104.52, 1e-9);
  }
  for (std::size_t i = 0; i < w.size(); ++i) {
    ASSERT_GE(w.x[i], 0.0);
    ASSERT_LE(w.x[i], s[0]);
    ASSERT_GE(w.y[i], 0.0);
    ASSERT_LE(w.y[i], s[1]);
    ASSERT_GE(w.z[i], 0.0);
    ASSERT_LE(w.z[i], s[2]);
  }
  // No two atoms of different molecules closer than 1.2 A (brute force).
  double closest = 1e9;
  for (std::size_t i = 0; i < w.size(); ++i)
    for (std::size_t j = (i / 3 + 1) * 3; j < w.size(); ++j) closest = std::min(closest, dist(w, i, j));
  if (w.size() > 3) {
    EXPECT_GE(closest, 1.2);
  }
}

INSTANTIATE_TEST_SUITE_P(water, water_box_sizes,
                         ::testing::Values(std::array<double, 3>{20, 20, 20}, std::array<double, 3>{31, 17.5, 9.5},
                                           std::array<double, 3>{6, 40, 12}, std::array<double, 3>{3.5, 3.5, 3.5}));

TEST(water_box, deterministic_for_a_seed_and_random_orientations) {
  const auto a = ppl::water_box(15, 15, 15, 11), b = ppl::water_box(15, 15, 15, 11), c = ppl::water_box(15, 15, 15, 12);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.z, b.z);
  EXPECT_NE(a.x, c.x);
  // Random orientations: the mean O->H direction over many molecules is near zero, each axis.
  double mean[3] = {0, 0, 0};
  const auto w = ppl::water_box(40, 40, 40, 5);
  const std::size_t molecules = w.size() / 3;
  for (std::size_t m = 0; m < w.size(); m += 3) {
    mean[0] += (w.x[m + 1] - w.x[m]) / 0.9572;
    mean[1] += (w.y[m + 1] - w.y[m]) / 0.9572;
    mean[2] += (w.z[m + 1] - w.z[m]) / 0.9572;
  }
  for (double& v : mean) EXPECT_NEAR(v / double(molecules), 0.0, 4.0 / std::sqrt(3.0 * double(molecules)));
}

// Golden values: "same seed, same atoms on every platform" (docs/config.md). The generators use only
// mt19937_64 and correctly rounded arithmetic (src/io/atoms.cpp), so these bits must come out everywhere.
namespace {

// FNV-1a over the bit patterns of every coordinate and charge, atom by atom.
std::uint64_t checksum(const ppl::atoms& a) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (double v : {a.x[i], a.y[i], a.z[i], a.q[i]}) {
      std::uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      for (int b = 0; b < 8; ++b) h = (h ^ ((bits >> (8 * b)) & 0xff)) * 0x100000001b3ULL;
    }
  return h;
}

}  // namespace

TEST(generators, golden_values_random_atoms) {
  const double lo[3] = {0, 0, 0}, hi[3] = {50, 50, 25};
  const auto a = ppl::random_atoms(10000, lo, hi, -2.0, 2.0, 42);  // PMPP's scenario, the job's default seed
  ASSERT_EQ(a.size(), 10000u);
  EXPECT_EQ(a.x[0], 0x1.2e0fed33fd473p+5);
  EXPECT_EQ(a.y[0], 0x1.ff39a1246293ap+4);
  EXPECT_EQ(a.z[0], 0x1.2cdbab268673ap+4);
  EXPECT_EQ(a.q[0], -0x1.7474ef01d794cp+0);
  EXPECT_EQ(a.x[1], 0x1.694ebdfe58a48p+5);
  EXPECT_EQ(a.q[1], -0x1.0453742e0a424p-1);
  EXPECT_EQ(a.x[9999], 0x1.f766d3bb10602p+3);
  EXPECT_EQ(a.z[9999], 0x1.02debbdd37287p+4);
  EXPECT_EQ(a.q[9999], 0x1.92d5277cac938p-2);
  EXPECT_EQ(checksum(a), 0x16df8ed66938777bULL);
  // A box not at the origin: lo + (hi - lo) * u changes in the last bit wherever a compiler fuses it into an FMA.
  const double lo2[3] = {-5, 1, 2}, hi2[3] = {5, 2, 40};
  EXPECT_EQ(checksum(ppl::random_atoms(1000, lo2, hi2, -1.0, 0.5, 7)), 0x98d8c47e443ba69cULL);
}

TEST(generators, golden_values_water_box) {
  const auto w = ppl::water_box(20, 20, 20, 1);
  ASSERT_EQ(w.size(), 801u);
  EXPECT_EQ(w.x[0], 0x1.cbe950c0ee29bp+2);
  EXPECT_EQ(w.y[0], 0x1.9aa1410995a96p+0);
  EXPECT_EQ(w.z[0], 0x1.aa6e8571f378ap+0);
  EXPECT_EQ(w.q[0], -0.834);
  EXPECT_EQ(w.x[1], 0x1.ca6632ef2901cp+2);
  EXPECT_EQ(w.z[1], 0x1.4e125ee1544bep+1);
  EXPECT_EQ(w.q[1], 0.417);
  EXPECT_EQ(w.x[800], 0x1.2ff5b89089fcp+4);
  EXPECT_EQ(w.y[800], 0x1.273eed73fae0ap+4);
  EXPECT_EQ(w.z[800], 0x1.1c85ab0585221p+4);
  EXPECT_EQ(checksum(w), 0x90759afb35c560b8ULL);
}
