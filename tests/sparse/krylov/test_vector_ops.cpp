// Every Krylov vector kernel against a float64 host loop on fresh random inputs (sizes around and above a warp,
// odd sizes), with coefficients read from device scalar slots. Tolerances: a few ulps of the sum of the absolute
// terms of each entry (updates) or n ulps of sum |a_i b_i| (reductions).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <tuple>

#include "krylov_test_support.hpp"
#include "ppl/sparse/vector_ops.hpp"

namespace ppl::test {
namespace {

using vec::dev_coef;
constexpr double eps = std::numeric_limits<double>::epsilon();

// (size, space): every kernel on every execution space of the build (execution::all(); the second is Serial in host
// builds, skipped where there is none).
class vector_ops : public ::testing::TestWithParam<std::tuple<int, int>> {
 protected:
  void SetUp() override {
    if (static_cast<std::size_t>(std::get<1>(GetParam())) >= execution::all().size())
      GTEST_SKIP() << "this build has one execution space";
  }
  int size() const { return std::get<0>(GetParam()); }
  execution ex() const { return execution::all()[static_cast<std::size_t>(std::get<1>(GetParam()))]; }
  std::mt19937_64 rng{static_cast<unsigned>(std::get<0>(GetParam())) * 7919u + 17u};
  // Slots 0..7 hold random nonzero values of mixed magnitudes.
  std::vector<double> slot_values() {
    std::vector<double> s = random_vector(8, rng, 0.5, 2.0);
    s[3] = -s[3];
    s[5] *= 1e6;
    return s;
  }
};

vec::scalar_view slots_on_device(const std::vector<double>& s) {
  vec::scalar_view d("slots", s.size());
  auto m = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < s.size(); ++i) m(i) = s[i];
  Kokkos::deep_copy(d, m);
  return d;
}

TEST_P(vector_ops, dots3_matches_host) {
  const int n = size();
  auto a = random_vector(n, rng), b = random_vector(n, rng, -3.0, 5.0);
  auto s = slots_on_device(std::vector<double>(10, -1.0));
  vec::dots3(ex(), to_device_vector(a), to_device_vector(b), s, 4);
  auto got = to_host_vector(s);
  double ab = 0, aa = 0, bb = 0, sab = 0;
  for (int i = 0; i < n; ++i) {
    ab += a[i] * b[i];
    sab += std::fabs(a[i] * b[i]);
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  EXPECT_NEAR(got[4], ab, n * eps * sab);
  EXPECT_NEAR(got[5], aa, n * eps * aa);
  EXPECT_NEAR(got[6], bb, n * eps * bb);
  EXPECT_EQ(got[3], -1.0);  // neighbours untouched
  EXPECT_EQ(got[7], -1.0);
}

TEST_P(vector_ops, axpby_and_axpbypcz_read_coefficients_on_the_device) {
  const int n = size();
  const auto sv = slot_values();
  auto s = slots_on_device(sv);
  const dev_coef a = dev_coef::ratio(1, 2, -1.0);  // -s1/s2
  dev_coef b;                                      // s0 s3 / (s4 s5)
  b.num0 = 0;
  b.num1 = 3;
  b.den0 = 4;
  b.den1 = 5;
  const dev_coef c = dev_coef::constant(0.75);
  const double ca = -sv[1] / sv[2], cb = sv[0] * sv[3] / (sv[4] * sv[5]), cc = 0.75;
  EXPECT_NEAR(vec::eval_on_host(a, sv.data()), ca, 4 * eps * std::fabs(ca));
  EXPECT_NEAR(vec::eval_on_host(b, sv.data()), cb, 4 * eps * std::fabs(cb));

  auto x = random_vector(n, rng), y = random_vector(n, rng), z = random_vector(n, rng);
  auto yd = to_device_vector(y), zd = to_device_vector(z);
  vec::axpby(ex(), a, to_device_vector(x), b, yd, s);
  vec::axpbypcz(ex(), a, to_device_vector(x), b, to_device_vector(y), c, zd, s);
  auto y_got = to_host_vector(yd), z_got = to_host_vector(zd);
  for (int i = 0; i < n; ++i) {
    const double y_ref = ca * x[i] + cb * y[i];
    EXPECT_NEAR(y_got[i], y_ref, 8 * eps * (std::fabs(ca * x[i]) + std::fabs(cb * y[i]))) << i;
    const double z_ref = ca * x[i] + cb * y[i] + cc * z[i];
    EXPECT_NEAR(z_got[i], z_ref, 8 * eps * (std::fabs(ca * x[i]) + std::fabs(cb * y[i]) + std::fabs(cc * z[i]))) << i;
  }
}

TEST_P(vector_ops, axpby_with_zero_b_ignores_nan_in_y) {
  const int n = size();
  auto x = random_vector(n, rng);
  std::vector<double> y(n, std::nan(""));
  auto yd = to_device_vector(y);
  vec::axpby(ex(), dev_coef::constant(2.0), to_device_vector(x), dev_coef::constant(0.0), yd, vec::scalar_view());
  auto got = to_host_vector(yd);
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], 2.0 * x[i]);
}

