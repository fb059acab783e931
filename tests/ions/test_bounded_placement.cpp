// The bounded placement (src/ions/bounded_placement.hpp) against the full pass, its oracle: on seeded random cases
// (lattices that are not whole blocks, both ion signs and +2, exclusion radii from none to most of the lattice,
// Coulomb and the cutoff terms, ties, huge offsets, non-finite values, nothing allowed) the same ions in the same
// order, the same final map bits and mask. Then its bounds on their own: every float value a term takes at a point
// of a box lies in term_range's range, and every allowed value of a block (the full pass's map at that step) lies
// within the block's bounds.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bounded_placement.hpp"
#include "ppl/ions/ion_plan.hpp"
#include "ppl/ions/placement.hpp"
#include "ppl/potential/kernels/pair_terms.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "support/ppl_test.hpp"
#include "term_range.hpp"

namespace {

using ppl::atoms;
using ppl::interaction;
using ppl::lattice;
namespace detail = ppl::ions_detail;

// The map kinds of the cases.
enum class map_kind { strategy, zero, plateaus, offset, non_finite };

struct bounded_case {
  std::string name;
  lattice grid;
  interaction pair;
  map_kind map = map_kind::strategy;
  std::vector<const char*> species;  // in placement order
  double min_solute = 1.0, min_ions = 2.0, border = 0.0;
};

atoms random_atoms(std::mt19937_64& rng, const lattice& g, int n) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  atoms a;
  for (int m = 0; m < n; ++m) {
    double p[3];
    for (int d = 0; d < 3; ++d) p[d] = g.origin[d] + (0.15 + 0.7 * u(rng)) * (g.dims[d] - 1) * g.spacing;
    a.push_back(p[0], p[1], p[2], 2.0 * u(rng) - 1.0, 1.0 + u(rng));
  }
  return a;
}

// The case's map on the host.
std::vector<float> make_map(const bounded_case& c, const atoms& a, std::mt19937_64& rng) {
  const std::size_t n = c.grid.size();
  std::vector<float> m(n, 0.0f);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  if (c.map == map_kind::strategy) {
    auto s = ppl::make_potential_strategy(c.pair.is_cutoff() ? "cutoff_binned" : "gather_coarsened", {}, c.pair, "t");
    const auto plan = s->prepare({a, c.grid, c.pair});
    ppl::potential_view v("v", n);
    s->compute(*plan, v, ppl::write_mode::overwrite);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    std::copy(h.data(), h.data() + n, m.begin());
  } else if (c.map == map_kind::plateaus) {
    for (auto& x : m) x = float(int(4 * u(rng)) - 2) * 0.25f;  // four levels: most points tie with many others
  } else if (c.map == map_kind::offset) {
    // Far above the ions' terms: adding a term of 0.01 to 1e6 (ulp 0.0625) rounds it away, so the float sums fall
    // short of the exact ones by up to half an ulp per ion; the bounds' rounding term must cover that.
    for (auto& x : m) x = float(1.0e6 + 4.0 * u(rng));
  } else if (c.map == map_kind::non_finite) {
    for (auto& x : m) x = float(u(rng) - 0.5);
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    for (int k = 0; k < 12; ++k) m[std::size_t(u(rng) * double(n))] = k % 3 == 0 ? nan : k % 3 == 1 ? inf : -inf;
  }
  return m;
}

struct outcome {
  std::vector<int> points;
  std::vector<float> potentials;
  std::vector<std::int64_t> blocks;
  std::string error;
  std::vector<float> map;
  std::vector<std::uint8_t> mask;
};

