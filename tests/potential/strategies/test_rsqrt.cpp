// The host pass of kernels::fast_rsqrt (integer first guess + three Newton steps): its error over the whole range
// of r^2 the kernels can meet, including squared distances that overflow float32 (distances above ~1.8e19 A), where
// it returned -Inf before, and the ordinary summation path with such an atom.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "ppl/potential/kernels/row_accumulate.hpp"

namespace {

double relative_error(float x) {
  const double exact = 1.0 / std::sqrt(double(x));
  return std::abs(double(ppl::kernels::newton_rsqrt3(x)) - exact) / exact;
}

TEST(HostRsqrt, AccurateFromTheSingularityRadiusToFloatMax) {
  // Every 97th float from 1e-8 (the singularity rule masks smaller r^2) to FLT_MAX: all exponents and mantissas.
  std::uint32_t lo, hi;
  const float lo_f = 1e-8f, hi_f = std::numeric_limits<float>::max();
  std::memcpy(&lo, &lo_f, 4);
  std::memcpy(&hi, &hi_f, 4);
  double worst = 0.0;
  for (std::uint32_t b = lo; b <= hi - 97; b += 97) {
    float x;
    std::memcpy(&x, &b, 4);
    worst = std::max(worst, relative_error(x));
  }
  worst = std::max(worst, relative_error(hi_f));
  EXPECT_LE(worst, 1.5e-7);  // docs/potential.md: max relative error 1.5e-7 (1.24 eps)
  EXPECT_GT(worst, 1.0e-7);  // and the sweep did reach the worst mantissas
}

TEST(HostRsqrt, OverflowedSquaredDistanceGivesZero) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(ppl::kernels::newton_rsqrt3(inf), 0.0f);
  EXPECT_EQ(ppl::kernels::masked_inverse_distance<true>(inf), 0.0f);
  EXPECT_EQ(ppl::kernels::masked_inverse_distance<false>(inf), 0.0f);
  // An atom 2e19 A away along x: dx^2 overflows to Inf; its contribution is 0 (exactly 1/r rounds to ~5e-20).
  const float x[4] = {0.0f, 1.0f, 2.0f, 3.0f};
  float v[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  ppl::kernels::accumulate_row<4>(x, 0.0f, 0.0f, 2e19f, 0.0f, 0.0f, 1.0f, v);
  for (float value : v) EXPECT_EQ(value, 1.0f);
  ppl::kernels::accumulate_row<4>(x, 0.0f, 0.0f, 0.0f, 3e19f, 0.0f, 1.0f, v);  // dy^2 + dz^2 overflows
  for (float value : v) EXPECT_EQ(value, 1.0f);
}

}  // namespace
