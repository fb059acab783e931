// Golden values of the sparse generators. The convection-diffusion generator: the same parameters give the same matrix,
// x* and b on every platform, thread count and backend (the generator has no random input; these pin its arithmetic).
// Structure (rows, nonzeros, a hash of the row offsets and column indices) must match exactly; values to 1e-12
// relative, the room a GPU's fused multiply-adds and device sin/cos leave. The numbers were printed by this build
// (OpenMP, 1 and 2 threads alike) when the test was written; a change of the discretisation, the velocity, the
// coupling, the numbering or x* moves them far beyond that tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "host_reference.hpp"
#include "ppl/sparse/generators.hpp"

namespace ppl {
namespace {

// FNV-1a over the row offsets and column indices, each as 8 little-endian bytes.
std::uint64_t structure_hash(const host_csr& A) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ULL;
    }
  };
  for (auto r : A.row_map) mix(static_cast<std::uint64_t>(r));
  for (auto c : A.entries) mix(static_cast<std::uint64_t>(c));
  return h;
}

double entry(const host_csr& A, int r, int c) {
  for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j)
    if (A.entries[j] == c) return A.values[j];
  ADD_FAILURE() << "no entry (" << r << ", " << c << ")";
  return 0.0;
}

struct golden {
  convection_diffusion_params p;
  int rows;
  std::size_t nnz;
  std::uint64_t hash;
  double sum, abs_sum, weighted_sum;  // of the values; weighted: value k times (k mod 7) + 1
  double b_sum, x_sum;
  std::vector<double> b_at, x_at;  // at rows 0, rows / 2 (x*: and rows - 1 for b)
  struct at {
    int r, c;
    double v;
  };
  std::vector<at> entries;
};

void expect_close(double got, double want, const char* what) {
  EXPECT_NEAR(got, want, 1e-12 * std::max(1.0, std::fabs(want))) << what;
}

void check(const golden& g) {
  const auto s = make_convection_diffusion(g.p);
  const host_csr A = to_host(s.A);
  const auto b = to_host(s.b), x = to_host(s.x_exact);
  ASSERT_EQ(A.rows, g.rows);
  ASSERT_EQ(A.values.size(), g.nnz);
  EXPECT_EQ(structure_hash(A), g.hash);
  double sum = 0, abs_sum = 0, weighted = 0, b_sum = 0, x_sum = 0;
  for (std::size_t k = 0; k < A.values.size(); ++k) {
    sum += A.values[k];
    abs_sum += std::fabs(A.values[k]);
    weighted += A.values[k] * static_cast<double>(k % 7 + 1);
  }
  for (double v : b) b_sum += v;
  for (double v : x) x_sum += v;
  expect_close(sum, g.sum, "sum of the values");
  expect_close(abs_sum, g.abs_sum, "sum of |values|");
  expect_close(weighted, g.weighted_sum, "weighted sum of the values");
  expect_close(b_sum, g.b_sum, "sum of b");
  expect_close(x_sum, g.x_sum, "sum of x*");
  const int rows[] = {0, A.rows / 2, A.rows - 1};
  for (int i = 0; i < 3; ++i) expect_close(b[rows[i]], g.b_at[i], "b at a row");
  for (int i = 0; i < 2; ++i) expect_close(x[rows[i]], g.x_at[i], "x* at a row");
  for (const auto& e : g.entries) expect_close(entry(A, e.r, e.c), e.v, "an entry");
}

TEST(generator_golden, one_component_peclet_10) {
  check({{6, 1, 10.0, 1.0},
         125,
         2197,
         0xc62d75e045fac0fcULL,
         130.66666666666637,
         652.87882349785787,
         514.21297233074256,
         153.1874802428662,
         116.26300167281427,
         {3.9711795324454506, -1.4143318249635393, 2.6161531214967901},
         {1.2986111111111109, -0.125},
         {{0, 0, 2.6666666666666665},
          {0, 1, 0.30757585131014797},
          {0, 5, 0.1845455107860888},
          {62, 31, -0.11985796567641339},
          {62, 32, -0.23587123321144998},
          {124, 98, -0.26662881834246477}}});
}

TEST(generator_golden, three_components_coupling_0_7) {
  check({{5, 3, 1.0, 0.7},
         192,
         9000,
         0x98608e5ae5cf2947ULL,
         293.76111111111175,
         869.78537697684226,
         1139.4648958112402,
         333.47557841095369,
         216.00000000000006,
         {3.3015739196210179, 3.2607172272514555, 1.4558817688099395},
         {1.2389010572813939, 1.2970244595218228},
         {{0, 0, 2.7703703703703697},
          {0, 1, 0.062222222222222207},
          {0, 2, -0.041481481481481466},
          {96, 48, 0.014853195278760519},
          {191, 127, -0.00081018518518518495},
          {191, 128, -0.086095918844132577}}});
}

// Two of the numbers above follow from the formulas alone: the Q1 stiffness diagonal summed over a node's 8
// elements is 8/3 after the 1/h scaling (Galerkin convection has a zero diagonal), and x* at the centre of the cube
// is 1 + 0.25 - 0.125 + sin(pi/2) cos(pi) (1 + 0.25) = -0.125.
TEST(generator_golden, closed_forms) {
  const auto s = make_convection_diffusion({6, 1, 10.0, 1.0});
  const host_csr A = to_host(s.A);
  EXPECT_NEAR(entry(A, 62, 62), 8.0 / 3.0, 1e-15);
  EXPECT_NEAR(to_host(s.x_exact)[62], -0.125, 1e-15);
}

// The seeded random matrices and vectors of the SpMV tests (host_reference.hpp through portable_random.hpp): the
// same seed gives the same row lengths, columns and values with every standard library (the standard distributions
// and std::shuffle would not). Integers exactly; values to 1e-15 (a compiler may fuse lo + (hi - lo) u).
TEST(generator_golden, seeded_test_matrices) {
  const auto lengths = test::edge_case_row_lengths(20, 3);
  EXPECT_EQ(lengths, (std::vector<int>{30, 6,  0,  1,  35, 1,  31, 33, 1000, 59, 25, 50, 12,
                                       26, 60, 59, 53, 65, 31, 52, 54, 1,    17, 33, 16}));
  const host_csr A = test::random_csr(lengths, 1100, 4);
  ASSERT_EQ(A.values.size(), 1750u);
  EXPECT_EQ(structure_hash(A), 0xd2378298bff93ddcULL);
  EXPECT_EQ(A.entries[0], 38);
  double sum = 0;
  for (double v : A.values) sum += v;
  EXPECT_NEAR(sum, -34.503001775638076, 1e-12);
  EXPECT_NEAR(A.values.front(), -0.36970215754854241, 1e-15);
  EXPECT_NEAR(A.values.back(), -0.12820766996986954, 1e-15);
  const auto x = test::random_vector(5, 9);
  const double want[] = {0.037038203775290102, -0.00078587268863961057, 0.74894065956434286, 0.65575592455913423,
                         -0.52811959359219518};
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(x[i], want[i], 1e-15) << i;
}

}  // namespace
}  // namespace ppl