outcome place(const bounded_case& c, const atoms& a, const std::vector<float>& map, ppl::placement_algorithm algo) {
  ppl::ion_placer p(c.grid, c.pair);
  p.build_mask(a, c.min_solute, c.border);
  ppl::potential_view v("v", map.size());
  auto h = Kokkos::create_mirror_view(v);
  std::copy(map.begin(), map.end(), h.data());
  Kokkos::deep_copy(v, h);
  std::vector<const ppl::ion_species*> order;
  for (const char* s : c.species) order.push_back(&ppl::find_ion_species(s));
  outcome o;
  try {
    // Collected as they come: a placement that runs out of room throws, and the ions before count too.
    ppl::place_ions(
        p, v, order, c.min_ions,
        [&](std::size_t, const ppl::placed_ion& ion) {
          o.points.push_back(ion.point);
          o.potentials.push_back(float(ion.potential));
          o.blocks.push_back(ion.blocks);
        },
        algo);
  } catch (const ppl::input_error& e) {
    o.error = e.what();
  }
  Kokkos::deep_copy(h, v);
  o.map.assign(h.data(), h.data() + map.size());
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.allowed());
  o.mask.assign(m.data(), m.data() + m.extent(0));
  return o;
}

lattice make_lattice(int nx, int ny, int nz, double h, std::array<double, 3> origin = {0, 0, 0}) {
  lattice g;
  g.dims = {nx, ny, nz};
  g.spacing = h;
  g.origin = origin;
  return g;
}

std::vector<bounded_case> cases() {
  const auto coulomb = ppl::coulomb_interaction();
  const std::vector<const char*> mixed{"Na+", "Cl-", "Mg2+", "Cl-", "Na+", "Cl-", "Cl-",  "Ca2+", "K+",  "Cl-",
                                       "Na+", "Cl-", "Na+",  "Na+", "Cl-", "Cl-", "Mg2+", "Cl-",  "Cl-", "Na+"};
  const std::vector<const char*> cations(24, "Na+"), anions(16, "Cl-");
  std::vector<bounded_case> c;
  auto add = [&](std::string name, lattice g, interaction pair, map_kind m, std::vector<const char*> sp, double solute,
                 double ions, double border) {
    c.push_back({std::move(name), g, pair, m, std::move(sp), solute, ions, border});
  };
  add("coulomb_mixed_21x17x13", make_lattice(21, 17, 13, 0.5, {-1, 0.5, 2}), coulomb, map_kind::strategy, mixed, 1.5,
      2.0, 0.0);
  add("coulomb_cations_40x33x27", make_lattice(40, 33, 27, 0.5), coulomb, map_kind::strategy, cations, 2.0, 3.0, 0.5);
  add("coulomb_anions_spacing_0.7", make_lattice(29, 9, 35, 0.7, {3, -2, 1}), coulomb, map_kind::strategy, anions, 1.0,
      1.6, 0.0);
  add("coulomb_one_block", make_lattice(8, 8, 8, 0.5), coulomb, map_kind::strategy, mixed, 0.5, 0.9, 0.0);
  add("coulomb_no_exclusion", make_lattice(17, 18, 19, 0.5), coulomb, map_kind::strategy, mixed, 1.0, 0.0, 0.0);
  add("cutcp", make_lattice(33, 25, 19, 0.5), ppl::cutoff_interaction(3.0, ppl::cutoff_function::cutcp),
      map_kind::strategy, mixed, 1.0, 1.5, 0.0);
  add("truncated", make_lattice(26, 30, 12, 0.5), ppl::cutoff_interaction(2.2, ppl::cutoff_function::truncated),
      map_kind::strategy, mixed, 1.0, 1.2, 0.5);
  add("shifted", make_lattice(19, 23, 31, 0.6), ppl::cutoff_interaction(4.5, ppl::cutoff_function::shifted),
      map_kind::strategy, mixed, 1.0, 2.0, 0.0);
  add("zero_map_ties", make_lattice(27, 14, 10, 0.5), coulomb, map_kind::zero, mixed, 0.0, 1.0, 0.0);
  add("plateaus", make_lattice(22, 22, 9, 0.5), coulomb, map_kind::plateaus, mixed, 0.0, 0.6, 0.0);
  add("plateaus_cutcp", make_lattice(22, 22, 9, 0.5), ppl::cutoff_interaction(2.0, ppl::cutoff_function::cutcp),
      map_kind::plateaus, mixed, 0.0, 0.6, 0.0);
  add("offset_1e6", make_lattice(25, 20, 15, 0.5), coulomb, map_kind::offset, mixed, 0.0, 1.0, 0.0);
  add("offset_1e6_truncated", make_lattice(25, 20, 15, 0.5),
      ppl::cutoff_interaction(3.0, ppl::cutoff_function::truncated), map_kind::offset, mixed, 0.0, 1.0, 0.0);
  add("non_finite", make_lattice(20, 11, 13, 0.5), coulomb, map_kind::non_finite, mixed, 0.0, 1.0, 0.0);
  // Runs out of room after a few ions (the sphere covers most of the lattice), and one where nothing is allowed.
  add("runs_out", make_lattice(18, 18, 18, 0.5), coulomb, map_kind::strategy, mixed, 1.0, 6.0, 0.0);
  add("nothing_allowed", make_lattice(12, 10, 9, 0.5), coulomb, map_kind::strategy, mixed, 1.0, 1.0, 3.0);
  return c;
}

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

