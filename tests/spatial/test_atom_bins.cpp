// atom_bins: every rule of atom_bins.hpp checked by brute force (spatial_test_support.hpp) on seeded random and
// clustered atoms, capacities 1, 2 and 8, on the default execution space and on Kokkos::Serial; determinism; the
// periodic wrap; the radius rule of non-periodic grids; the memory estimate; repeated builds allocate nothing.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "ppl/core/device_buffers.hpp"
#include "ppl/core/error.hpp"
#include "ppl/spatial/atom_bins.hpp"
#include "ppl/spatial/bin_grid.hpp"
#include "ppl/spatial/point_charges.hpp"
#include "spatial_test_support.hpp"

namespace {

using namespace ppl::spatial_test;
using ppl::spatial::make_bin_grid;

ppl::lattice make_lattice(double h, int nx, int ny, int nz) {
  ppl::lattice g;
  g.origin = {1.25, -3.0, 7.5};  // irrelevant in the lattice frame, but not zero
  g.spacing = h;
  g.dims = {nx, ny, nz};
  return g;
}

// The lattice box in its frame, grown by `margin`.
void lattice_box(const ppl::lattice& g, double margin, double lo[3], double hi[3]) {
  for (int d = 0; d < 3; ++d) {
    lo[d] = -margin;
    hi[d] = g.spacing * (g.dims[d] - 1) + margin;
  }
}

// Builds on the default execution space twice and on Serial once; all three must be identical and pass the checker.
void check_all_builds(const std::vector<atom4>& atoms, const bin_grid& grid, int capacity) {
  SCOPED_TRACE("capacity " + std::to_string(capacity));
  const host_bins a = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, capacity);
  EXPECT_EQ(check_bins(a, atoms), "");
  const host_bins b = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, capacity);
  EXPECT_TRUE(identical(a, b)) << "two builds on " << Kokkos::DefaultExecutionSpace::name() << " differ";
#if defined(KOKKOS_ENABLE_SERIAL)
  const host_bins s = build_on<Kokkos::Serial>(atoms, grid, capacity);
  EXPECT_EQ(check_bins(s, atoms), "");
  EXPECT_TRUE(identical(a, s)) << "Serial and " << Kokkos::DefaultExecutionSpace::name() << " builds differ";
#endif
}

TEST(atom_bins, random_atoms_nonperiodic_capacities_1_2_8) {
  std::mt19937_64 rng(ppl_test::seed(1));
  const auto g = make_lattice(0.5, 20, 13, 9);
  const double radius = 6.0;
  const bin_grid grid = make_bin_grid(g, 4.0, radius, false);
  double lo[3], hi[3];
  lattice_box(g, radius + 5.0, lo, hi);  // some atoms outside the grid
  const auto atoms = uniform_atoms(3000, lo, hi, rng);
  for (int capacity : {1, 2, 8}) check_all_builds(atoms, grid, capacity);
  const host_bins b = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, 2);
  EXPECT_GT(b.dropped, 0u);
  EXPECT_GT(b.overflow.size(), 0u);
}

TEST(atom_bins, clustered_atoms_overfill_bins) {
  std::mt19937_64 rng(ppl_test::seed(2));
  const auto g = make_lattice(0.5, 16, 16, 16);
  const bin_grid grid = make_bin_grid(g, 2.0, 4.0, false);
  double lo[3], hi[3];
  lattice_box(g, 0.0, lo, hi);
  auto atoms = clustered_atoms(2500, 4, 1.2, lo, hi, rng);
  double wlo[3], whi[3];
  lattice_box(g, 4.0, wlo, whi);
  const auto sparse = uniform_atoms(500, wlo, whi, rng);
  for (const atom4& a : sparse) atoms.push_back(atom4{a.x, a.y, a.z, float(atoms.size() + 1)});
  for (int capacity : {1, 2, 8}) check_all_builds(atoms, grid, capacity);
  const host_bins b = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, 8);
  // The fullest bins hold more than 32 atoms, so the team path of the per-bin ordering (fill_large_bins) ran too.
  EXPECT_GT(b.max_count, 32u);
  EXPECT_GT(b.overflow.size(), atoms.size() / 4);
}