// BiCGSTAB's Jacobi direction update, kept as p_hat = D^-1 p only, against the unfused float64 formulas it replaces:
// p' = r + bo v + beta p, then p_hat' = d .* p', where the kernel is given p_hat = d .* p and never sees p.
TEST_P(vector_ops, scaled_axpy_pcz_matches_the_unfused_direction_update) {
  const int n = size();
  const auto sv = slot_values();
  auto s = slots_on_device(sv);
  const dev_coef bo = dev_coef::ratio(0, 1, -1.0);  // -beta omega' = -rho / rv'
  dev_coef beta;                                    // rho tt' / (rv' ts')
  beta.num0 = 0;
  beta.num1 = 2;
  beta.den0 = 1;
  beta.den1 = 4;
  const double cbo = -sv[0] / sv[1], cbeta = sv[0] * sv[2] / (sv[1] * sv[4]);
  auto r = random_vector(n, rng), v = random_vector(n, rng, -3.0, 2.0), p = random_vector(n, rng);
  auto d = random_vector(n, rng, 0.25, 4.0);
  std::vector<double> ph(n);
  for (int i = 0; i < n; ++i) ph[i] = d[i] * p[i];
  auto phd = to_device_vector(ph);
  vec::scaled_axpy_pcz(ex(), to_device_vector(d), to_device_vector(r), bo, to_device_vector(v), beta, phd, s);
  auto got = to_host_vector(phd);
  for (int i = 0; i < n; ++i) {
    const double p_next = r[i] + cbo * v[i] + cbeta * p[i];
    const double scale = d[i] * (std::fabs(r[i]) + std::fabs(cbo * v[i]) + std::fabs(cbeta * p[i]));
    EXPECT_NEAR(got[i], d[i] * p_next, 8 * eps * scale) << i;
  }

  // A restarted recurrence (beta = 0) must not read p_hat, which may be garbage.
  std::vector<double> garbage(n, std::nan(""));
  auto gd = to_device_vector(garbage);
  vec::scaled_axpy_pcz(ex(), to_device_vector(d), to_device_vector(r), bo, to_device_vector(v), dev_coef::constant(0.0),
                       gd, s);
  auto got0 = to_host_vector(gd);
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(got0[i], d[i] * (r[i] + cbo * v[i]), 4 * eps * d[i] * (std::fabs(r[i]) + std::fabs(cbo * v[i]))) << i;
}

TEST_P(vector_ops, multiply_is_elementwise) {
  const int n = size();
  auto d = random_vector(n, rng), x = random_vector(n, rng);
  vector_view z("z", n);
  vec::multiply(ex(), to_device_vector(d), to_device_vector(x), z);
  auto got = to_host_vector(z);
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], d[i] * x[i]);
}

