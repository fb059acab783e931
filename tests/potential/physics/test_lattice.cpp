// lattice_around: Parboil's convention, checked on a hand example and against Parboil's own cutcp output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/spatial/lattice.hpp"
#include "ppl/potential/physics.hpp"
#include "support/ppl_test.hpp"

TEST(lattice_around, hand_example) {
  ppl::atoms a;
  a.push_back(0.0, 0.0, 0.0, 1.0);
  a.push_back(1.0, 2.2, 3.0, -1.0);
  a.push_back(0.5, -0.25, 1.0, 0.5);
  const auto g = ppl::lattice_around(a, 0.5, 0.5);
  // lo = min - 0.5; n = floor((max - min + 1) / 0.5) + 1.
  EXPECT_DOUBLE_EQ(g.origin[0], -0.5);
  EXPECT_DOUBLE_EQ(g.origin[1], -0.75);
  EXPECT_DOUBLE_EQ(g.origin[2], -0.5);
  EXPECT_EQ(g.dims[0], 5);  // (2.0 / 0.5) + 1
  EXPECT_EQ(g.dims[1], 7);  // floor(3.45 / 0.5) + 1
  EXPECT_EQ(g.dims[2], 9);  // (4.0 / 0.5) + 1
  EXPECT_DOUBLE_EQ(g.spacing, 0.5);
  EXPECT_EQ(g.size(), 5u * 7u * 9u);
  EXPECT_EQ(g.index(1, 2, 3), (3u * 7u + 2u) * 5u + 1u);
  EXPECT_DOUBLE_EQ(g.coord(1, 3), -0.75 + 1.5);
  const auto wide = ppl::lattice_around(a, 1.0, 10.0);
  EXPECT_DOUBLE_EQ(wide.origin[0], -10.0);
  EXPECT_EQ(wide.dims[0], 22);  // floor(21 / 1) + 1
}

TEST(lattice_around, rejects_zero_atoms_and_bad_spacing) {
  ppl::atoms a;
  EXPECT_THROW(ppl::lattice_around(a, 0.5, 0.5), ppl::input_error);
  a.push_back(1, 2, 3, 1);
  EXPECT_THROW(ppl::lattice_around(a, 0.0, 0.5), ppl::input_error);
  EXPECT_THROW(ppl::lattice_around(a, 0.5, -1.0), ppl::input_error);
  const auto one = ppl::lattice_around(a, 0.5, 0.0);  // a single atom, no padding: one point on it
  EXPECT_EQ(one.size(), 1u);
  EXPECT_DOUBLE_EQ(one.origin[2], 3.0);
}

namespace {

std::vector<float> read_parboil_planes(const std::string& path, float& abs_sum, std::uint32_t& plane_points) {
  const std::string bytes = ppl_test::read_file(path);
  EXPECT_GE(bytes.size(), 8u);
  std::memcpy(&abs_sum, bytes.data(), 4);  // little-endian host assumed (x86, as the file)
  std::memcpy(&plane_points, bytes.data() + 4, 4);
  std::vector<float> v((bytes.size() - 8) / 4);
  std::memcpy(v.data(), bytes.data() + 8, v.size() * 4);
  return v;
}

// Parboil cutcp's smoothed cutoff potential at one point, float64 (data/README.md).
double cutcp_f64(const ppl::atoms& a, double px, double py, double pz) {
  constexpr double cutoff2 = 12.0 * 12.0;
  double v = 0;
  for (std::size_t t = 0; t < a.size(); ++t) {
    const double dx = px - a.x[t], dy = py - a.y[t], dz = pz - a.z[t], r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < cutoff2 && r2 > 0) {
      const double s = 1 - r2 / cutoff2;
      v += a.q[t] / std::sqrt(r2) * s * s;
    }
  }
  return v;
}

}  // namespace

TEST(lattice_around, parboil_watbox_lattice_and_reference_planes) {
  const std::string dir = ppl_test::data_path("molecules/");
  const auto a = ppl::read_pqr(dir + "watbox.sl40.pqr.gz");
  const auto g = ppl::lattice_around(a, 0.5, 0.5);
  EXPECT_EQ(g.dims[0], 82);
  EXPECT_EQ(g.dims[1], 82);
  EXPECT_EQ(g.dims[2], 82);
  float abs_sum = 0;
  std::uint32_t plane = 0;
  const auto ref = read_parboil_planes(dir + "watbox.sl40.cutcp-lattice.dat.gz", abs_sum, plane);
  ASSERT_EQ(plane, std::uint32_t(g.dims[0] * g.dims[1]));
  ASSERT_EQ(ref.size(), 2u * plane);
  // Recompute planes k = 0 and k = nz-1 on our lattice, zero the points within 1 A of an atom with the job's
  // exclusion code, and compare point by point: a lattice shifted by one spacing, or an exclusion rule that
  // differs, changes many points by far more than the tolerance.
  ppl::lattice p = g;
  p.dims[2] = 1;
  ppl::physics_options excl;
  excl.exclusion_radius = 1.0;
  double max_ref = 0, max_diff = 0;
  for (int plane_k : {0, g.dims[2] - 1}) {
    p.origin[2] = g.coord(2, plane_k);
    std::vector<float> v(p.size());
    for (int j = 0; j < p.dims[1]; ++j)
      for (int i = 0; i < p.dims[0]; ++i)
        v[p.index(i, j, 0)] = float(cutcp_f64(a, p.coord(0, i), p.coord(1, j), p.origin[2]));
    const std::size_t zeroed = ppl::apply_physics(excl, a, p, v.data());
    std::size_t ref_zeros = 0;
    const float* r = ref.data() + (plane_k == 0 ? 0 : plane);
    for (std::size_t n = 0; n < v.size(); ++n) {
      ref_zeros += r[n] == 0.0f;
      max_ref = std::max(max_ref, double(std::abs(r[n])));
      max_diff = std::max(max_diff, double(std::abs(v[n] - r[n])));
    }
    EXPECT_EQ(zeroed, ref_zeros) << "plane " << plane_k;
  }
  // Parboil sums in float32: 1e-5 of the largest value covers its rounding, not a misplaced lattice.
  EXPECT_LT(max_diff, 1e-5 * max_ref) << "max |ref| " << max_ref;
}