TEST(atom_bins, many_builds_are_identical) {
  std::mt19937_64 rng(ppl_test::seed(3));
  const auto g = make_lattice(1.0, 12, 12, 12);
  const bin_grid grid = make_bin_grid(g, 3.0, 3.0, false);
  double lo[3], hi[3];
  lattice_box(g, 0.0, lo, hi);
  const auto atoms = clustered_atoms(4000, 3, 2.0, lo, hi, rng);
  const host_bins first = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, 4);
  for (int run = 0; run < 5; ++run)
    EXPECT_TRUE(identical(first, build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, 4))) << "run " << run;
}

TEST(atom_bins, periodic_positions_wrap_into_the_box) {
  std::mt19937_64 rng(ppl_test::seed(4));
  const auto g = make_lattice(1.0, 10, 12, 7);  // box 10 x 12 x 7 A
  const bin_grid grid = make_bin_grid(g, 3.0, 5.0, true);
  const float L[3] = {10.0f, 12.0f, 7.0f};
  std::vector<atom4> atoms;
  auto add = [&](float x, float y, float z) { atoms.push_back(atom4{x, y, z, float(atoms.size() + 1)}); };
  add(-L[0], -L[1], -L[2]);                      // -> (0, 0, 0)
  add(2 * L[0] + 0.1f, L[1], 3 * L[2] + 0.25f);  // -> (0.1, 0, 0.25)
  add(-1e-7f, -0.1f, L[2] - 1e-6f);              // -> just below the box's upper faces
  add(1e5f + 0.5f, -1e5f - 0.5f, 2.5e6f);
  add(-3 * L[0] - 0.5f, 0.0f, 0.0f);
  add(std::numeric_limits<float>::quiet_NaN(), 1.0f, 1.0f);  // dropped
  add(1.0f, std::numeric_limits<float>::infinity(), 1.0f);   // dropped
  double lo[3] = {-3.0 * L[0], -3.0 * L[1], -3.0 * L[2]}, hi[3] = {4.0 * L[0], 4.0 * L[1], 4.0 * L[2]};
  for (const atom4& a : uniform_atoms(2000, lo, hi, rng)) add(a.x, a.y, a.z);
  for (int capacity : {1, 2, 8}) check_all_builds(atoms, grid, capacity);
  const host_bins b = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, 8);
  EXPECT_EQ(b.dropped, 2u);
  // The bins wrap: -0.1 lies in the last bin along y, L + 0.1 in the first.
  int c[3];
  ASSERT_TRUE(grid.bin_of(-0.1f, L[1] + 0.1f, -L[2] - 0.1f, c[0], c[1], c[2]));
  EXPECT_EQ(c[0], grid.dims[0] - 1);
  EXPECT_EQ(c[1], 0);
  EXPECT_EQ(c[2], grid.dims[2] - 1);
  // Atom 0 (at -L) is stored at the origin, atom 1 at (0.1, 0, 0.25).
  auto find = [&](int id) {
    for (const atom4& a : b.slots)
      if (!ppl::spatial::is_empty_slot(a) && id_of(a) == id) return a;
    for (const atom4& a : b.overflow)
      if (id_of(a) == id) return a;
    ADD_FAILURE() << "atom " << id << " not found";
    return atom4{};
  };
  const atom4 a0 = find(0), a1 = find(1), a2 = find(2);
  EXPECT_EQ(a0.x, 0.0f);
  EXPECT_EQ(a0.y, 0.0f);
  EXPECT_EQ(a0.z, 0.0f);
  EXPECT_NEAR(a1.x, 0.1f, 1e-5);
  EXPECT_EQ(a1.y, 0.0f);
  EXPECT_NEAR(a1.z, 0.25f, 1e-5);
  EXPECT_TRUE(a2.x == 0.0f || (a2.x < L[0] && a2.x > L[0] - 1e-5f)) << a2.x;
  EXPECT_NEAR(a2.y, L[1] - 0.1f, 1e-5);
  EXPECT_LT(a2.z, L[2]);
}

