// make_bin_grid and bin_grid's device functions: the alignment and coverage rules, periodic bins and wrapping, the
// input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "ppl/core/error.hpp"
#include "ppl/spatial/bin_grid.hpp"
#include "support/ppl_test.hpp"

namespace {

using ppl::spatial::bin_grid;
using ppl::spatial::make_bin_grid;

ppl::lattice make_lattice(double h, int nx, int ny, int nz) {
  ppl::lattice g;
  g.origin = {-4.0, 100.0, 0.5};
  g.spacing = h;
  g.dims = {nx, ny, nz};
  return g;
}

TEST(bin_grid, nonperiodic_alignment_and_coverage) {
  const auto g = make_lattice(0.5, 20, 13, 9);  // extents 9.5, 6, 4 A
  const bin_grid b = make_bin_grid(g, 4.0, 6.0, false);
  EXPECT_FALSE(b.periodic);
  // halo = ceil(6 / 4) = 2: bin (2, 2, 2) starts at the lattice origin.
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(b.edge[d], 4.0f);
    EXPECT_EQ(b.origin[d], -8.0f);
    EXPECT_EQ(b.origin[d] + 2 * b.edge[d], 0.0f);
  }
  // dims = halo + floor((extent + radius) / edge) + 1.
  EXPECT_EQ(b.dims[0], 2 + 3 + 1);
  EXPECT_EQ(b.dims[1], 2 + 3 + 1);
  EXPECT_EQ(b.dims[2], 2 + 2 + 1);
  EXPECT_EQ(b.size(), 6 * 6 * 5);
  EXPECT_EQ(b.index(1, 2, 3), (3 * 6 + 2) * 6 + 1);
  // Coverage of [-radius, extent + radius] for many edges and radii.
  for (double edge : {0.3, 1.0, 2.5, 4.0, 7.0, 30.0})
    for (double radius : {0.5, 4.0, 6.0, 12.0}) {
      const bin_grid c = make_bin_grid(g, edge, radius, false);
      for (int d = 0; d < 3; ++d) {
        const double ext = g.spacing * (g.dims[d] - 1);
        EXPECT_LE(c.origin[d], -radius);
        EXPECT_GT(c.origin[d] + double(c.edge[d]) * c.dims[d], ext + radius);
        int bx = 0, by = 0, bz = 0;
        float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.0f, 0.0f, 0.0f};
        lo[d] = -float(radius);
        hi[d] = float(ext + radius);
        EXPECT_TRUE(c.bin_of(lo[0], lo[1], lo[2], bx, by, bz));
        EXPECT_TRUE(c.bin_of(hi[0], hi[1], hi[2], bx, by, bz));
      }
    }
  int bx, by, bz;
  EXPECT_TRUE(b.bin_of(0.0f, 0.0f, 0.0f, bx, by, bz));
  EXPECT_EQ(bx, 2);
  EXPECT_FALSE(b.bin_of(-8.001f, 0.0f, 0.0f, bx, by, bz));
  EXPECT_FALSE(b.bin_of(0.0f, 16.0f, 0.0f, bx, by, bz));
  EXPECT_FALSE(b.bin_of(0.0f, 0.0f, std::numeric_limits<float>::quiet_NaN(), bx, by, bz));
  EXPECT_FALSE(b.bin_of(std::numeric_limits<float>::infinity(), 0.0f, 0.0f, bx, by, bz));
}

TEST(bin_grid, periodic_bins_stretch_to_the_box) {
  const auto g = make_lattice(1.0, 10, 12, 7);  // box 10 x 12 x 7
  const bin_grid b = make_bin_grid(g, 3.0, 5.0, true);
  EXPECT_TRUE(b.periodic);
  const int n[3] = {3, 4, 2};
  const float box[3] = {10.0f, 12.0f, 7.0f};
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(b.dims[d], n[d]);
    EXPECT_EQ(b.box[d], box[d]);
    EXPECT_EQ(b.origin[d], 0.0f);
    EXPECT_FLOAT_EQ(b.edge[d], box[d] / n[d]);
    EXPECT_GE(b.edge[d], 3.0f);
  }
  // A box shorter than the edge: one bin.
  const bin_grid one = make_bin_grid(make_lattice(0.5, 4, 40, 4), 3.0, 5.0, true);
  EXPECT_EQ(one.dims[0], 1);
  EXPECT_EQ(one.dims[1], 6);
  EXPECT_EQ(one.edge[0], 2.0f);
  int bx, by, bz;
  ASSERT_TRUE(b.bin_of(-0.01f, 12.0f, 14.0f + 3.6f, bx, by, bz));
  EXPECT_EQ(bx, 2);
  EXPECT_EQ(by, 0);
  EXPECT_EQ(bz, 1);
  EXPECT_FALSE(b.bin_of(std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f, bx, by, bz));
  EXPECT_FALSE(b.bin_of(0.0f, -std::numeric_limits<float>::infinity(), 0.0f, bx, by, bz));
  // wrap: into [0, box), also for values that round to the box length.
  for (float x : {-1e-7f, -10.0f, 20.0f, 9.9999999f, 1e6f + 0.25f, -2.5e6f, 0.0f})
    for (int d = 0; d < 3; ++d) {
      const float w = b.wrap(d, x);
      EXPECT_GE(w, 0.0f);
      EXPECT_LT(w, b.box[d]);
      const double k = (double(x) - w) / b.box[d];
      EXPECT_NEAR(k, std::round(k), 1e-6 * (1.0 + std::fabs(x) / b.box[d]));
    }
}

TEST(bin_grid, rejects_bad_input_naming_the_quantity) {
  const auto g = make_lattice(0.5, 20, 13, 9);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (double edge : {0.0, -1.0, nan, inf}) {
    const std::string m = ppl_test::error_of<ppl::input_error>([&] { make_bin_grid(g, edge, 5.0, false); });
    EXPECT_NE(m.find("bin edge"), std::string::npos) << m;
  }
  for (double radius : {0.0, -2.0, nan, inf, 2e6})
    for (bool periodic : {false, true}) {
      const std::string m = ppl_test::error_of<ppl::input_error>([&] { make_bin_grid(g, 4.0, radius, periodic); });
      EXPECT_NE(m.find("radius"), std::string::npos) << m;
    }
  // 1e6 A per axis in bins of 0.01 A: 1e24 bins.
  const auto big = make_lattice(1000.0, 1000, 1000, 1000);
  for (bool periodic : {false, true}) {
    const std::string m = ppl_test::error_of<ppl::input_error>([&] { make_bin_grid(big, 0.01, 5.0, periodic); });
    EXPECT_NE(m.find("bins"), std::string::npos) << m;
    EXPECT_NE(m.find("2147483647"), std::string::npos) << m;
  }
  ppl::lattice bad = g;
  bad.spacing = -1.0;
  EXPECT_THROW(make_bin_grid(bad, 4.0, 5.0, false), ppl::input_error);
}

}  // namespace
