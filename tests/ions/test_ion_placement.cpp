// ion_placer (include/ppl/ions/placement.hpp) against a float64 host recomputation: on small seeded random cases,
// every ion sits at an allowed point (distances from the solute, the faces and earlier ions, in float64) where
// q x V of the map updated with the earlier ions is lowest among the allowed points, up to the float32 map's error
// bound; masks count what a host loop counts; ties go to the lowest index.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "ppl/ions/placement.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "support/ppl_test.hpp"

namespace {

using ppl::atoms;
using ppl::interaction;
using ppl::lattice;

struct placement_case {
  const char* name;
  interaction pair;
  std::vector<int> charges;  // of the ions, in placement order
  double min_solute, min_ions, border;
};

double dist2(const std::array<double, 3>& p, double x, double y, double z) {
  const double dx = p[0] - x, dy = p[1] - y, dz = p[2] - z;
  return dx * dx + dy * dy + dz * dz;
}

// The device placement as the job runs it, on a map made by `strategy`.
std::vector<int> place_on_device(const atoms& a, const lattice& g, const placement_case& c, const char* strategy,
                                 ppl::ion_mask_counts* counts = nullptr) {
  auto s = ppl::make_potential_strategy(strategy, {}, c.pair, "test");
  const auto plan = s->prepare({a, g, c.pair});
  ppl::potential_view v("v", g.size());
  s->compute(*plan, v, ppl::write_mode::overwrite);
  ppl::ion_placer p(g, c.pair);
  const auto m = p.build_mask(a, c.min_solute, c.border);
  if (counts) *counts = m;
  std::vector<int> chosen;
  auto choice = p.select(v, float(c.charges[0]));
  for (std::size_t n = 0; n < c.charges.size(); ++n) {
    if (choice.index < 0) break;
    chosen.push_back(choice.index);
    const float next = n + 1 < c.charges.size() ? float(c.charges[n + 1]) : 0.0f;
    choice = p.add_ion(v, choice.index, float(c.charges[n]), c.min_ions, n + 1 < c.charges.size() ? &next : nullptr);
  }
  return chosen;
}

// A solute of `n` random atoms (charges in [-1, 1], radii in [1, 2] A) inside a lattice of 20 x 18 x 16 points.
void random_case(std::uint64_t seed, atoms& a, lattice& g) {
  g.origin = {-1.0, 0.5, 2.0};
  g.spacing = 0.5;
  g.dims = {20, 18, 16};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int n = 0; n < 12; ++n)
    a.push_back(g.origin[0] + 3.0 + 4.0 * u(rng), g.origin[1] + 3.0 + 3.0 * u(rng), g.origin[2] + 2.5 + 2.5 * u(rng),
                2.0 * u(rng) - 1.0, 1.0 + u(rng));
}