TEST(atom_bins, nonperiodic_grid_keeps_every_atom_within_the_radius) {
  std::mt19937_64 rng(ppl_test::seed(5));
  const auto g = make_lattice(0.75, 9, 6, 5);
  for (double radius : {2.5, 6.0, 9.5}) {
    for (double edge : {1.5, 4.0, 7.0}) {
      SCOPED_TRACE("radius " + std::to_string(radius) + ", edge " + std::to_string(edge));
      const bin_grid grid = make_bin_grid(g, edge, radius, false);
      double lo[3], hi[3];
      lattice_box(g, radius + 2 * edge + 1.0, lo, hi);
      const auto atoms = uniform_atoms(3000, lo, hi, rng);
      const host_bins b = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, 4);
      ASSERT_EQ(check_bins(b, atoms), "");
      std::vector<char> kept(atoms.size(), 0);
      for (const atom4& a : b.slots)
        if (!ppl::spatial::is_empty_slot(a)) kept[id_of(a)] = 1;
      for (const atom4& a : b.overflow) kept[id_of(a)] = 1;
      std::size_t n_kept = 0, n_near = 0;
      for (std::size_t i = 0; i < atoms.size(); ++i) {
        const float p[3] = {atoms[i].x, atoms[i].y, atoms[i].z};
        double to_box2 = 0.0, to_point2 = 0.0;  // to the lattice box, to the nearest lattice point
        for (int d = 0; d < 3; ++d) {
          const double ext = g.spacing * (g.dims[d] - 1);
          const double gap = p[d] < 0 ? -p[d] : p[d] > ext ? p[d] - ext : 0.0;
          to_box2 += gap * gap;
          const double k = std::min(std::max(std::round(p[d] / g.spacing), 0.0), double(g.dims[d] - 1));
          to_point2 += (p[d] - k * g.spacing) * (p[d] - k * g.spacing);
        }
        n_kept += kept[i];
        if (to_point2 <= radius * radius) {
          ++n_near;
          EXPECT_TRUE(kept[i]) << "atom " << i << " within the radius of a lattice point was dropped";
        }
        if (!kept[i]) {
          EXPECT_GT(to_box2, radius * radius) << "dropped atom " << i << " is within the radius";
        }
      }
      EXPECT_GT(n_near, 0u);
      EXPECT_LT(n_kept, atoms.size());  // the test covers dropping too
    }
  }
}

TEST(atom_bins, no_atoms) {
  const bin_grid grid = make_bin_grid(make_lattice(1.0, 4, 4, 4), 2.0, 2.0, false);
  const std::vector<atom4> none;
  const host_bins b = build_on<Kokkos::DefaultExecutionSpace>(none, grid, 3);
  EXPECT_EQ(check_bins(b, none), "");
  EXPECT_EQ(b.max_count, 0u);
  EXPECT_TRUE(b.overflow.empty());
}

TEST(atom_bins, rejects_capacity_below_one) {
  const bin_grid grid = make_bin_grid(make_lattice(1.0, 4, 4, 4), 2.0, 2.0, false);
  const std::vector<atom4> none;
  const std::string msg =
      ppl_test::error_of<ppl::input_error>([&] { build_on<Kokkos::DefaultExecutionSpace>(none, grid, 0); });
  EXPECT_NE(msg.find("capacity"), std::string::npos) << msg;
  EXPECT_THROW(ppl::spatial::atom_bins_bytes(grid, 0), ppl::input_error);
}

TEST(atom_bins, the_sentinel_contributes_nothing_anywhere) {
  const atom4 e = ppl::spatial::empty_slot();
  EXPECT_TRUE(ppl::spatial::is_empty_slot(e));
  EXPECT_EQ(e.q, 0.0f);
  // The farthest lattice point a kernel can see (3e6 A per axis, lattice.hpp) and the nearest (0).
  for (float p : {0.0f, 3e6f, -3e6f}) {
    const float dx = e.x - p, dy = e.y - p, dz = e.z - p;
    const float r2 = dx * dx + dy * dy + dz * dz;
    EXPECT_TRUE(std::isfinite(r2));
    EXPECT_GT(r2, 1e36f);
    EXPECT_EQ(e.q / std::sqrt(r2), 0.0f);
    EXPECT_EQ(e.q * (1.0f / std::sqrt(r2)), 0.0f);
  }
}

