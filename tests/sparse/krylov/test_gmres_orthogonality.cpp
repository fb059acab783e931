// GMRES's Arnoldi basis stays orthogonal to working precision: after each restart cycle on ill-conditioned,
// convection-dominated nonsymmetric systems, max |V^T V - I| of the cycle's basis (read through
// gmres_observer) is below 1e-12. One classical Gram-Schmidt pass instead of CGS2 exceeds that on these
// systems by 2 to 4 orders of magnitude (docs/solver.md), so this test tells CGS2 from CGS1, which the convergence
// tests do not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "krylov_test_support.hpp"
#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl::test {
namespace {

using basis = Kokkos::View<const double**, Kokkos::LayoutLeft, sparse_space>;

// max_{a,b} |(V^T V - I)_{ab}| over the first `cols` columns, in float64 on the host.
double orthogonality_loss(const basis& V, int cols) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), V);
  const std::size_t n = h.extent(0);
  double worst = 0;
  for (int a = 0; a < cols; ++a)
    for (int b = a; b < cols; ++b) {
      double d = 0;
      for (std::size_t i = 0; i < n; ++i) d += h(i, a) * h(i, b);
      worst = std::max(worst, std::fabs(d - (a == b ? 1.0 : 0.0)));
    }
  return worst;
}

struct case_ {
  const char* name;
  double peclet;
  double decades;  // rows scaled by 10^u, u uniform in [-decades/2, decades/2]
  std::string M;
};

// Q1 convection-diffusion, n = 16 (3,375 rows, 27 per row), Galerkin convection (cell Peclet peclet / 32: above 1
// is convection-dominated, no longer an M-matrix), rows scaled over `decades` decades (with Jacobi, GMRES then works
// on S (A D^-1) S^-1: the same spectrum as unscaled, eigenvectors conditioned like S), b random. Three GMRES(30)
// cycles, none converged.
class gmres_orthogonality : public ::testing::TestWithParam<case_> {};

TEST_P(gmres_orthogonality, basis_is_orthonormal_after_each_cycle) {
  const case_ cs = GetParam();
  convection_diffusion_params p;
  p.n = 16;
  p.peclet = cs.peclet;
  host_csr h = to_host(make_convection_diffusion_matrix(p));
  std::mt19937_64 rng(7);
  std::vector<double> b(h.rows);
  for (int i = 0; i < h.rows; ++i) {
    const double scale = std::pow(10.0, uniform(rng, -cs.decades / 2, cs.decades / 2));
    for (auto k = h.row_map[i]; k < h.row_map[i + 1]; ++k) h.values[k] *= scale;
    b[i] = uniform(rng, -1.0, 1.0);
  }
  const crs_matrix A = to_device(h);

  const int m = gmres_params{}.restart;
  solver_options o;
  o.rtol = 1e-14;  // not reached in 3 cycles: each builds all m + 1 columns
  o.max_iters = 3 * m;
  o.preconditioner = cs.M;
  std::vector<double> loss;
  std::vector<int> columns;
  gmres_observer observer;
  observer.basis = [&](const basis& V, int cols) {
    loss.push_back(orthogonality_loss(V, cols));
    columns.push_back(cols);
  };
  auto spmv = make_spmv_strategy("scalar");
  spmv->prepare(A);
  vector_view x("x", A.numRows());
  const auto r = make_gmres(o, {}, observer)->solve(execution(), A, *spmv, to_device_vector(b), x);

  ASSERT_EQ(loss.size(), 3u) << to_string(r.outcome);
  for (std::size_t k = 0; k < loss.size(); ++k) {
    EXPECT_EQ(columns[k], m + 1) << k;
    EXPECT_LT(loss[k], 1e-12) << "cycle " << k;
  }
  std::printf("[ info     ] %s: max |V^T V - I| per cycle %.3g %.3g %.3g; ||r|| / ||b|| %.3g\n", cs.name, loss[0],
              loss[1], loss[2], r.residual_norm / r.b_norm);
}

INSTANTIATE_TEST_SUITE_P(convection_dominated, gmres_orthogonality,
                         ::testing::Values(case_{"pe100_rows4dec_jacobi", 100, 4, "jacobi"},
                                           case_{"pe100_rows6dec_jacobi", 100, 6, "jacobi"}),
                         [](const ::testing::TestParamInfo<case_>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace ppl::test