TEST_P(vector_ops, xr_update_dots_matches_host) {
  const int n = size();
  const auto sv = slot_values();
  auto s = slots_on_device(std::vector<double>(sv.begin(), sv.end()));
  const dev_coef a = dev_coef::ratio(0, 1), b = dev_coef::ratio(2, 4), c = dev_coef::ratio(2, 4, -1.0);
  const double ca = sv[0] / sv[1], cb = sv[2] / sv[4], cc = -cb;
  auto p = random_vector(n, rng), q = random_vector(n, rng), t = random_vector(n, rng);
  auto x = random_vector(n, rng), r = random_vector(n, rng), rh = random_vector(n, rng);
  auto xd = to_device_vector(x), rd = to_device_vector(r);
  vec::xr_update_dots(ex(), a, to_device_vector(p), b, to_device_vector(q), xd, c, to_device_vector(t), rd,
                      to_device_vector(rh), s, 6);
  auto x_got = to_host_vector(xd), r_got = to_host_vector(rd), s_got = to_host_vector(s);
  double d0 = 0, d1 = 0, sd0 = 0;
  for (int i = 0; i < n; ++i) {
    const double x_ref = x[i] + ca * p[i] + cb * q[i];
    EXPECT_NEAR(x_got[i], x_ref, 8 * eps * (std::fabs(x[i]) + std::fabs(ca * p[i]) + std::fabs(cb * q[i])));
    const double r_ref = r[i] + cc * t[i];
    EXPECT_NEAR(r_got[i], r_ref, 4 * eps * (std::fabs(r[i]) + std::fabs(cc * t[i])));
    d0 += rh[i] * r_ref;
    sd0 += std::fabs(rh[i] * r_ref);
    d1 += r_ref * r_ref;
  }
  EXPECT_NEAR(s_got[6], d0, n * 4 * eps * sd0);
  EXPECT_NEAR(s_got[7], d1, n * 4 * eps * d1);
  EXPECT_EQ(s_got[5], sv[5]);  // the coefficient slots it read are untouched
}

TEST_P(vector_ops, bicg_update_dots_matches_host) {
  const int n = size();
  const auto sv = slot_values();
  std::vector<double> slots(sv);
  slots.resize(12, 0.0);
  auto s = slots_on_device(slots);
  const dev_coef a = dev_coef::ratio(3, 1);
  const double ca = sv[3] / sv[1];
  auto p = random_vector(n, rng), q = random_vector(n, rng), qt = random_vector(n, rng);
  auto x = random_vector(n, rng), r = random_vector(n, rng), rt = random_vector(n, rng);
  auto xd = to_device_vector(x), rd = to_device_vector(r), rtd = to_device_vector(rt);
  vec::bicg_update_dots(ex(), a, to_device_vector(p), to_device_vector(q), to_device_vector(qt), xd, rd, rtd, s, 9);
  auto x_got = to_host_vector(xd), r_got = to_host_vector(rd), rt_got = to_host_vector(rtd), s_got = to_host_vector(s);
  double d0 = 0, d1 = 0, d2 = 0, sd0 = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(x_got[i], x[i] + ca * p[i], 4 * eps * (std::fabs(x[i]) + std::fabs(ca * p[i])));
    const double r_ref = r[i] - ca * q[i], rt_ref = rt[i] - ca * qt[i];
    EXPECT_NEAR(r_got[i], r_ref, 4 * eps * (std::fabs(r[i]) + std::fabs(ca * q[i])));
    EXPECT_NEAR(rt_got[i], rt_ref, 4 * eps * (std::fabs(rt[i]) + std::fabs(ca * qt[i])));
    d0 += r_ref * rt_ref;
    sd0 += std::fabs(r_ref * rt_ref);
    d1 += r_ref * r_ref;
    d2 += rt_ref * rt_ref;
  }
  EXPECT_NEAR(s_got[9], d0, n * 4 * eps * sd0);
  EXPECT_NEAR(s_got[10], d1, n * 4 * eps * d1);
  EXPECT_NEAR(s_got[11], d2, n * 4 * eps * d2);
}

