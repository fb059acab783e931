// Units, permittivity, the exclusion radius, the singularity rule and the float64 verification.
#include <gtest/gtest.h>

#include <cmath>

#include "ppl/core/error.hpp"
#include "ppl/potential/physics.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/potential/verification.hpp"

namespace {

ppl::lattice small_lattice() {
  ppl::lattice g;
  g.origin = {-2.0, -1.0, 0.5};
  g.spacing = 0.4;
  g.dims = {13, 11, 9};
  return g;
}

ppl::atoms some_atoms(std::size_t n, std::uint64_t seed) {
  const double lo[3] = {-2.5, -1.5, 0.0}, hi[3] = {3.5, 3.5, 4.0};
  return ppl::random_atoms(n, lo, hi, -1.0, 1.0, seed);
}

std::vector<float> exact_map(const ppl::atoms& a, const ppl::lattice& g) {
  std::vector<float> v(g.size());
  for (int k = 0; k < g.dims[2]; ++k)
    for (int j = 0; j < g.dims[1]; ++j)
      for (int i = 0; i < g.dims[0]; ++i)
        v[g.index(i, j, k)] =
            float(ppl::potential_f64(a, g.coord(0, i), g.coord(1, j), g.coord(2, k), ppl::coulomb_interaction()));
  return v;
}

}  // namespace

TEST(physics, unit_factors_and_names) {
  using ppl::potential_units;
  EXPECT_EQ(ppl::unit_factor(potential_units::e_per_angstrom), 1.0);
  EXPECT_EQ(ppl::unit_factor(potential_units::kcal_per_mol_e), 332.0636);
  EXPECT_EQ(ppl::unit_factor(potential_units::kT_per_e), 560.47254);
  // kT/e is kcal/(mol e) divided by k_B T at 298.15 K (R = 1.98720425864083e-3 kcal/(mol K)); VMD's 560.47254
  // comes from a slightly different set of constants (2.4e-5 apart), a units mix-up would be off by far more.
  EXPECT_NEAR(332.0636 / (1.98720425864083e-3 * 298.15), 560.47254, 560.47254 * 5e-5);
  // kJ/mol: CODATA 2018 (e, eps0 and N_A, computed here) and 4.184 x the kcal/mol constant agree to 3.4e-7.
  const double pi = 3.14159265358979323846, e = 1.602176634e-19, eps0 = 8.8541878128e-12, na = 6.02214076e23,
               kb = 1.380649e-23;
  const double coulomb_j = e * e / (4 * pi * eps0 * 1e-10);  // J per e^2/A
  EXPECT_NEAR(ppl::unit_factor(potential_units::kJ_per_mol_e), coulomb_j * na / 1000.0, 1389.35 * 1e-6);
  EXPECT_DOUBLE_EQ(ppl::unit_factor(potential_units::kJ_per_mol_e), 4.184 * 332.0636);
  EXPECT_NEAR(ppl::unit_factor(potential_units::kcal_per_mol_e), coulomb_j * na / 4184.0, 332.06 * 1e-6);
  // kT/e at T: 298.15 / T of VMD's constant, within 3e-5 of CODATA's e^2 / (4 pi eps0 A k_B T) at every T.
  for (double kelvin : {1.0, 273.15, 298.15, 310.0, 1000.0}) {
    const double codata = coulomb_j / (kb * kelvin);
    EXPECT_NEAR(ppl::unit_factor(potential_units::kT_per_e, kelvin), codata, codata * 3e-5) << kelvin;
    EXPECT_DOUBLE_EQ(ppl::unit_factor(potential_units::kT_per_e, kelvin), 560.47254 * 298.15 / kelvin) << kelvin;
  }
  EXPECT_EQ(ppl::unit_factor(potential_units::kT_per_e, 298.15), 560.47254);
  EXPECT_STREQ(ppl::unit_label(potential_units::kJ_per_mol_e), "kJ/(mol e)");
  for (const auto& name : ppl::potential_unit_names())
    EXPECT_EQ(ppl::config_name(ppl::parse_potential_units(name)), name);
  EXPECT_STREQ(ppl::unit_label(potential_units::kT_per_e), "kT/e");
  EXPECT_THROW(ppl::parse_potential_units("volts"), ppl::input_error);
}

TEST(physics, scaling_by_units_over_permittivity) {
  const auto g = small_lattice();
  const auto a = some_atoms(40, 3);
  const auto raw = exact_map(a, g);
  ppl::physics_options p;
  p.units = ppl::potential_units::kcal_per_mol_e;
  p.permittivity = 78.5;
  auto v = raw;
  EXPECT_EQ(ppl::apply_physics(p, a, g, v.data()), 0u);
  for (std::size_t n = 0; n < v.size(); ++n) ASSERT_EQ(v[n], float(double(raw[n]) * 332.0636 / 78.5)) << n;
}

