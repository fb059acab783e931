// cutoff_reference (the float64 cell-list oracle of the cutoff strategies) against the direct float64 all-pairs sum
// reference_potential(a, g, interaction): every cutoff function, radii below the spacing and beyond the lattice,
// atoms outside the lattice and far away, periodic boxes with atoms outside them, a real protein; pair counts
// against a brute-force count; overwrite / accumulate; Coulomb refused; and the comparison shown to catch a
// missing atom.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/potential/reference.hpp"
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

// Per point, |v - V| <= relative_tolerance * sum_a |t_a| (each term's size, so cancellation cannot hide an error):
// both are float64 sums of the same terms in different orders.
constexpr double relative_tolerance = 1e-12;

const std::vector<cutoff_function>& functions() {
  static const std::vector<cutoff_function> f{cutoff_function::truncated, cutoff_function::cutcp,
                                              cutoff_function::shifted};
  return f;
}

atoms with_abs_charges(atoms a) {
  for (double& q : a.q) q = std::abs(q);
  return a;
}

atoms concat(atoms a, const atoms& b) {
  for (std::size_t i = 0; i < b.size(); ++i) a.push_back(b.x[i], b.y[i], b.z[i], b.q[i]);
  return a;
}

atoms without(const atoms& a, std::size_t skip) {
  atoms out;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (i != skip) out.push_back(a.x[i], a.y[i], a.z[i], a.q[i]);
  return out;
}

// The largest |v - V| / (tolerance * sum |t|) over the points (<= 1 passes), and the relative L2 error.
struct check {
  double worst = 0.0, relative_l2 = 0.0;
  std::size_t worst_point = 0;
};
check compare_f64(const std::vector<double>& v, const std::vector<double>& expected, const std::vector<double>& abs_sum,
                  double tolerance = relative_tolerance) {
  check c;
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double d = std::abs(v[i] - expected[i]);
    double ratio = d / (tolerance * abs_sum[i] + 1e-300);
    if (std::isnan(ratio)) ratio = std::numeric_limits<double>::infinity();  // NaN is the worst
    if (ratio > c.worst) c.worst = ratio, c.worst_point = i;
    num += d * d;
    den += expected[i] * expected[i];
  }
  c.relative_l2 = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  return c;
}

// Pairs with r < rc, over all atoms and points (minimum image on a periodic lattice).
double brute_force_within(const atoms& a, const lattice& g, double rc) {
  const auto box = g.box();
  auto image = [](double d, double l) { return d - l * std::nearbyint(d / l); };
  double n = 0;
  for (std::size_t p = 0; p < g.size(); ++p) {
    const auto pt = g.point(p);
    for (std::size_t i = 0; i < a.size(); ++i) {
      double dx = pt[0] - a.x[i], dy = pt[1] - a.y[i], dz = pt[2] - a.z[i];
      if (g.periodic) dx = image(dx, box[0]), dy = image(dy, box[1]), dz = image(dz, box[2]);
      n += dx * dx + dy * dy + dz * dz < rc * rc;
    }
  }
  return n;
}

std::string label(const interaction& in, const lattice& g) {
  return in.describe() + (g.periodic ? ", periodic" : "");
}

// The float64 cell list against the all-pairs sum, its pair counts against brute force, and the strategy's
// float32 output (through prepare/compute on poisoned output) against the same sum rounded once.
void expect_matches_all_pairs(const atoms& a, const lattice& g, const interaction& in, bool count_pairs = true) {
  SCOPED_TRACE(label(in, g));
  const std::vector<double> expected = reference_potential(a, g, in);
  const std::vector<double> abs_sum = reference_potential(with_abs_charges(a), g, in);
  cutoff_pair_counts counts;
  const std::vector<double> v = cutoff_reference_potential(a, g, in, &counts);
  ASSERT_EQ(v.size(), g.size());
  const check c = compare_f64(v, expected, abs_sum);
  EXPECT_LE(c.worst, 1.0) << "point " << c.worst_point << ": " << v[c.worst_point] << " vs " << expected[c.worst_point];
  EXPECT_LE(c.relative_l2, relative_tolerance);
  EXPECT_LE(counts.within, counts.examined);
  EXPECT_LE(counts.examined, double(a.size()) * double(g.size()));
  if (count_pairs) {
    EXPECT_EQ(counts.within, brute_force_within(a, g, in.radius));
  }

  const auto s = make_potential_strategy("cutoff_reference", {}, in, "test", g.periodic);
  const auto plan = s->prepare({a, g, in});
  potential_view out("potential", g.size());
  Kokkos::deep_copy(out, std::numeric_limits<float>::quiet_NaN());
  s->compute(*plan, out, write_mode::overwrite);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::vector<double> f(h.data(), h.data() + h.extent(0));
  const check cf = compare_f64(f, expected, abs_sum, 1e-7);  // one float32 rounding: 2^-24 = 6e-8 of |V|
  EXPECT_LE(cf.worst, 1.0) << "float32 output, point " << cf.worst_point;
  EXPECT_EQ(plan->pairs_examined(), counts.examined);
  EXPECT_EQ(plan->pairs_within(), counts.within);
}

