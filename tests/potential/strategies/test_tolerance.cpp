// The error bound used by the strategy tests can fail: it rejects a float32 rounding of the float64 answer that
// misses one atom or leaves points at zero, and accepts the plain rounding.
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

std::vector<float> rounded(const std::vector<double>& v) {
  return std::vector<float>(v.begin(), v.end());
}

TEST(PotentialTolerance, AcceptsRoundingRejectsRealBugs) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 37, 23, 11);
  const atoms a = atoms_around(g, 2000, 2.0, seed);
  const expected_values e = float64_expected(a, g);
  EXPECT_EQ(compare(rounded(e.value), e).failures, 0u);

  // Dropping atom n changes point p by exactly |q_n| / r_np, so whether the bound notices is known without
  // recomputing: it must notice nearly every atom with |q| >= 0.05 e (the exceptions sit next to another atom that
  // is very close to a lattice point, where position rounding alone allows a large error).
  auto detectable = [&](std::size_t n) {
    for (int k = 0; k < g.dims[2]; ++k)
      for (int j = 0; j < g.dims[1]; ++j)
        for (int i = 0; i < g.dims[0]; ++i) {
          const double dx = g.coord(0, i) - a.x[n], dy = g.coord(1, j) - a.y[n], dz = g.coord(2, k) - a.z[n];
          if (std::abs(a.q[n]) / std::sqrt(dx * dx + dy * dy + dz * dz) > e.bound[g.index(i, j, k)]) return true;
        }
    return false;
  };
  std::size_t charged = 0, seen = 0;
  for (std::size_t n = 0; n < a.size(); ++n)
    if (std::abs(a.q[n]) >= 0.05) {
      ++charged;
      seen += detectable(n) ? 1 : 0;
    }
  EXPECT_GE(double(seen), 0.99 * double(charged)) << seen << " of " << charged << " atoms";

  // And end to end, for three atoms (a first/middle/last index bug): recompute without it, compare, expect failures.
  for (std::size_t start : {std::size_t(0), a.size() / 2, a.size() - 3}) {
    std::size_t drop = start;
    while (drop + 1 < a.size() && !(std::abs(a.q[drop]) >= 0.05 && detectable(drop))) ++drop;
    atoms fewer;
    for (std::size_t n = 0; n < a.size(); ++n)
      if (n != drop) fewer.push_back(a.x[n], a.y[n], a.z[n], a.q[n]);
    const comparison c = compare(rounded(float64_expected(fewer, g).value), e);
    EXPECT_GT(c.failures, 0u) << "dropping atom " << drop << " (q = " << a.q[drop] << ") went unnoticed";
  }

  // A point left at zero (written by nobody, but zero-initialised) fails almost everywhere: |V| is far above the
  // bound except where the sum cancels to within ~1e-5 of sum |q|/r.
  const comparison zeros = compare(std::vector<float>(g.size(), 0.0f), e);
  EXPECT_GT(double(zeros.failures), 0.99 * double(g.size()));
}

TEST(PotentialTolerance, UnwrittenPointsFail) {
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 8, 4, 2);
  const atoms a = atoms_around(g, 50, 1.0, 7);
  const expected_values e = float64_expected(a, g);
  std::vector<float> v = rounded(e.value);
  v[5] = std::numeric_limits<float>::quiet_NaN();  // what run_strategy's poisoning leaves behind
  const comparison c = compare(v, e);
  EXPECT_EQ(c.failures, 1u);
  EXPECT_EQ(c.non_finite, 1u);
}

}  // namespace
}  // namespace ppl::test