TEST(atom_bins, memory_estimate) {
  const bin_grid grid = make_bin_grid(make_lattice(0.5, 40, 30, 20), 4.0, 12.0, false);
  const std::size_t nb = std::size_t(grid.size());
  EXPECT_EQ(ppl::spatial::atom_bins_bytes(grid, 8), nb * 8 * sizeof(atom4) + nb * sizeof(int));
  const std::size_t with_atoms = ppl::spatial::atom_bins_bytes(grid, 8, 100000);
  EXPECT_GT(with_atoms, ppl::spatial::atom_bins_bytes(grid, 8));
  EXPECT_GE(with_atoms, ppl::spatial::atom_bins_bytes(grid, 8) + 100000 * (sizeof(atom4) + 3 * sizeof(int)));
  EXPECT_NO_THROW(ppl::spatial::check_atom_bins_memory(grid, 8, 100000, double(with_atoms), "test memory"));
  const std::string msg = ppl_test::error_of<ppl::input_error>(
      [&] { ppl::spatial::check_atom_bins_memory(grid, 8, 100000, double(with_atoms) - 1.0, "test memory"); });
  EXPECT_NE(msg.find("test memory"), std::string::npos) << msg;
  EXPECT_NE(msg.find("capacity 8"), std::string::npos) << msg;
  bin_grid huge = grid;
  huge.dims[0] = huge.dims[1] = huge.dims[2] = 1 << 20;
  EXPECT_EQ(ppl::spatial::atom_bins_bytes(huge, 1 << 30), SIZE_MAX);
}

// The library's two builds from device_atoms (default execution space, host execution space) agree.
TEST(atom_bins, library_builds_from_device_atoms) {
  std::mt19937_64 rng(ppl_test::seed(6));
  auto g = make_lattice(0.5, 24, 20, 16);
  ppl::atoms a;
  for (int i = 0; i < 1500; ++i)
    a.push_back(g.origin[0] + ppl::test::uniform(rng, -8.0, 20.0), g.origin[1] + ppl::test::uniform(rng, -8.0, 18.0),
                g.origin[2] + ppl::test::uniform(rng, -8.0, 16.0), double(i + 1));
  const auto d = ppl::to_device(a, g);
  const bin_grid grid = make_bin_grid(g, 3.0, 5.0, false);
  const host_bins dev = to_host(ppl::spatial::build_atom_bins(d, grid, 4));
  const host_bins host = to_host(ppl::spatial::build_atom_bins_host(d, grid, 4));
  const std::vector<atom4> in(d.host.data(), d.host.data() + d.size());
  EXPECT_EQ(check_bins(dev, in), "");
  EXPECT_TRUE(identical(dev, host));
}

// A build done again (a plan per trajectory frame) takes its three blocks (temporaries, counts, slots) and the
// overflow's from the cache: no allocation after the first.
TEST(atom_bins, repeated_builds_allocate_nothing) {
  std::mt19937_64 rng(ppl_test::seed(7));
  auto g = make_lattice(0.5, 30, 24, 20);
  ppl::atoms a;
  for (int i = 0; i < 4000; ++i)
    a.push_back(g.origin[0] + ppl::test::uniform(rng, -6.0, 20.0), g.origin[1] + ppl::test::uniform(rng, -6.0, 18.0),
                g.origin[2] + ppl::test::uniform(rng, -6.0, 16.0), double(i + 1));
  const auto d = ppl::to_device(a, g);
  const bin_grid grid = make_bin_grid(g, 3.0, 5.0, false);
  for (const auto& [capacity, grow_to] : {std::pair{8, 32}, {2, 0}}) {
    { const auto warm = ppl::spatial::build_atom_bins(d, grid, capacity, grow_to); }
    const auto before = ppl::device_buffer_statistics();
    const auto b = ppl::spatial::build_atom_bins(d, grid, capacity, grow_to);
    const auto after = ppl::device_buffer_statistics();
    EXPECT_EQ(after.allocations, before.allocations) << "capacity " << capacity;
    EXPECT_EQ(after.reuses, before.reuses + (b.overflow.extent(0) > 0 ? 4 : 3)) << "capacity " << capacity;
  }
}

}  // namespace