void check_against_host(const atoms& a, const lattice& g, const placement_case& c, const std::vector<int>& chosen) {
  const std::size_t points = g.size();
  std::vector<std::array<double, 3>> pos(points);
  for (std::size_t p = 0; p < points; ++p) pos[p] = g.point(p);
  // V and the float32 error bound of each point: the strategies' relative error per term is below 1e-6 (fast
  // rsqrt, float32 coordinates; tests/potential/strategies/tolerance.hpp), so 4e-6 x sum |q| / r bounds a point's
  // error with room for the additions of the ions.
  std::vector<double> v(points, 0.0), bound(points, 0.0);
  auto add = [&](double x, double y, double z, double q) {
    for (std::size_t p = 0; p < points; ++p) {
      const double r2 = dist2(pos[p], x, y, z);
      v[p] += ppl::pair_potential_f64(c.pair, q, r2);
      bound[p] += std::abs(ppl::pair_potential_f64(c.pair, std::abs(q), r2));
    }
  };
  for (std::size_t n = 0; n < a.size(); ++n) add(a.x[n], a.y[n], a.z[n], a.q[n]);
  std::vector<char> allowed(points, 1);
  for (std::size_t p = 0; p < points; ++p) {
    int i, j, k;
    g.shape().ijk(std::int64_t(p), i, j, k);
    const int m = std::min({i, g.dims[0] - 1 - i, j, g.dims[1] - 1 - j, k, g.dims[2] - 1 - k});
    if (double(m) * g.spacing < c.border) allowed[p] = 0;
    for (std::size_t n = 0; n < a.size(); ++n)
      if (dist2(pos[p], a.x[n], a.y[n], a.z[n]) < c.min_solute * c.min_solute) allowed[p] = 0;
  }
  ASSERT_EQ(chosen.size(), c.charges.size()) << c.name << ": ran out of allowed points";
  for (std::size_t n = 0; n < chosen.size(); ++n) {
    const int q = c.charges[n];
    const std::size_t at = std::size_t(chosen[n]);
    ASSERT_TRUE(allowed[at]) << c.name << ": ion " << n << " at an excluded point " << at;
    // The distances, independently of the mask: solute, faces, earlier ions.
    for (std::size_t s = 0; s < a.size(); ++s)
      ASSERT_GE(std::sqrt(dist2(pos[at], a.x[s], a.y[s], a.z[s])), c.min_solute) << c.name << " ion " << n;
    for (int d = 0; d < 3; ++d) {
      ASSERT_GE(pos[at][d] - g.origin[d], c.border - 1e-9) << c.name << " ion " << n;
      ASSERT_GE(g.coord(d, g.dims[d] - 1) - pos[at][d], c.border - 1e-9) << c.name << " ion " << n;
    }
    for (std::size_t e = 0; e < n; ++e)
      ASSERT_GE(std::sqrt(dist2(pos[at], pos[std::size_t(chosen[e])][0], pos[std::size_t(chosen[e])][1],
                                pos[std::size_t(chosen[e])][2])),
                c.min_ions)
          << c.name << " ions " << e << " and " << n;
    // The extremum of q x V among the allowed points, in float64.
    std::size_t best = at;
    for (std::size_t p = 0; p < points; ++p)
      if (allowed[p] && q * v[p] < q * v[best]) best = p;
    const double slack = 4e-6 * (bound[at] + bound[best]) * std::abs(q);
    EXPECT_LE(q * v[at], q * v[best] + slack)
        << c.name << ": ion " << n << " (q " << q << ") at point " << at << " where q V = " << q * v[at]
        << ", but point " << best << " has q V = " << q * v[best] << " (slack " << slack << ")";
    // Then the ion is there: its sphere is excluded and its potential added.
    for (std::size_t p = 0; p < points; ++p)
      if (dist2(pos[p], pos[at][0], pos[at][1], pos[at][2]) < c.min_ions * c.min_ions) allowed[p] = 0;
    add(pos[at][0], pos[at][1], pos[at][2], q);
  }
}

const std::vector<placement_case>& cases() {
  static const std::vector<placement_case> c{
      {"coulomb_cations", ppl::coulomb_interaction(), {1, 1, 1, 1, 1, 1}, 2.0, 2.0, 0.0},
      {"coulomb_mixed", ppl::coulomb_interaction(), {1, -1, 2, -1, 1, -1, -1, 2}, 1.5, 1.5, 0.5},
      {"cutoff_cutcp", ppl::cutoff_interaction(4.0, ppl::cutoff_function::cutcp), {-1, 1, -1, 1, 1}, 1.5, 1.0, 0.0},
      {"cutoff_shifted", ppl::cutoff_interaction(3.0, ppl::cutoff_function::shifted), {2, -1, -1, 1}, 1.0, 2.5, 1.0},
  };
  return c;
}

}  // namespace

TEST(ion_placement, each_ion_at_the_extremum_of_the_updated_map_among_allowed_points) {
  for (std::uint64_t stream = 0; stream < 3; ++stream) {
    atoms a;
    lattice g;
    random_case(ppl_test::seed(stream), a, g);
    for (const auto& c : cases()) {
      const char* strategy = c.pair.is_cutoff() ? "cutoff_binned" : "gather_coarsened";
      SCOPED_TRACE(std::string(c.name) + " with " + strategy + ", stream " + std::to_string(stream));
      check_against_host(a, g, c, place_on_device(a, g, c, strategy));
    }
  }
}

TEST(ion_placement, masks_count_what_a_host_loop_counts) {
  lattice g;
  g.spacing = 0.5;
  g.dims = {12, 12, 12};
  atoms a;
  a.push_back(2.5, 2.5, 2.5, 0.0, 1.0);  // on point (5, 5, 5): 27 offsets with di^2 + dj^2 + dk^2 < 2^2
  ppl::ion_placer p(g, ppl::coulomb_interaction());
  const auto m = p.build_mask(a, 1.5, 1.0);
  EXPECT_EQ(m.inside_solute, 27);
  std::int64_t allowed = 0;
  for (std::size_t n = 0; n < g.size(); ++n) {
    const auto q = g.point(n);
    const bool inner = std::min({q[0], q[1], q[2], 5.5 - q[0], 5.5 - q[1], 5.5 - q[2]}) >= 1.0;
    allowed += inner && dist2(q, 2.5, 2.5, 2.5) >= 1.5 * 1.5;
  }
  EXPECT_EQ(m.allowed, allowed);
  EXPECT_EQ(p.count_allowed(), allowed);
  // A point at exactly the distance is allowed: (5 + 3, 5, 5) is 1.5 A away.
  auto mask = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.allowed());
  EXPECT_EQ(mask(g.index(8, 5, 5)), 1);
  EXPECT_EQ(mask(g.index(7, 6, 5)), 0);  // sqrt(5) x 0.5 = 1.118 A
}