TEST_P(vector_ops, all_finite_finds_one_bad_entry) {
  const int n = size();
  auto x = random_vector(n, rng);
  EXPECT_TRUE(vec::all_finite(ex(), to_device_vector(x)));
  x[n / 2] = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(vec::all_finite(ex(), to_device_vector(x)));
  x[n / 2] = std::nan("");
  EXPECT_FALSE(vec::all_finite(ex(), to_device_vector(x)));
}

// GMRES's kernels on a basis of 11 columns (on a GPU a full block of 8 and a partial one): the dots of every column
// with w, and y = b y + a V c with and without the norm of the result.
TEST_P(vector_ops, multi_dots_and_combine_match_host) {
  const int n = size(), cols = 11;
  vec::basis_view V("V", n, cols);
  auto Vh = Kokkos::create_mirror_view(V);
  std::vector<std::vector<double>> col(cols);
  for (int c = 0; c < cols; ++c) {
    col[c] = random_vector(n, rng);
    for (int i = 0; i < n; ++i) Vh(i, c) = col[c][i];
  }
  Kokkos::deep_copy(V, Vh);
  const auto w = random_vector(n, rng, -2.0, 3.0);
  const int slot = 3, pad = vec::multi_dot_slots(cols);
  ASSERT_EQ(pad % vec::multi_dot_block, 0);
  ASSERT_GE(pad, cols);
  auto s = slots_on_device(std::vector<double>(slot + pad + 2, -1.0));
  vec::multi_dots(ex(), V, cols, to_device_vector(w), s, slot);
  auto got = to_host_vector(s);
  for (int c = 0; c < cols; ++c) {
    double d = 0, sd = 0;
    for (int i = 0; i < n; ++i) d += col[c][i] * w[i], sd += std::fabs(col[c][i] * w[i]);
    EXPECT_NEAR(got[slot + c], d, n * eps * sd) << c;
  }
  for (int c = cols; c < pad; ++c) EXPECT_EQ(got[slot + c], 0.0) << c;  // the padding of the last block
  EXPECT_EQ(got[slot - 1], -1.0);
  EXPECT_EQ(got[slot + pad], -1.0);

  // y = 0.5 y - 2 V coef, then again with its norm into the last slot; coef = the slots just computed.
  auto y = random_vector(n, rng);
  std::vector<double> expect(n);
  double expect_norm2 = 0, scale = 0;
  for (int i = 0; i < n; ++i) {
    double sum = 0, abs_sum = 0;
    for (int c = 0; c < cols; ++c) sum += got[slot + c] * col[c][i], abs_sum += std::fabs(got[slot + c] * col[c][i]);
    expect[i] = 0.5 * y[i] - 2.0 * sum;
    scale = std::max(scale, std::fabs(0.5 * y[i]) + 2.0 * abs_sum);
    expect_norm2 += expect[i] * expect[i];
  }
  for (const int norm_slot : {-1, slot + pad + 1}) {
    auto yd = to_device_vector(y);
    vec::combine(ex(), V, cols, s, slot, -2.0, 0.5, yd, norm_slot);
    const auto yh = to_host_vector(yd);
    for (int i = 0; i < n; ++i) ASSERT_NEAR(yh[i], expect[i], 4 * cols * eps * scale) << i;
    const auto after = to_host_vector(s);
    if (norm_slot < 0)
      EXPECT_EQ(after[slot + pad + 1], -1.0);
    else
      EXPECT_NEAR(after[norm_slot], expect_norm2, 4 * n * cols * eps * expect_norm2 + 1e-300);
  }
  // b = 0 does not read y: a NaN there is overwritten.
  std::vector<double> nan_y(n, std::nan(""));
  auto yd = to_device_vector(nan_y);
  vec::combine(ex(), V, cols, s, slot, 1.0, 0.0, yd);
  EXPECT_TRUE(vec::all_finite(ex(), yd));
}

