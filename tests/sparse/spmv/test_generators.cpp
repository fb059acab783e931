// The Q1 convection-diffusion generator against an independent host assembly (2x2x2 Gauss quadrature of the
// trilinear shape functions, element by element into a map), plus its structural properties: 27/81 nonzeros per
// interior row, nonsymmetry, zero row sums away from the boundary, b = A x*, positive realness, and that
// Jacobi-BiCGSTAB solves it in a modest number of iterations.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

#include "host_reference.hpp"
#include "ppl/core/error.hpp"
#include "ppl/sparse/generators.hpp"

namespace ppl {
namespace {

convection_diffusion_params params(int n, int comps, double peclet) {
  convection_diffusion_params p;
  p.n = n;
  p.components = comps;
  p.peclet = peclet;
  return p;
}

// Independent assembly: shape-function gradients evaluated at Gauss points, element loop, scatter into a map.
std::map<std::pair<int, int>, double> reference_assembly(const convection_diffusion_params& p) {
  const int n = p.n, m = n - 1, c = p.components;
  const double h = 1.0 / n, g = 0.5 / std::sqrt(3.0);
  const double dir[3] = {1.0, 0.6, 0.3}, dn = std::sqrt(1.0 + 0.36 + 0.09);
  double beta[3];
  for (int d = 0; d < 3; ++d) beta[d] = p.peclet * dir[d] / dn;
  double q[3][3];
  component_coupling_matrix(q);
  std::map<std::pair<int, int>, double> A;
  auto interior = [&](int I, int J, int K) { return I > 0 && I < n && J > 0 && J < n && K > 0 && K < n; };
  for (int ez = 0; ez < n; ++ez)
    for (int ey = 0; ey < n; ++ey)
      for (int ex = 0; ex < n; ++ex) {
        double K[8][8] = {}, C[8][8] = {}, M[8][8] = {};
        for (int qp = 0; qp < 8; ++qp) {
          const double xi[3] = {0.5 + ((qp & 1) ? g : -g), 0.5 + ((qp & 2) ? g : -g), 0.5 + ((qp & 4) ? g : -g)};
          const double w = h * h * h / 8;
          double phi[8], grad[8][3];
          for (int a = 0; a < 8; ++a) {
            double f[3], df[3];
            for (int d = 0; d < 3; ++d) {
              const int bit = (a >> d) & 1;
              f[d] = bit ? xi[d] : 1 - xi[d];
              df[d] = (bit ? 1.0 : -1.0) / h;
            }
            phi[a] = f[0] * f[1] * f[2];
            grad[a][0] = df[0] * f[1] * f[2];
            grad[a][1] = f[0] * df[1] * f[2];
            grad[a][2] = f[0] * f[1] * df[2];
          }
          for (int a = 0; a < 8; ++a)
            for (int b = 0; b < 8; ++b) {
              K[a][b] += w * (grad[a][0] * grad[b][0] + grad[a][1] * grad[b][1] + grad[a][2] * grad[b][2]);
              C[a][b] += w * phi[a] * (beta[0] * grad[b][0] + beta[1] * grad[b][1] + beta[2] * grad[b][2]);
              M[a][b] += w * phi[a] * phi[b];
            }
        }
        for (int a = 0; a < 8; ++a)
          for (int b = 0; b < 8; ++b) {
            const int Ia = ex + (a & 1), Ja = ey + ((a >> 1) & 1), Ka = ez + ((a >> 2) & 1);
            const int Ib = ex + (b & 1), Jb = ey + ((b >> 1) & 1), Kb = ez + ((b >> 2) & 1);
            if (!interior(Ia, Ja, Ka) || !interior(Ib, Jb, Kb)) continue;
            const int na = (Ia - 1) + m * ((Ja - 1) + m * (Ka - 1)), nb = (Ib - 1) + m * ((Jb - 1) + m * (Kb - 1));
            for (int ca = 0; ca < c; ++ca)
              for (int cb = 0; cb < c; ++cb) {
                double v = (ca == cb ? (K[a][b] + C[a][b]) / h : 0.0);
                if (c > 1) v += p.coupling * q[ca][cb] * M[a][b] / (h * h * h);
                A[{na * c + ca, nb * c + cb}] += v;
              }
          }
      }
  return A;
}

class generator_test : public ::testing::TestWithParam<int> {};  // parameter: components

TEST_P(generator_test, matches_an_independent_quadrature_assembly) {
  for (double pe : {0.0, 0.7, 50.0}) {
    const auto p = params(6, GetParam(), pe);
    const host_csr A = to_host(make_convection_diffusion_matrix(p));
    const auto ref = reference_assembly(p);
    ASSERT_EQ(A.values.size(), ref.size());
    ASSERT_EQ(static_cast<std::int64_t>(ref.size()), convection_diffusion_nnz(p));
    ASSERT_EQ(A.rows, convection_diffusion_rows(p));
    double scale = 0;
    for (const auto& kv : ref) scale = std::max(scale, std::abs(kv.second));
    for (int r = 0; r < A.rows; ++r)
      for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) {
        if (j > A.row_map[r]) {
          ASSERT_LT(A.entries[j - 1], A.entries[j]) << "columns sorted, row " << r;
        }
        const auto it = ref.find({r, A.entries[j]});
        ASSERT_NE(it, ref.end()) << "entry (" << r << ", " << A.entries[j] << ") not in the reference";
        EXPECT_NEAR(A.values[j], it->second, 1e-13 * scale) << "entry (" << r << ", " << A.entries[j] << "), Pe " << pe;
      }
  }
}

TEST_P(generator_test, stencil_sizes_nonsymmetry_and_row_sums) {
  const int c = GetParam(), n = 7, m = n - 1;
  const host_csr A = to_host(make_convection_diffusion_matrix(params(n, c, 20.0)));
  std::map<std::pair<int, int>, double> entry;
  for (int r = 0; r < A.rows; ++r)
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) entry[{r, A.entries[j]}] = A.values[j];
  double asym = 0, amax = 0;
  for (const auto& kv : entry) {
    amax = std::max(amax, std::abs(kv.second));
    const auto t = entry.find({kv.first.second, kv.first.first});
    ASSERT_NE(t, entry.end()) << "structurally symmetric";
    asym = std::max(asym, std::abs(kv.second - t->second));
  }
  EXPECT_GT(asym, 0.1 * amax) << "nonsymmetric through the Peclet number";
  int full_rows = 0;
  for (int r = 0; r < A.rows; ++r) {
    const int node = r / c, i = node % m, j = (node / m) % m, k = node / (m * m);
    const bool deep = i > 0 && i < m - 1 && j > 0 && j < m - 1 && k > 0 && k < m - 1;
    const auto len = A.row_map[r + 1] - A.row_map[r];
    if (!deep) {
      EXPECT_LT(len, 27 * c);
      continue;
    }
    ++full_rows;
    EXPECT_EQ(len, 27 * c) << "interior row " << r;
    if (c == 1) {  // constants are in the kernel of diffusion and convection away from the boundary
      double sum = 0, abs_sum = 0;
      for (auto e = A.row_map[r]; e < A.row_map[r + 1]; ++e) sum += A.values[e], abs_sum += std::abs(A.values[e]);
      EXPECT_LE(std::abs(sum), 1e-13 * abs_sum) << "row " << r;
    }
  }
  EXPECT_EQ(full_rows, (m - 2) * (m - 2) * (m - 2) * c);
  EXPECT_EQ(A.row_map[1] - A.row_map[0], 8 * c) << "a corner node has 8 neighbours";
}

