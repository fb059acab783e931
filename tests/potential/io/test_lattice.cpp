// lattice_around: Parboil's convention, checked on a hand example and against Parboil's own cutcp output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/potential/lattice.hpp"
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