TEST(physics, exclusion_matches_brute_force_and_keeps_the_boundary) {
  const auto g = small_lattice();
  auto a = some_atoms(25, 4);
  a.push_back(50.0, 50.0, 50.0, 1.0);  // far outside the lattice: nothing to exclude, no overflow
  a.push_back(-1e30, 1e30, 0.0, 1.0);
  a.push_back(g.coord(0, 3) + 1.2, g.coord(1, 4), g.coord(2, 5), 0.5);  // point (3,4,5) exactly at the radius
  ppl::physics_options p;
  p.exclusion_radius = 1.2;
  std::vector<float> v(g.size(), 1.0f);
  const auto excluded = ppl::apply_physics(p, a, g, v.data());
  std::size_t brute = 0;
  for (int k = 0; k < g.dims[2]; ++k)
    for (int j = 0; j < g.dims[1]; ++j)
      for (int i = 0; i < g.dims[0]; ++i) {
        bool near = false;
        for (std::size_t t = 0; t < a.size(); ++t) {
          const double dx = g.coord(0, i) - a.x[t], dy = g.coord(1, j) - a.y[t], dz = g.coord(2, k) - a.z[t];
          near = near || dx * dx + dy * dy + dz * dz < 1.2 * 1.2;
        }
        brute += near;
        ASSERT_EQ(v[g.index(i, j, k)], near ? 0.0f : 1.0f) << i << " " << j << " " << k;
      }
  EXPECT_EQ(excluded, brute);
  EXPECT_GT(brute, 0u);
  EXPECT_LT(brute, g.size());
}

TEST(physics, singularity_rule_in_the_float64_sum) {
  ppl::atoms a;
  a.push_back(1.0, 2.0, 3.0, 2.0);
  a.push_back(1.0, 2.0, 5.0, -1.0);
  // A point on the first atom: only the second contributes (-1 / 2 A).
  EXPECT_DOUBLE_EQ(ppl::potential_f64(a, 1.0, 2.0, 3.0, ppl::coulomb_interaction()), -0.5);
  // Just outside the coincidence radius (1e-4 A) the atom counts again.
  EXPECT_NEAR(ppl::potential_f64(a, 1.0, 2.0, 3.0 + 2e-4, ppl::coulomb_interaction()), 2.0 / 2e-4 - 1.0 / (2 - 2e-4),
              1e-6);
  EXPECT_DOUBLE_EQ(ppl::potential_f64(a, 1.0, 2.0, 3.0 + 0.5e-4, ppl::coulomb_interaction()), -1.0 / (2 - 0.5e-4));
  EXPECT_LT(ppl::coincidence_radius2, 1.01e-8);
}

TEST(verification, full_sample_auto_and_none) {
  const auto g = small_lattice();
  const auto a = some_atoms(30, 5);
  auto v = exact_map(a, g);
  ppl::verification_options o;
  auto r = ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data());
  EXPECT_EQ(r.mode, "full");  // 30 x 1287 pairs <= 2e8
  EXPECT_EQ(r.points, g.size());
  EXPECT_TRUE(r.passed);
  EXPECT_LT(r.error, 1e-7);  // float32 rounding of the stored values only
  EXPECT_GT(r.reference_norm, 0.0);
  o.full_limit = 100;  // now too big for a full check
  o.samples = 200;
  r = ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data());
  EXPECT_EQ(r.mode, "sample");
  EXPECT_EQ(r.points, 200u);
  EXPECT_TRUE(r.passed);
  o.mode = "none";
  r = ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data());
  EXPECT_EQ(r.mode, "none");
  EXPECT_EQ(r.points, 0u);
  EXPECT_TRUE(r.passed);
  o.mode = "sample";
  o.samples = 1000000;  // more samples than points: everything is checked once
  EXPECT_EQ(ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data()).mode, "full");
}

TEST(verification, detects_one_wrong_point_and_a_wrong_sign) {
  const auto g = small_lattice();
  const auto a = some_atoms(30, 6);
  auto v = exact_map(a, g);
  ppl::verification_options o;
  o.mode = "full";
  const std::size_t bad = g.index(7, 3, 2);
  const float keep = v[bad];
  v[bad] = keep + 0.05f * float(ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data()).reference_norm);
  auto r = ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data());
  EXPECT_FALSE(r.passed);
  EXPECT_NEAR(r.error, 0.05, 1e-4);
  v[bad] = keep;
  for (auto& x : v) x = -x;
  r = ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data());
  EXPECT_NEAR(r.error, 2.0, 1e-6);
  EXPECT_FALSE(r.passed);
}

TEST(verification, zero_atoms_and_non_finite_values) {
  const auto g = small_lattice();
  std::vector<float> v(g.size(), 0.0f);
  ppl::verification_options o;
  auto r = ppl::verify_potential(o, ppl::atoms{}, g, ppl::coulomb_interaction(), v.data());
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.error, 0.0);
  v[5] = 1.0f;  // anything non-zero against an all-zero reference fails
  EXPECT_FALSE(ppl::verify_potential(o, ppl::atoms{}, g, ppl::coulomb_interaction(), v.data()).passed);
  const auto a = some_atoms(10, 7);
  v = exact_map(a, g);
  v[9] = std::numeric_limits<float>::infinity();
  r = ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data());
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(std::isinf(r.error));
}