TEST(generator, pure_diffusion_is_symmetric) {
  const host_csr A = to_host(make_convection_diffusion_matrix(params(6, 1, 0.0)));
  std::map<std::pair<int, int>, double> entry;
  for (int r = 0; r < A.rows; ++r)
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) entry[{r, A.entries[j]}] = A.values[j];
  for (const auto& kv : entry) EXPECT_NEAR(kv.second, (entry[{kv.first.second, kv.first.first}]), 1e-14);
}

TEST_P(generator_test, b_is_A_times_the_manufactured_solution) {
  const auto p = params(10, GetParam(), 30.0);
  const generated_system s = make_convection_diffusion(p);
  const host_csr A = to_host(s.A);
  const auto x = to_host(s.x_exact), b = to_host(s.b);
  // x* is the smooth function of the node coordinates the header promises.
  const double h = 1.0 / p.n, pi = std::acos(-1.0);
  const int m = p.n - 1, c = p.components;
  for (int r : {0, A.rows / 2, A.rows - 1}) {
    const int node = r / c, comp = r % c;
    const double px = h * (node % m + 1), py = h * ((node / m) % m + 1), pz = h * (node / (m * m) + 1);
    EXPECT_NEAR(x[r],
                1.0 + 0.5 * px - 0.25 * py + std::sin(pi * (px + 0.5 * comp)) * std::cos(2 * pi * py) * (1 + pz * pz),
                1e-14);
  }
  EXPECT_EQ(test::compare_rows(b, test::host_spmv(A, x)), "");
}

TEST_P(generator_test, positive_real) {
  const host_csr A = to_host(make_convection_diffusion_matrix(params(8, GetParam(), 100.0)));
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto x = test::random_vector(A.cols, seed);
    const auto y = test::host_spmv(A, x).y;
    double xax = 0, xx = 0;
    for (int i = 0; i < A.rows; ++i) xax += x[i] * y[i], xx += x[i] * x[i];
    EXPECT_GT(xax, 1e-3 * xx);
  }
}

INSTANTIATE_TEST_SUITE_P(components, generator_test, ::testing::Values(1, 3),
                         [](const ::testing::TestParamInfo<int>& i) { return std::to_string(i.param) + "_per_node"; });

TEST(generator, sizes_at_scale_without_building) {
  // n = 146: 145^3 = 3,048,625 rows, 433^3 nonzeros (27-point); n = 101: 3 * 100^3 rows, 9 * 298^3 (81-point).
  EXPECT_EQ(convection_diffusion_n_for_rows(3000000, 1), 146);
  EXPECT_EQ(convection_diffusion_rows(params(146, 1, 1)), 3048625);
  EXPECT_EQ(convection_diffusion_nnz(params(146, 1, 1)), 81182737);
  EXPECT_EQ(convection_diffusion_n_for_rows(3000000, 3), 101);
  EXPECT_EQ(convection_diffusion_rows(params(101, 3, 1)), 3000000);
  EXPECT_EQ(convection_diffusion_nnz(params(101, 3, 1)), 238172328);
}

TEST(generator, bad_parameters_are_input_errors) {
  EXPECT_THROW(make_convection_diffusion_matrix(params(1, 1, 1.0)), input_error);
  EXPECT_THROW(make_convection_diffusion_matrix(params(4, 2, 1.0)), input_error);
  EXPECT_THROW(make_convection_diffusion_matrix(params(4, 1, -1.0)), input_error);
  EXPECT_THROW(make_convection_diffusion_matrix(params(4, 1, std::nan(""))), input_error);
  EXPECT_THROW(make_convection_diffusion_matrix(params(2000, 1, 1.0)), input_error);  // > 2^31 rows
}

}  // namespace
}  // namespace ppl
