// The interpolation bases (interpolation_basis.hpp) and the nested grids (multilevel_grid.hpp): each basis
// interpolates, reproduces the polynomials it claims and no more, is as smooth as it claims; the hierarchy covers
// what it must; restriction is the transpose of prolongation, and both reproduce what the bases reproduce.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/spatial/interpolation_basis.hpp"
#include "ppl/spatial/multilevel_grid.hpp"

namespace {

using ppl::spatial::basis_phi;
using ppl::spatial::basis_weights;

class basis : public ::testing::TestWithParam<int> {};

TEST_P(basis, interpolates_at_the_nodes_and_vanishes_beyond_its_support) {
  const int p = GetParam();
  EXPECT_DOUBLE_EQ(basis_phi(p, 0.0), 1.0);
  for (int m = 1; m <= 4; ++m) {
    EXPECT_NEAR(basis_phi(p, m), 0.0, 1e-15) << m;
    EXPECT_NEAR(basis_phi(p, -m), 0.0, 1e-15) << m;
  }
  const double support = (p + 1) / 2.0;
  for (double t : {support, support + 0.3, 7.0}) EXPECT_EQ(basis_phi(p, t), 0.0) << t;
  for (double t : {0.3, 1.2, support - 0.1}) EXPECT_DOUBLE_EQ(basis_phi(p, t), basis_phi(p, -t)) << t;
}

TEST_P(basis, reproduces_polynomials_below_its_degree_and_not_its_degree) {
  const int p = GetParam();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-20.0, 20.0);
  double worst_at_degree = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const double t = u(rng);
    double w[ppl::spatial::max_basis_nodes];
    const int first = basis_weights(p, t, w);
    for (int degree = 0; degree <= p; ++degree) {
      double sum = 0;
      for (int j = 0; j <= p; ++j) sum += w[j] * std::pow(double(first + j) - t, degree);  // (m - t)^degree
      const double exact = degree == 0 ? 1.0 : 0.0;
      if (degree < p)
        EXPECT_NEAR(sum, exact, 1e-11) << "degree " << degree << " at t = " << t;
      else
        worst_at_degree = std::max(worst_at_degree, std::abs(sum));
    }
  }
  // Degree p itself is not reproduced (the order is p, no more): a basis claiming too much would hide here.
  EXPECT_GT(worst_at_degree, 1e-3);
}

TEST_P(basis, is_as_smooth_as_declared_at_the_knots) {
  const int p = GetParam();
  const int smooth = p == 3 ? 1 : 2;  // C1 cubic, C2 quintic
  const double h = 1e-4;
  for (int knot = 0; knot <= (p + 1) / 2; ++knot) {
    const double t = knot;
    // One-sided derivatives by differences on each side of the knot.
    const double d1_left = (basis_phi(p, t) - basis_phi(p, t - h)) / h;
    const double d1_right = (basis_phi(p, t + h) - basis_phi(p, t)) / h;
    EXPECT_NEAR(d1_left, d1_right, 1e-3) << "slope jumps at " << t;
    const double d2_left = (basis_phi(p, t) - 2 * basis_phi(p, t - h) + basis_phi(p, t - 2 * h)) / (h * h);
    const double d2_right = (basis_phi(p, t + 2 * h) - 2 * basis_phi(p, t + h) + basis_phi(p, t)) / (h * h);
    if (smooth >= 2) {
      EXPECT_NEAR(d2_left, d2_right, 1e-2) << "curvature jumps at " << t;
    }
  }
  if (smooth < 2) {  // the cubic's curvature does jump at its knots (C1, not C2)
    const double d2_left = (basis_phi(p, 1.0) - 2 * basis_phi(p, 1.0 - h) + basis_phi(p, 1.0 - 2 * h)) / (h * h);
    const double d2_right = (basis_phi(p, 1.0 + 2 * h) - 2 * basis_phi(p, 1.0 + h) + basis_phi(p, 1.0)) / (h * h);
    EXPECT_GT(std::abs(d2_left - d2_right), 0.1);
  }
}

std::string basis_name(const ::testing::TestParamInfo<int>& param) {
  return param.param == 3 ? "cubic" : "quintic";
}
INSTANTIATE_TEST_SUITE_P(spatial, basis, ::testing::Values(3, 5), basis_name);

std::string order_name(const ::testing::TestParamInfo<int>& param) {
  return param.param == 3 ? "cubic" : "quintic";
}

// Values of the polynomial P on level k's nodes (global index m at m h_k), padded storage.
template <class F>
Kokkos::View<double*> sampled(const ppl::spatial::grid_level& l, F&& P) {
  Kokkos::View<double*> v("v", std::size_t(l.stored()));
  auto h = Kokkos::create_mirror_view(v);
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i)
        h(l.at(i, j, k)) = P((l.lo[0] + i) * l.h, (l.lo[1] + j) * l.h, (l.lo[2] + k) * l.h);
  Kokkos::deep_copy(v, h);
  return v;
}