TEST(bounded_placement, places_the_full_passs_ions_and_leaves_its_map_bits) {
  const auto all = cases();
  for (std::uint64_t stream = 0; stream < 3; ++stream) {
    for (std::size_t n = 0; n < all.size(); ++n) {
      const auto& c = all[n];
      SCOPED_TRACE(c.name + ", stream " + std::to_string(stream));
      std::mt19937_64 rng(ppl_test::seed(100 * stream + n));
      const atoms a = random_atoms(rng, c.grid, 10);
      const std::vector<float> map = make_map(c, a, rng);
      const outcome full = place(c, a, map, ppl::placement_algorithm::full_pass);
      const outcome bounded = place(c, a, map, ppl::placement_algorithm::bounded);
      ASSERT_EQ(bounded.points, full.points);
      EXPECT_EQ(bounded.error, full.error);
      for (std::size_t m = 0; m < full.potentials.size(); ++m)
        EXPECT_TRUE(same_bits(bounded.potentials[m], full.potentials[m])) << "ion " << m;
      std::size_t differ = 0, first = 0;
      for (std::size_t m = 0; m < map.size(); ++m)
        if (!same_bits(bounded.map[m], full.map[m]) && differ++ == 0) first = m;
      EXPECT_EQ(differ, 0u) << "first at point " << first << ": " << bounded.map[first] << " against "
                            << full.map[first];
      EXPECT_EQ(bounded.mask, full.mask);
      if (c.name == "nothing_allowed") {
        EXPECT_TRUE(full.points.empty());
      }
      if (c.name == "runs_out") {
        EXPECT_FALSE(full.error.empty());
        EXPECT_GT(full.points.size(), 2u);
      }
    }
  }
}

// The bounds prune: on a smooth map (a few atoms, a Coulomb map of 6^3 blocks), most ions bring few blocks up to date.
TEST(bounded_placement, brings_few_blocks_up_to_date_per_ion) {
  bounded_case c{"smooth",
                 make_lattice(48, 48, 48, 0.5),
                 ppl::coulomb_interaction(),
                 map_kind::strategy,
                 std::vector<const char*>(30, "Na+"),
                 3.0,
                 3.0,
                 0.0};
  std::mt19937_64 rng(ppl_test::seed());
  const atoms a = random_atoms(rng, c.grid, 6);
  const std::vector<float> map = make_map(c, a, rng);
  const outcome o = place(c, a, map, ppl::placement_algorithm::bounded);
  ASSERT_EQ(o.points.size(), c.species.size());
  std::vector<std::int64_t> b(o.blocks.begin() + 1, o.blocks.end() - 1);  // the first and last visit every block
  std::sort(b.begin(), b.end());
  EXPECT_LT(b[b.size() / 2], 216 / 4) << "median blocks per ion";
  EXPECT_GE(o.blocks.front(), 216);  // the first selection looks at every block
}