// GMRES's fused pass: combine_then_dots gives the bits of combine(-1, 1) followed by multi_dots, with 11 columns
// (on a GPU the fused block of 8 and a plain one) and 40 (on the host a fused block of 32 and a plain one).
TEST_P(vector_ops, combine_then_dots_equals_combine_and_multi_dots) {
  const int n = size();
  for (const int cols : {11, 40}) {
    SCOPED_TRACE(cols);
    vec::basis_view V("V", n, cols);
    auto Vh = Kokkos::create_mirror_view(V);
    for (int c = 0; c < cols; ++c) {
      const auto col = random_vector(n, rng);
      for (int i = 0; i < n; ++i) Vh(i, c) = col[i];
    }
    Kokkos::deep_copy(V, Vh);
    const int pad = vec::multi_dot_slots(cols), coef_slot = 0, dot_slot = pad;
    std::vector<double> slots(2 * pad, -1.0);
    for (int c = 0; c < cols; ++c) slots[coef_slot + c] = uniform(rng, -1.0, 1.0);
    const auto y = random_vector(n, rng);
    auto s_two = slots_on_device(slots), s_one = slots_on_device(slots);
    auto y_two = to_device_vector(y), y_one = to_device_vector(y);
    vec::combine(ex(), V, cols, s_two, coef_slot, -1.0, 1.0, y_two);
    vec::multi_dots(ex(), V, cols, y_two, s_two, dot_slot);
    vec::combine_then_dots(ex(), V, cols, s_one, coef_slot, y_one, dot_slot);
    EXPECT_EQ(to_host_vector(y_one), to_host_vector(y_two));
    EXPECT_EQ(to_host_vector(s_one), to_host_vector(s_two));
  }
}

// 1,100,003 elements: on a GPU more work items than one wave of reduction teams has threads, so every thread of a
// reduction walks several items (vector_ops.cpp, reduce_items).
INSTANTIATE_TEST_SUITE_P(sizes, vector_ops,
                         ::testing::Combine(::testing::Values(1, 31, 33, 1037, 100003, 1100003),
                                            ::testing::Values(0, 1)),
                         [](const ::testing::TestParamInfo<std::tuple<int, int>>& i) {
                           return std::to_string(std::get<0>(i.param)) + (std::get<1>(i.param) ? "_serial" : "");
                         });

// The guard: a denominator below guard * sqrt(|s[ref0] s[ref1]|) gives 0 on the device and on the host.
TEST(dev_coef, guard_zeroes_negligible_denominators) {
  std::vector<double> sv = {3.0, 1e-20, 4.0, 9.0, 0.0};
  auto s = slots_on_device(sv);
  const dev_coef unguarded = dev_coef::ratio(0, 1);
  const dev_coef guarded = unguarded.guarded(1e-15, 2, 3);  // limit 1e-15 * 6
  const dev_coef zero_den = dev_coef::ratio(0, 4);
  EXPECT_DOUBLE_EQ(vec::eval_on_host(unguarded, sv.data()), 3e20);
  EXPECT_EQ(vec::eval_on_host(guarded, sv.data()), 0.0);
  EXPECT_EQ(vec::eval_on_host(zero_den, sv.data()), 0.0);
  vector_view y("y", 3);
  std::vector<double> ones(3, 1.0);
  auto one = to_device_vector(ones);
  std::vector<double> got;
  for (const auto& k : {unguarded, guarded, zero_den}) {
    vec::axpby(execution(), k, one, dev_coef::constant(0.0), y, s);
    got.push_back(to_host_vector(y)[2]);
  }
  EXPECT_DOUBLE_EQ(got[0], 3e20);
  EXPECT_EQ(got[1], 0.0);
  EXPECT_EQ(got[2], 0.0);
}

}  // namespace
}  // namespace ppl::test