// A free function: nvcc takes no device lambda in a test body (a private member function).
double dot(const Kokkos::View<double*>& x, const Kokkos::View<double*>& y) {
  double s = 0;
  Kokkos::parallel_reduce(
      "dot", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, std::int64_t(x.extent(0))),
      KOKKOS_LAMBDA(std::int64_t i, double& acc) { acc += x(i) * y(i); }, s);
  return s;
}

class hierarchy : public ::testing::TestWithParam<int> {};

TEST_P(hierarchy, covers_the_box_and_coarsens_to_a_small_top) {
  const int p = GetParam();
  const auto g = ppl::spatial::make_multilevel_grid({-13.0, 0.0, 2.5}, {41.0, 17.3, 3.0}, 2.5, p, 0, 2 * p, 1e9);
  ASSERT_GE(g.levels, 2);
  const auto& l0 = g.level[0];
  // Every basis node of every point of the box is stored.
  for (double x : {-13.0, 0.0, 40.99, 41.0}) {
    double w[ppl::spatial::max_basis_nodes];
    const int first = basis_weights(p, x / 2.5, w);
    EXPECT_GE(first, l0.lo[0]);
    EXPECT_LE(first + p, l0.lo[0] + l0.n[0] - 1);
  }
  for (int k = 0; k + 1 < g.levels; ++k) {
    const auto& f = g.level[k];
    const auto& c = g.level[k + 1];
    EXPECT_DOUBLE_EQ(c.h, 2 * f.h);
    for (int d = 0; d < 3; ++d) {  // restriction from any stored fine node lands on stored coarse nodes
      EXPECT_LE(2 * c.lo[d], f.lo[d] - p + 1);
      EXPECT_GE(2 * (c.lo[d] + c.n[d] - 1), f.lo[d] + f.n[d] - 1 + p - 1);
    }
  }
  const auto& top = g.level[g.levels - 1];
  EXPECT_LE(std::max({top.n[0], top.n[1], top.n[2]}), 2 * p + 4);
  const auto fixed = ppl::spatial::make_multilevel_grid({0, 0, 0}, {100, 100, 100}, 2.0, p, 3, 2 * p, 1e9);
  EXPECT_EQ(fixed.levels, 3);
}

TEST_P(hierarchy, refuses_a_box_that_needs_too_many_nodes) {
  const int p = GetParam();
  EXPECT_THROW(ppl::spatial::make_multilevel_grid({0, 0, 0}, {1e6, 1e6, 1e6}, 1.0, p, 0, 2 * p, 2e9),
               ppl::input_error);
  EXPECT_THROW(ppl::spatial::make_multilevel_grid({0, 0, 0}, {1, 1, 1}, 0.0, p, 0, 2 * p, 2e9), ppl::input_error);
  EXPECT_THROW(ppl::spatial::make_multilevel_grid({0, 0, 0}, {NAN, 1, 1}, 1.0, p, 0, 2 * p, 2e9), ppl::input_error);
}

TEST_P(hierarchy, prolongation_reproduces_low_degree_polynomials_and_is_restrictions_transpose) {
  const int p = GetParam();
  const auto g = ppl::spatial::make_multilevel_grid({0, 0, 0}, {30, 24, 20}, 1.5, p, 2, 2 * p, 1e9);
  ASSERT_EQ(g.levels, 2);
  const auto& f = g.level[0];
  const auto& c = g.level[1];
  auto P = [](double x, double y, double z) { return 0.5 + 0.1 * x - 0.02 * y * z + 0.003 * x * x; };
  const auto coarse = sampled(c, P);
  Kokkos::View<double*> fine("fine", std::size_t(f.stored()));
  ppl::spatial::prolong_add(Kokkos::DefaultExecutionSpace(), g, 0, coarse, fine);
  auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fine);
  // Interior fine nodes (all their coarse neighbours are stored and carry P) get P exactly.
  double worst = 0;
  for (int k = 2 * p; k < f.n[2] - 2 * p; ++k)
    for (int j = 2 * p; j < f.n[1] - 2 * p; ++j)
      for (int i = 2 * p; i < f.n[0] - 2 * p; ++i)
        worst = std::max(worst, std::abs(fh(f.at(i, j, k)) -
                                         P((f.lo[0] + i) * f.h, (f.lo[1] + j) * f.h, (f.lo[2] + k) * f.h)));
  EXPECT_LT(worst, 1e-11);
  // <P u, v> = <u, R v> for random u (coarse) and v (fine).
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> r(-1, 1);
  auto u = sampled(c, [&](double, double, double) { return r(rng); });
  auto v = sampled(f, [&](double, double, double) { return r(rng); });
  Kokkos::View<double*> Pu("Pu", std::size_t(f.stored())), Rv("Rv", std::size_t(c.stored()));
  ppl::spatial::prolong_add(Kokkos::DefaultExecutionSpace(), g, 0, u, Pu);
  ppl::spatial::restrict_to_coarser(Kokkos::DefaultExecutionSpace(), g, 0, v, Rv);
  const double a = dot(Pu, v), b = dot(u, Rv);
  EXPECT_NEAR(a, b, 1e-9 * std::abs(a) + 1e-12);
}

INSTANTIATE_TEST_SUITE_P(spatial, hierarchy, ::testing::Values(3, 5), order_name);

}  // namespace