// Atoms in and around a small lattice (up to 4 A outside), some far away (up to 40 A outside), one exactly on a
// lattice point and one 1e-5 A from another (the singularity rule: both contribute nothing there).
atoms mixed_atoms(const lattice& g, std::uint64_t seed) {
  atoms a = concat(atoms_around(g, 300, 4.0, seed), atoms_around(g, 60, 40.0, seed + 1));
  const auto p = g.point(g.index(3, 2, 1)), r = g.point(g.index(10, 5, 4));
  a.push_back(p[0], p[1], p[2], 1.5);
  a.push_back(r[0] + 1e-5, r[1], r[2], -0.75);
  return a;
}

TEST(CutoffReference, MatchesAllPairsForEveryFunctionAndRadius) {
  const std::uint64_t seed = test_seed(11);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(0.25, -1.0, 2.0, 0.5, 23, 17, 11);  // 11 x 8 x 5 A
  const atoms a = mixed_atoms(g, seed);
  // Below the spacing, a few spacings, about the lattice, beyond the lattice (every atom, even the far ones).
  for (double radius : {0.3, 2.0, 6.5, 60.0})
    for (cutoff_function f : functions()) expect_matches_all_pairs(a, g, cutoff_interaction(radius, f));
}

TEST(CutoffReference, VisitsOnlyNearbyAtoms) {
  const std::uint64_t seed = test_seed(12);
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 40, 40, 40);  // 19.5 A
  const atoms a = atoms_around(g, 4000, 2.0, seed);
  cutoff_pair_counts counts;
  cutoff_reference_potential(a, g, cutoff_interaction(2.0, cutoff_function::cutcp), &counts);
  const double all = double(a.size()) * double(g.size());
  // 27 cells of ~2.5 A around a point hold about (3 * 2.5)^3 / 23.5^3 = 3% of the atoms; within 2 A about 0.2%.
  EXPECT_LT(counts.examined, 0.06 * all);
  EXPECT_GT(counts.within, 0.001 * all);
  EXPECT_LT(counts.within, 0.4 * counts.examined);
}

TEST(CutoffReference, PeriodicMatchesMinimumImage) {
  const std::uint64_t seed = test_seed(13);
  SCOPED_TRACE("seed " + std::to_string(seed));
  lattice g = make_lattice(-3.0, 1.0, 0.5, 0.5, 24, 20, 16);  // box 12 x 10 x 8 A
  g.periodic = true;
  const auto box = g.box();
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) lo[d] = g.origin[d] - 15.0, hi[d] = g.origin[d] + box[d] + 15.0;
  atoms a = on_grid(random_atoms(400, lo, hi, -2.0, 2.0, seed));  // most outside the box
  const auto p = g.point(g.index(0, 0, 0));
  a.push_back(p[0] + box[0], p[1] - box[1], p[2], 1.0);  // an image of point 0: singular there
  // Cells per axis: 29 x 24 x 19 (capped to 15 x 12 x 10), 7 x 6 x 5, 4 x 3 x 3, and at the largest radius allowed
  // (half the shortest side) 2 x 2 x 1: fewer than three, each neighbour cell visited once.
  for (double radius : {0.4, 1.5, 2.5, 4.0})
    for (cutoff_function f : functions()) expect_matches_all_pairs(a, g, cutoff_interaction(radius, f));
}

TEST(CutoffReference, PeriodicImagesGiveTheSameMap) {
  const std::uint64_t seed = test_seed(14);
  lattice g = make_lattice(1.0, 2.0, 3.0, 0.5, 20, 16, 12);
  g.periodic = true;
  const auto box = g.box();
  const atoms a = positive_atoms_in(g, 200, seed);
  atoms moved = a;
  for (std::size_t i = 0; i < a.size(); ++i) {
    moved.x[i] += double(int(i % 5) - 2) * box[0];
    moved.y[i] -= 3.0 * box[1];
    moved.z[i] += double(int(i % 3)) * box[2];
  }
  const interaction in = cutoff_interaction(2.9, cutoff_function::shifted);
  const auto v = cutoff_reference_potential(a, g, in), w = cutoff_reference_potential(moved, g, in);
  const auto abs_sum = reference_potential(a, g, in);  // positive charges
  EXPECT_LE(compare_f64(w, v, abs_sum).worst, 1.0);
}

TEST(CutoffReference, Ubiquitin) {
  const atoms a = read_pqr(ppl_test::data_path("molecules/ubq.pqr"));
  const lattice g = lattice_around(a, 1.5, 4.0);
  for (double radius : {8.0, 12.0})
    for (cutoff_function f : functions()) expect_matches_all_pairs(a, g, cutoff_interaction(radius, f), false);
}