TEST(ion_placement, reaches_beyond_the_lattice_cover_it_whole) {
  // A radius far larger than the lattice (the box of points of an atom is then the whole axis), and an atom far
  // outside it: every point is inside the first, the second excludes nothing, and nothing overflows.
  lattice g;
  g.spacing = 0.25;
  g.dims = {7, 5, 6};
  atoms a;
  a.push_back(0.5, 0.5, 0.5, 1.0, 1.0e5);
  a.push_back(-3.0e5, 2.0e5, 1.0e5, 1.0, 1.0);
  ppl::ion_placer p(g, ppl::coulomb_interaction());
  const auto m = p.build_mask(a, 0.3, 0.0);
  EXPECT_EQ(m.inside_solute, std::int64_t(g.size()));
  std::int64_t allowed = 0;
  for (std::size_t n = 0; n < g.size(); ++n) allowed += dist2(g.point(n), 0.5, 0.5, 0.5) >= 0.3 * 0.3;
  EXPECT_EQ(m.allowed, allowed);
  p.exclude_around(int(g.index(3, 2, 2)), 1.0e4);  // a sphere far larger than the lattice
  EXPECT_EQ(p.count_allowed(), 0);
}

TEST(ion_placement, ties_go_to_the_lowest_index_on_every_backend) {
  lattice g;
  g.spacing = 1.0;
  g.dims = {9, 8, 7};
  ppl::ion_placer p(g, ppl::coulomb_interaction());
  atoms none;
  EXPECT_EQ(p.build_mask(none, 0.0, 2.0).allowed, 5 * 4 * 3);
  ppl::potential_view v("v", g.size());  // zero everywhere: every allowed point ties
  const auto c = p.select(v, 1.0f);
  EXPECT_EQ(c.index, int(g.index(2, 2, 2)));
  // Two equal minima far apart: the one with the lower index wins, whichever thread saw it first.
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, 0.0f);
  h(g.index(6, 5, 4)) = -1.0f;
  h(g.index(3, 2, 3)) = -1.0f;
  Kokkos::deep_copy(v, h);
  EXPECT_EQ(p.select(v, 1.0f).index, int(g.index(3, 2, 3)));
  EXPECT_EQ(p.select(v, -1.0f).index, int(g.index(2, 2, 2)));  // anions: the highest V, ties again lowest index
  // Once excluded, the next one.
  p.exclude_around(int(g.index(3, 2, 3)), 1.0);
  EXPECT_EQ(p.select(v, 1.0f).index, int(g.index(6, 5, 4)));
  // Nothing allowed: -1.
  p.exclude_around(int(g.index(4, 4, 3)), 100.0);
  EXPECT_EQ(p.count_allowed(), 0);
  EXPECT_EQ(p.select(v, 1.0f).index, -1);
}

// add_ion clears the ion's exclusion sphere in its pass: the same points exclude_around clears, near faces and
// corners too, whether or not the pass also selects.
TEST(ion_placement, the_fused_exclusion_clears_exclude_arounds_sphere) {
  lattice g;
  g.origin = {1.0, 2.0, -3.0};
  g.spacing = 0.7;
  g.dims = {13, 11, 9};
  atoms none;
  for (const auto& [i, j, k, d] : std::vector<std::tuple<int, int, int, double>>{
           {6, 5, 4, 2.15}, {0, 0, 0, 3.05}, {12, 10, 8, 1.45}, {6, 0, 8, 0.69}, {3, 7, 2, 0.0}, {5, 5, 5, 50.0}})
    for (const bool select : {true, false}) {
      ppl::ion_placer fused(g, ppl::coulomb_interaction()), apart(g, ppl::coulomb_interaction());
      fused.build_mask(none, 0.0, 0.0);
      apart.build_mask(none, 0.0, 0.0);
      ppl::potential_view v("v", g.size());
      const int at = int(g.index(i, j, k));
      const float next = 1.0f;
      fused.add_ion(v, at, 1.0f, d, select ? &next : nullptr);
      apart.exclude_around(at, d);
      auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fused.allowed());
      auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), apart.allowed());
      std::size_t cleared = 0;
      for (std::size_t n = 0; n < g.size(); ++n) {
        ASSERT_EQ(a(n), b(n)) << "point " << n << ", centre " << at << ", distance " << d;
        cleared += b(n) == 0;
      }
      std::size_t expect = 0;  // the host's float64 distances
      for (std::size_t n = 0; n < g.size(); ++n) {
        const auto c = g.point(std::size_t(at));
        expect += dist2(g.point(n), c[0], c[1], c[2]) < d * d;
      }
      EXPECT_EQ(cleared, expect) << at << " " << d;
    }
}