// Defect: dims whose product passes 2^64 wrapped to 0 points, so a job validated and then wrote nothing (or
// crashed). size() saturates now, and check_lattice bounds the count, each axis and the values.
TEST(lattice_limits, size_saturates_instead_of_wrapping) {
  ppl::lattice g;
  g.dims = {1 << 21, 1 << 21, 1 << 22};  // 2^64 points: used to wrap to 0
  EXPECT_EQ(g.size(), SIZE_MAX);
  g.dims = {1 << 21, 1 << 21, 1 << 21};  // 2^63: fits in size_t, far above the limit
  EXPECT_EQ(g.size(), std::size_t(1) << 63);
  g.spacing = 1e-4;
  const auto msg = ppl_test::error_of<ppl::input_error>([&] { ppl::check_lattice(g); });
  EXPECT_NE(msg.find("2097152 x 2097152 x 2097152 = 9.223e+18 points; at most 2147483647"), std::string::npos) << msg;
}

TEST(lattice_limits, count_axes_spacing_and_origin) {
  auto make = [](int nx, int ny, int nz, double h) {
    ppl::lattice g;
    g.dims = {nx, ny, nz};
    g.spacing = h;
    return g;
  };
  EXPECT_NO_THROW(ppl::check_lattice(make(2147483647, 1, 1, 1e-4)));  // exactly 2^31 - 1 points
  EXPECT_NO_THROW(ppl::check_lattice(make(1000001, 1, 1, 1.0)));      // exactly 1e6 A along x
  EXPECT_NO_THROW(ppl::check_lattice(make(1, 1, 1, 0.5)));
  const std::vector<std::pair<ppl::lattice, std::string>> bad = {
      {make(65536, 32768, 1, 1e-3), "65536 x 32768 x 1 = 2.147e+09 points; at most 2147483647"},
      {make(1000002, 1, 1, 1.0), "spans 1e+06 A along x"},  // 1000001 A
      {make(1, 20002, 1, 50.0), "spans 1.00005e+06 A along y"},
      {make(0, 4, 4, 0.5), "dims must be >= 1, got 0 along x"},
      {make(4, 4, -1, 0.5), "dims must be >= 1, got -1 along z"},
      {make(4, 4, 4, 0.0), "spacing 0 must be finite and > 0"},
      {make(4, 4, 4, std::nan("")), "spacing nan must be finite"},
  };
  for (const auto& c : bad) {  // not a structured binding: capturing one is C++20 (nvcc warns)
    const auto msg = ppl_test::error_of<ppl::input_error>([&] { ppl::check_lattice(c.first); });
    EXPECT_NE(msg.find(c.second), std::string::npos) << msg;
  }
  ppl::lattice far = make(4, 4, 4, 0.5);
  far.origin[1] = std::numeric_limits<double>::infinity();
  EXPECT_NE(ppl_test::error_of<ppl::input_error>([&] { ppl::check_lattice(far); }).find("origin along y is not finite"),
            std::string::npos);
}

TEST(lattice_limits, memory_for_the_values) {
  ppl::lattice g;
  g.dims = {1000, 1000, 1000};
  EXPECT_NO_THROW(ppl::check_lattice_memory(g, 4.0, 8.0 * (1 << 30), "host memory"));
  const auto msg =
      ppl_test::error_of<ppl::input_error>([&] { ppl::check_lattice_memory(g, 12.0, 8.0 * (1 << 30), "host memory"); });
  EXPECT_EQ(msg, "the lattice's 1000000000 points need 11.2 GiB of host memory (12 bytes per point); it has 8 GiB");
}

// Spacing and padding around far-apart atoms: each axis is bounded by lattice_around, the count by check_lattice.
TEST(lattice_limits, around_far_apart_atoms) {
  ppl::atoms a;
  a.push_back(0, 0, 0, 1);
  a.push_back(262143.875, 262143.875, 524287.875, 1);
  const auto g = ppl::lattice_around(a, 0.125, 0.0);  // 2^21 x 2^21 x 2^22 points: 2^64
  EXPECT_EQ(g.dims, (std::array<int, 3>{1 << 21, 1 << 21, 1 << 22}));
  EXPECT_THROW(ppl::check_lattice(g), ppl::input_error);
  ppl::atoms wide;
  wide.push_back(-600000, 0, 0, 1);
  wide.push_back(600000, 0, 0, 1);
  const auto msg = ppl_test::error_of<ppl::input_error>([&] { ppl::lattice_around(wide, 100.0, 0.0); });
  EXPECT_NE(msg.find("spans 1.2e+06 A along x (atoms -600000 to 600000 A, padding 0 A); at most 1e+06 A per axis"),
            std::string::npos)
      << msg;
}