namespace {

// What the range test evaluates: per case a box of a (virtual) lattice, an ion and a term.
struct range_case {
  int lo[3], hi[3], c[3];
  float h, q;
};

// Counts, on the device, the float term values (add_ion_term on 0) at the box's points outside term_range's
// range, and how far the range overshoots the values' extremes (relative, for boxes without the ion's point).
template <class Term>
void check_ranges(const Term& term, const std::vector<range_case>& cases, double tight, const char* name,
                  bool loosen = false) {
  Kokkos::View<range_case*> dev("cases", cases.size());
  auto h = Kokkos::create_mirror_view(dev);
  for (std::size_t n = 0; n < cases.size(); ++n) h(n) = cases[n];
  Kokkos::deep_copy(dev, h);
  Kokkos::View<double*> slack("slack", cases.size());
  Kokkos::View<int*> outside("outside", cases.size());
  Kokkos::parallel_for(
      "test::term_ranges", Kokkos::RangePolicy<>(0, int(cases.size())), KOKKOS_LAMBDA(int n) {
        const range_case r = dev(n);
        const float ic[3] = {float(r.c[0]) * r.h, float(r.c[1]) * r.h, float(r.c[2]) * r.h};
        const detail::value_range t = detail::ion_term_range(term, r.q, detail::box_r2(r.lo, r.hi, r.c, ic, r.h));
        double vmin = detail::infinity, vmax = -detail::infinity;
        int bad = 0;
        for (int k = r.lo[2]; k <= r.hi[2]; ++k)
          for (int j = r.lo[1]; j <= r.hi[1]; ++j)
            for (int i = r.lo[0]; i <= r.hi[0]; ++i) {
              const float v = detail::add_ion_term(term, 0.0f, r.q, float(i) * r.h - ic[0], float(j) * r.h - ic[1],
                                                   float(k) * r.h - ic[2]);
              bad += !(v >= t.lo && v <= t.hi);
              vmin = v < vmin ? v : vmin;
              vmax = v > vmax ? v : vmax;
            }
        outside(n) = bad;
        const double scale = detail::dmax(detail::dabs(vmin), detail::dabs(vmax)) + 1e-30;
        slack(n) = detail::dmax(vmin - t.lo, t.hi - vmax) / scale;
      });
  auto bad = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), outside);
  auto sl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), slack);
  int total = 0;
  double worst = 0;
  for (std::size_t n = 0; n < cases.size(); ++n) {
    total += bad(n);
    const bool own = [&] {
      for (int a = 0; a < 3; ++a)
        if (cases[n].c[a] < cases[n].lo[a] || cases[n].c[a] > cases[n].hi[a]) return false;
      return true;
    }();
    if (!own) worst = std::max(worst, sl(n));
  }
  EXPECT_EQ(total, 0) << name << ": values outside their range";
  if (!loosen) {
    EXPECT_LT(worst, tight) << name << ": a range wider than its values by this much (relative)";
  }
}

std::vector<range_case> random_boxes(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pos(0, 1900), off(-12, 12), size(0, 7), pick(0, 3);
  std::vector<range_case> r;
  const float spacings[4] = {0.5f, 0.7f, 0.25f, 1.0f};
  for (int n = 0; n < 600; ++n) {
    range_case b;
    b.h = spacings[pick(rng)];
    b.q = n % 3 == 0 ? -1.0f : n % 3 == 1 ? 1.0f : 2.0f;
    for (int a = 0; a < 3; ++a) {
      // Boxes near the ion (inside, touching, a few spacings away) at coordinates up to ~1900 spacings.
      b.c[a] = pos(rng);
      b.lo[a] = b.c[a] + (n % 4 == 0 ? -size(rng) : off(rng));
      b.hi[a] = b.lo[a] + size(rng);
      if (b.lo[a] < 0) b.lo[a] = 0;
    }
    r.push_back(b);
  }
  return r;
}

}  // namespace

