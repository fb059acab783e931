// to_device: positions relative to the lattice origin, shifted in float64 before rounding to float32; the staged
// upload of a GPU build (run here on any build) gives the same bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "ppl/core/device_buffers.hpp"
#include "ppl/spatial/point_charges.hpp"

TEST(to_device, shifts_by_the_origin_before_rounding_far_away_coordinates) {
  ppl::atoms a;
  // 1e5 A from the coordinate origin: float32 has a resolution of ~0.008 A there, so rounding first and shifting
  // afterwards would lose the 0.001 A offsets below.
  a.push_back(1e5 + 0.001, -1e5 + 2.502, 1e5 + 7.25, 0.5);
  a.push_back(1e5 + 3.0, -1e5 + 0.0, 1e5 + 0.003, -1.25);
  ppl::lattice g;
  g.origin = {1e5, -1e5, 1e5};
  g.spacing = 0.5;
  g.dims = {16, 16, 16};
  const auto d = ppl::to_device(a, g);
  ASSERT_EQ(d.size(), 2u);
  ASSERT_EQ(d.host.extent(0), 2u);
  const double expect[2][4] = {{0.001, 2.502, 7.25, 0.5}, {3.0, 0.0, 0.003, -1.25}};
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(d.host(i).x, expect[i][0], 1e-6);
    EXPECT_NEAR(d.host(i).y, expect[i][1], 1e-6);
    EXPECT_NEAR(d.host(i).z, expect[i][2], 1e-6);
    EXPECT_EQ(d.host(i).q, float(expect[i][3]));
  }
  // The device copy holds the same bytes.
  auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.data);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(back(i).x, d.host(i).x);
    EXPECT_EQ(back(i).y, d.host(i).y);
    EXPECT_EQ(back(i).z, d.host(i).z);
    EXPECT_EQ(back(i).q, d.host(i).q);
  }
}

TEST(to_device, zero_atoms_and_many_atoms) {
  ppl::lattice g;
  EXPECT_EQ(ppl::to_device(ppl::atoms{}, g).size(), 0u);
  const double lo[3] = {-3, -3, -3}, hi[3] = {3, 3, 3};
  const auto a = ppl::random_atoms(5000, lo, hi, -1, 1, 9);
  g.origin = {-1.5, 0.25, 2.0};
  const auto d = ppl::to_device(a, g);
  ASSERT_EQ(d.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(d.host(i).x, float(a.x[i] + 1.5));
    ASSERT_EQ(d.host(i).y, float(a.y[i] - 0.25));
    ASSERT_EQ(d.host(i).z, float(a.z[i] - 2.0));
    ASSERT_EQ(d.host(i).q, float(a.q[i]));
  }
}

// The staged path (what to_device does on a GPU) gives the direct path's bytes on the host and on the device, for
// pieces of one atom, of sizes that do not divide the count, and of the whole count and more.
TEST(to_device, staged_pieces_give_the_same_atoms) {
  const double lo[3] = {-20, -5, 0}, hi[3] = {30, 25, 12};
  const auto a = ppl::random_atoms(3001, lo, hi, -2, 2, 17);
  ppl::lattice g;
  g.origin = {1e4 + 0.3, -7.25, 2.0};
  g.spacing = 0.5;
  const auto direct = ppl::to_device(a, g);
  const auto direct_data = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), direct.data);
  for (std::size_t chunk : {std::size_t(1), std::size_t(7), std::size_t(1000), std::size_t(3001), std::size_t(5000)}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    const auto d = ppl::point_charges_detail::to_device_staged(a, g, chunk);
    ASSERT_EQ(d.size(), a.size());
    ASSERT_EQ(d.host.extent(0), a.size());
    const auto data = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.data);
    EXPECT_EQ(std::memcmp(d.host.data(), direct.host.data(), a.size() * sizeof(ppl::atom4)), 0);
    EXPECT_EQ(std::memcmp(data.data(), direct_data.data(), a.size() * sizeof(ppl::atom4)), 0);
  }
  EXPECT_EQ(ppl::point_charges_detail::to_device_staged(ppl::atoms{}, g, 10).size(), 0u);
  EXPECT_EQ(ppl::point_charges_detail::staging_chunk_atoms(1000), 65536u);
  EXPECT_EQ(ppl::point_charges_detail::staging_chunk_atoms(2000000), 125000u);
  EXPECT_EQ(ppl::point_charges_detail::staging_chunk_atoms(100000000), 262144u);
}

// A second upload of the same size takes its staging buffers from the cache (nothing is page-locked again).
TEST(to_device, staging_buffers_are_reused) {
  const double lo[3] = {0, 0, 0}, hi[3] = {10, 10, 10};
  const auto a = ppl::random_atoms(2000, lo, hi, -1, 1, 3);
  const ppl::lattice g;
  (void)ppl::point_charges_detail::to_device_staged(a, g, 500);
  const auto before = ppl::staging_buffer_statistics();
  (void)ppl::point_charges_detail::to_device_staged(a, g, 500);
  const auto after = ppl::staging_buffer_statistics();
  EXPECT_EQ(after.allocations, before.allocations);
  EXPECT_EQ(after.reuses, before.reuses + 1);
}