TEST(verification, a_truncated_cutoff_pair_within_rounding_of_the_radius_may_be_in_or_out) {
  // A float32 strategy decides r < rc on rounded coordinates: a pair 1e-9 A inside the radius may be left out, and
  // the map then steps by q / rc at that point. Such a map is exact; one that leaves out a pair 1e-3 A inside is not.
  ppl::lattice g;
  g.spacing = 1.0;
  g.dims = {5, 5, 5};
  const double rc = 2.5;
  const auto pair = ppl::cutoff_interaction(rc, ppl::cutoff_function::truncated);
  for (double inside : {1e-9, 1e-3}) {
    auto a = some_atoms(20, 8);
    a.push_back(-(rc - inside), 0.0, 0.0, 1.0);  // rc - inside from lattice point (0, 0, 0)
    std::vector<float> v(g.size());
    for (std::size_t n = 0; n < g.size(); ++n) {
      const auto p = g.point(n);
      v[n] = float(ppl::potential_f64(a, p[0], p[1], p[2], pair));
    }
    v[g.index(0, 0, 0)] -= float(1.0 / (rc - inside));  // the pair left out
    ppl::verification_options o;
    o.mode = "full";
    const auto r = ppl::verify_potential(o, a, g, pair, v.data());
    EXPECT_EQ(r.passed, inside < 1e-6) << inside << ": error " << r.error;
    if (inside < 1e-6) {
      EXPECT_LT(r.error, 1e-7);
    }
    // Coulomb-continuous functions have no step: the same pair left out of a cutcp map is an error.
    if (inside < 1e-6) {
      const auto smooth = ppl::cutoff_interaction(rc, ppl::cutoff_function::shifted);
      for (std::size_t n = 0; n < g.size(); ++n) {
        const auto p = g.point(n);
        v[n] = float(ppl::potential_f64(a, p[0], p[1], p[2], smooth));
      }
      v[g.index(0, 0, 0)] -= float(1.0 / (rc - inside) - 1.0 / rc) + 1e-3f;
      EXPECT_FALSE(ppl::verify_potential(o, a, g, smooth, v.data()).passed);
    }
  }
}

TEST(verification, a_map_that_cancels_to_zero_passes_within_float32_rounding_of_its_terms) {
  // Mirror charges about the plane z = 0: the float64 sum there is 0 (or a round-off), so any float32 rounding
  // error is an infinite relative error against it alone. Within half an ulp of sum |q| / r per point it passes
  // (the error is relative to 1/128 of that magnitude's norm); 100 ulps fail, and so does any error at tolerance 0.
  ppl::lattice g;
  g.origin = {-3.0, -3.0, 0.0};
  g.spacing = 0.5;
  g.dims = {13, 13, 1};
  ppl::atoms a;
  const double at[3][4] = {{0.0, 0.0, 1.0, 1.0}, {1.0, 2.0, 1.5, -0.5}, {-2.0, 0.5, 0.7, 0.8}};
  for (const auto& s : at) {
    a.push_back(s[0], s[1], s[2], s[3]);
    a.push_back(s[0], s[1], -s[2], -s[3]);
  }
  for (double ulps : {0.5, 100.0}) {
    std::vector<float> v(g.size());
    double ref2 = 0;
    for (std::size_t n = 0; n < g.size(); ++n) {
      const auto p = g.point(n);
      double magnitude = 0;
      for (std::size_t m = 0; m < a.size(); ++m)
        magnitude += std::abs(a.q[m]) /
                     std::sqrt(std::pow(p[0] - a.x[m], 2) + std::pow(p[1] - a.y[m], 2) + std::pow(p[2] - a.z[m], 2));
      const double ref = ppl::potential_f64(a, p[0], p[1], p[2], ppl::coulomb_interaction());
      ref2 += ref * ref;
      v[n] = float(ref + ((n % 2) ? 1 : -1) * ulps * 0x1.0p-24 * magnitude);
    }
    EXPECT_LT(std::sqrt(ref2), 1e-14);
    ppl::verification_options o;
    o.mode = "full";
    const auto r = ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data());
    EXPECT_EQ(r.passed, ulps < 10) << ulps << ": error " << r.error << ", magnitude " << r.magnitude_norm;
    EXPECT_GT(r.magnitude_norm, 0.0);
    EXPECT_NEAR(r.error, ulps * 0x1.0p-24 * 128.0, ulps * 0x1.0p-24 * 128.0 * 0.05);
    o.tolerance = 0.0;
    EXPECT_FALSE(ppl::verify_potential(o, a, g, ppl::coulomb_interaction(), v.data()).passed);
  }
}