TEST(bounded_placement, term_ranges_hold_every_float_value_of_the_box) {
  for (std::uint64_t stream = 0; stream < 2; ++stream) {
    const auto boxes = random_boxes(ppl_test::seed(10 + stream));
    // Within 1e-3 of the values' own extremes (the offsets' margin is 2^-23 of the coordinates, up to 1900
    // spacings, for a product fused into the subtraction): the corners are lattice points.
    check_ranges(ppl::kernels::coulomb_term{}, boxes, 1e-3, "coulomb");
    // Cutoff terms: the range includes 0 when the box straddles rc, so only containment is checked.
    for (double rc : {1.3, 2.9, 5.0}) {
      check_ranges(ppl::kernels::truncated_term{float(rc * rc)}, boxes, 0, "truncated", true);
      check_ranges(ppl::kernels::cutcp_term{float(rc * rc), float(1.0 / (rc * rc))}, boxes, 0, "cutcp", true);
      check_ranges(ppl::kernels::shifted_term{float(rc * rc), float(1.0 / rc)}, boxes, 0, "shifted", true);
      ppl::msm_parameters m;
      m.cutoff = rc;
      check_ranges(ppl::kernels::make_msm_short_term(ppl::msm_interaction(m)), boxes, 0, "msm_short", true);
    }
  }
}

// Step by step against the full pass: after each ion, every live block's bounds hold the full pass's values at
// its allowed points (and the score bound their scores); a dead block has no allowed point left.
TEST(bounded_placement, block_bounds_hold_the_full_passs_values) {
  const auto all = cases();
  for (const char* which :
       {"coulomb_mixed_21x17x13", "offset_1e6", "offset_1e6_truncated", "cutcp", "plateaus", "shifted"}) {
    std::size_t at = 0;
    while (all[at].name != which) ++at;
    const bounded_case& c = all[at];
    SCOPED_TRACE(c.name);
    std::mt19937_64 rng(ppl_test::seed(1000 + at));
    const atoms a = random_atoms(rng, c.grid, 10);
    const std::vector<float> map = make_map(c, a, rng);
    ppl::ion_placer full(c.grid, c.pair), lazy(c.grid, c.pair);
    full.build_mask(a, c.min_solute, c.border);
    lazy.build_mask(a, c.min_solute, c.border);
    ppl::potential_view vf("vf", map.size()), vl("vl", map.size());
    auto h = Kokkos::create_mirror_view(vf);
    std::copy(map.begin(), map.end(), h.data());
    Kokkos::deep_copy(vf, h);
    Kokkos::deep_copy(vl, h);
    detail::bounded_placement b(lazy, vl);
    const auto shape = c.grid.shape();
    const int nbx = (shape.nx + 7) / 8, nby = (shape.ny + 7) / 8;
    auto cf = full.select(vf, float(ppl::find_ion_species(c.species[0]).charge));
    auto cb = b.select(float(ppl::find_ion_species(c.species[0]).charge));
    std::size_t checked = 0;
    for (std::size_t n = 0; n + 1 < c.species.size() && cf.index >= 0; ++n) {
      ASSERT_EQ(cb.index, cf.index) << "ion " << n;
      const float q = float(ppl::find_ion_species(c.species[n]).charge);
      const float next = float(ppl::find_ion_species(c.species[n + 1]).charge);
      cf = full.add_ion(vf, cf.index, q, c.min_ions, &next);
      cb = b.add_ion(cb.index, q, c.min_ions, &next);
      const auto states = b.states();
      auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), vf);
      auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), full.allowed());
      for (std::size_t p = 0; p < map.size(); ++p) {
        if (!m(p)) continue;
        int i, j, k;
        shape.ijk(std::int64_t(p), i, j, k);
        const auto& s = states[std::size_t((k / 8 * nby + j / 8) * nbx + i / 8)];
        ASSERT_TRUE(s.live) << "ion " << n << ": a dead block holds allowed point " << p;
        const auto bounds = detail::block_value_bounds(s);
        ASSERT_GE(double(v(p)), bounds.lo) << "ion " << n << ", point " << p << ", pending " << b.placed() - s.applied;
        ASSERT_LE(double(v(p)), bounds.hi) << "ion " << n << ", point " << p << ", pending " << b.placed() - s.applied;
        ASSERT_LE(detail::score_lower_bound(s, next), double(next * v(p))) << "ion " << n << ", point " << p;
        ++checked;
      }
    }
    EXPECT_GT(checked, 0u);
  }
}