TEST(ion_placement, the_update_adds_the_ion_term_everywhere_but_its_own_point) {
  lattice g;
  g.origin = {10.0, -3.0, 0.0};
  g.spacing = 0.5;
  g.dims = {10, 9, 8};
  for (const auto& pair : {ppl::coulomb_interaction(), ppl::cutoff_interaction(1.7, ppl::cutoff_function::truncated)}) {
    ppl::ion_placer p(g, pair);
    atoms none;
    p.build_mask(none, 0.0, 0.0);
    ppl::potential_view v("v", g.size());
    Kokkos::deep_copy(v, 0.25f);
    const int at = int(g.index(3, 4, 5));
    const float next = -1.0f;
    const auto c = p.add_ion(v, at, 2.0f, 0.0, &next);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    const auto ion = g.point(std::size_t(at));
    std::size_t best = 0;
    for (std::size_t n = 0; n < g.size(); ++n) {
      const double expect = 0.25 + ppl::pair_potential_f64(pair, 2.0, dist2(g.point(n), ion[0], ion[1], ion[2]));
      ASSERT_NEAR(h(n), expect, 1e-6 * std::abs(expect)) << n;
      if (-h(n) < -h(best)) best = n;
    }
    // The fused selection is the next ion's (q = -1): the highest V, which is next to the ion.
    EXPECT_EQ(c.index, int(best));
  }
}

TEST(ion_placement, per_point_and_per_atom_masks_agree_with_a_host_loop) {
  // Random atoms (radii 1-2 A) and reaches from none to beyond the lattice: both mask methods give the
  // host's float64 decisions point for point (a point at exactly the distance is allowed).
  for (std::uint64_t seed : {1u, 2u}) {
    atoms a;
    lattice g;
    random_case(seed, a, g);
    a.push_back(g.origin[0] - 30.0, g.origin[1] + 2.0, g.origin[2] + 40.0, 0.5, 1.5);  // far outside the lattice
    a.push_back(g.coord(0, 4), g.coord(1, 5), g.coord(2, 6), 0.0, 1.0);                // on a lattice point
    for (double rs : {0.0, 0.5, 1.0, 2.5, 7.0, 1000.0}) {
      std::vector<std::uint8_t> expect_allowed(g.size()), expect_inside(g.size());
      std::int64_t allowed = 0, inside = 0;
      for (std::size_t n = 0; n < g.size(); ++n) {
        // The kernels' float64 distance: i h - (x - origin), per axis.
        int i, j, k;
        g.shape().ijk(std::int64_t(n), i, j, k);
        bool near = false, in = false;
        for (std::size_t m = 0; m < a.size(); ++m) {
          const double dx = double(i) * g.spacing - (a.x[m] - g.origin[0]),
                       dy = double(j) * g.spacing - (a.y[m] - g.origin[1]),
                       dz = double(k) * g.spacing - (a.z[m] - g.origin[2]);
          const double d2 = dx * dx + dy * dy + dz * dz;
          near = near || d2 < rs * rs;
          in = in || d2 < a.radius[m] * a.radius[m];
        }
        expect_allowed[n] = !near, expect_inside[n] = in;
        allowed += !near, inside += in;
      }
      for (auto method : {ppl::mask_method::per_atom, ppl::mask_method::per_point}) {
        ppl::ion_placer p(g, ppl::coulomb_interaction());
        const auto m = p.build_mask(a, rs, 0.0, method);
        const char* name = method == ppl::mask_method::per_atom ? "per_atom" : "per_point";
        EXPECT_EQ(m.allowed, allowed) << name << " rs " << rs << " seed " << seed;
        EXPECT_EQ(m.inside_solute, inside) << name << " rs " << rs << " seed " << seed;
        auto mask = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.allowed());
        std::size_t wrong = 0;
        for (std::size_t n = 0; n < g.size(); ++n) wrong += mask(n) != expect_allowed[n];
        EXPECT_EQ(wrong, 0u) << name << " rs " << rs << " seed " << seed;
      }
    }
  }
}