TEST(CutoffReference, EmptyAndTinyRadius) {
  const lattice g = make_lattice(0.0, 0.0, 0.0, 1.0, 300, 300, 2);
  const interaction in = cutoff_interaction(1e-3, cutoff_function::truncated);
  atoms none;
  for (double v : cutoff_reference_potential(none, g, in)) ASSERT_EQ(v, 0.0);
  // A radius far below the spacing on a large lattice: the cells are capped (not 3e5 x 3e5 x 2000), and only the
  // atom within 1e-3 A of a point counts there.
  atoms a;
  a.push_back(10.0005, 20.0, 1.0, 2.0);  // 5e-4 A from point (10, 20, 1)
  a.push_back(50.3, 60.5, 0.5, 1.0);     // far from every point
  cutoff_pair_counts counts;
  const auto v = cutoff_reference_potential(a, g, in, &counts);
  EXPECT_EQ(counts.within, 1.0);
  EXPECT_NEAR(v[g.index(10, 20, 1)], 4000.0, 1e-6);  // q / r
  EXPECT_EQ(v[g.index(50, 60, 0)], 0.0);
}

TEST(CutoffReference, OverwriteAndAccumulate) {
  const std::uint64_t seed = test_seed(15);
  const lattice g = make_lattice(0.5, 0.5, 0.5, 0.5, 17, 9, 6);
  const atoms a = atoms_around(g, 150, 3.0, seed);
  const interaction in = cutoff_interaction(3.0, cutoff_function::cutcp);
  const auto s = make_strategy("cutoff_reference", {}, in);
  const auto plan = s->prepare({a, g, in});
  potential_view out("potential", g.size());
  Kokkos::deep_copy(out, 1.0e6f);
  // Copies (create_mirror, not create_mirror_view: on a host backend the mirror view is `out` itself).
  auto copy = [&] {
    auto h = Kokkos::create_mirror(Kokkos::HostSpace(), out);
    Kokkos::deep_copy(h, out);
    return h;
  };
  s->compute(*plan, out, write_mode::overwrite);
  const auto once = copy();
  s->compute(*plan, out, write_mode::accumulate);
  const auto twice = copy();
  const auto expected = reference_potential(a, g, in);
  const auto abs_sum = reference_potential(with_abs_charges(a), g, in);
  for (std::size_t i = 0; i < g.size(); ++i) {
    ASSERT_NEAR(once(i), expected[i], 1e-7 * abs_sum[i] + 1e-30) << i;
    ASSERT_NEAR(twice(i), 2.0 * expected[i], 3e-7 * abs_sum[i] + 1e-30) << i;
  }
  const double within = plan->pairs_within();
  s->compute(*plan, out, write_mode::overwrite);  // the counts are the same on every call
  EXPECT_EQ(plan->pairs_within(), within);
  EXPECT_GT(within, 0.0);
}

TEST(CutoffReference, RefusesCoulomb) {
  const auto msg = ppl_test::error_of<input_error>([] { make_strategy("cutoff_reference"); });
  EXPECT_NE(msg.find("does not support the coulomb interaction"), std::string::npos) << msg;
  const lattice g = make_lattice(0, 0, 0, 1, 2, 2, 2);
  atoms a;
  a.push_back(0.5, 0.5, 0.5, 1.0);
  EXPECT_THROW(cutoff_reference_potential(a, g, coulomb_interaction()), input_error);
  EXPECT_NO_THROW(make_potential_strategy("cutoff_reference", {}, cutoff_interaction(1.0, cutoff_function::cutcp),
                                          "test", true));
  const auto& entry = *potential_strategies().find("cutoff_reference");
  EXPECT_TRUE(entry.can("cutoff"));
  EXPECT_TRUE(entry.can("periodic"));
  EXPECT_FALSE(entry.can("coulomb"));
}

// The comparison can fail: with one atom within the radius of a lattice point left out, that point is off by the
// atom's term, far beyond the tolerance; an atom beyond the radius of every point changes nothing, bit for bit.
TEST(CutoffReference, DetectsAMissingAtom) {
  const std::uint64_t seed = test_seed(16);
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 21, 21, 21);
  atoms a = atoms_around(g, 200, 1.0, seed);
  a.push_back(4.1, 5.3, 6.2, 0.8);      // 0.3 A from point (8, 11, 12)
  a.push_back(10.0, 10.0, 18.01, 1.0);  // 8.01 A above the top plane: beyond an 8 A radius of every point
  const interaction in = cutoff_interaction(8.0, cutoff_function::cutcp);
  const auto expected = reference_potential(a, g, in);
  const auto abs_sum = reference_potential(with_abs_charges(a), g, in);
  const auto full = cutoff_reference_potential(a, g, in);
  EXPECT_LE(compare_f64(full, expected, abs_sum).worst, 1.0);

  const auto missing_near = cutoff_reference_potential(without(a, a.size() - 2), g, in);
  const check c = compare_f64(missing_near, expected, abs_sum);
  EXPECT_GT(c.worst, 1e6);
  const std::size_t p = g.index(8, 11, 12);
  EXPECT_GT(std::abs(missing_near[p] - expected[p]), 1.0);  // 0.8 e at < 0.3 A: more than 2 e/A

  const auto missing_far = cutoff_reference_potential(without(a, a.size() - 1), g, in);
  for (std::size_t i = 0; i < g.size(); ++i) ASSERT_EQ(missing_far[i], full[i]) << i;
}

}  // namespace
}  // namespace ppl::test
