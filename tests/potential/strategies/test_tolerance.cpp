// The strategy tests' tolerances can fail. Deliberately degraded results go through the same comparison
// (expected_values, compare, tolerance_of) on the same inputs as the strategy tests, and must be rejected:
// - the float32 kernel arithmetic with one Newton step dropped from the host rsqrt (the defect the old single
//   tolerance of 96 eps let through), and with the rsqrt's first guess alone;
// - a map missing one atom, points left at zero, an unwritten (NaN) point.
// The same arithmetic with the real rsqrt passes and matches the `gather` strategy, so what is rejected differs
// from a real kernel only by the degradation. Every input is fixed (seeded generators), and every assertion is exact
// for these inputs: no statistics.
#include <cstring>

#include "ppl/potential/kernels/fast_rsqrt.hpp"
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

// 0x5f375a86 - (bits >> 1), then `steps` Newton steps: 3 is kernels::newton_rsqrt3, 2 loses one.
float newton_rsqrt(float x, int steps) {
  std::int32_t i;
  std::memcpy(&i, &x, sizeof i);
  i = 0x5f375a86 - (i >> 1);
  float y;
  std::memcpy(&y, &i, sizeof y);
  const float h = 0.5f * x;
  for (int s = 0; s < steps; ++s) y = y * (1.5f - h * y * y);
  return y;
}

// The `gather` kernel's float32 arithmetic on the host (atoms shifted to the lattice origin in float64 and rounded,
// x = float(i) * h, the singularity rule as a select), with the rsqrt given.
template <class Rsqrt>
std::vector<float> float32_gather(const atoms& a, const lattice& g, Rsqrt rsqrt) {
  const device_atoms d = to_device(a, g);
  const float h = float(g.spacing);
  std::vector<float> v(g.size());
  for (int k = 0; k < g.dims[2]; ++k)
    for (int j = 0; j < g.dims[1]; ++j)
      for (int i = 0; i < g.dims[0]; ++i) {
        const float x = float(i) * h, y = float(j) * h, z = float(k) * h;
        float sum = 0.0f;
        for (std::size_t n = 0; n < a.size(); ++n) {
          const atom4 at = d.host(n);
          const float dx = x - at.x, dy = y - at.y, dz = z - at.z;
          const float r2 = dx * dx + dy * dy + dz * dz;
          sum += at.q * (r2 < 1e-8f ? 0.0f : rsqrt(r2));
        }
        v[g.index(i, j, k)] = sum;
      }
  return v;
}

struct input {
  std::string name;
  atoms a;
  lattice g;
};

// The inputs of the strategy tests (test_registry_strategies.cpp), with the same seeds.
std::vector<input> strategy_test_inputs() {
  std::vector<input> out;
  const lattice odd = make_lattice(-3.25, 1.5, 0.75, 0.5, 37, 23, 11);
  out.push_back({"1000 random atoms", atoms_around(odd, 1000, 2.0, test_seed()), odd});
  const lattice few = make_lattice(-2.0, 3.0, 1.0, 0.5, 37, 23, 11);
  out.push_back({"24 positive charges", positive_atoms_in(few, 24, test_seed(1)), few});
  const atoms hca = read_pqr(ppl_test::data_path("molecules/hca.pqr.gz"));
  out.push_back({"hca.pqr", hca, lattice_around(hca, 2.5, 3.0)});
  return out;
}

TEST(PotentialTolerance, RejectsALostNewtonStepAndAnUnrefinedRsqrt) {
  SCOPED_TRACE("seed " + std::to_string(test_seed()));
  const tolerance& t = tolerance_of("gather");
  bool lost_step_rejected = false;
  for (const input& in : strategy_test_inputs()) {
    SCOPED_TRACE(in.name);
    const expected_values e = float64_expected(in.a, in.g);

    // The real host rsqrt: within the bound and 1e-5, and the same numbers as the `gather` strategy.
    const std::vector<float> good = float32_gather(in.a, in.g, [](float x) { return kernels::newton_rsqrt3(x); });
    const comparison c_good = compare(good, e, t);
    EXPECT_EQ(c_good.failures, 0u) << c_good.describe(in.g, good, e, t);
    EXPECT_LE(c_good.relative_l2, max_relative_l2);
    // On host backends the emulation is the kernel's arithmetic to the bit; a GPU kernel rounds differently
    // (fast-math rsqrt, fused operations), so there the strategy tests bound it instead.
    if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible) {
      const std::vector<float> kernel = run_strategy(*make_strategy("gather"), in.a, in.g);
      double max_diff = 0.0, max_bound = 0.0;
      for (std::size_t i = 0; i < good.size(); ++i) {
        max_diff = std::max(max_diff, double(std::abs(good[i] - kernel[i])));
        max_bound = std::max(max_bound, bound_at(e, i, t));
      }
      EXPECT_LE(max_diff, 1e-3 * max_bound) << "the emulation is not the gather kernel's arithmetic";
    }

    // One Newton step less (every term up to 39.7 eps low): rejected where the terms do not cancel, at nine in ten
    // points of the positive charges (measured: 8416 to 8854 of 9361 over 12 seeds). Where they do (mixed charges,
    // many atoms), the error is below the accumulation bound, and its relative L2 error (1.9e-6 to 7.9e-6 on these
    // inputs) passes 1e-5: the per-point bound on inputs without cancellation is what catches it.
    const std::vector<float> two = float32_gather(in.a, in.g, [](float x) { return newton_rsqrt(x, 2); });
    const comparison c_two = compare(two, e, t);
    if (in.name == "24 positive charges") {
      EXPECT_GT(c_two.failures, two.size() / 2) << "a lost Newton step passed: needed k " << c_two.needed_k;
      lost_step_rejected = c_two.failures > 0;
    }

    // The first guess alone (3.4% error): rejected by the per-point bound and by the relative L2 error.
    const std::vector<float> raw = float32_gather(in.a, in.g, [](float x) { return newton_rsqrt(x, 0); });
    const comparison c_raw = compare(raw, e, t);
    EXPECT_GT(c_raw.failures, raw.size() / 2);
    EXPECT_GT(c_raw.relative_l2, 100 * max_relative_l2);
  }
  EXPECT_TRUE(lost_step_rejected);
}

TEST(PotentialTolerance, RejectsAMissingAtom) {
  // Dropping atom n changes the points next to it by |q| / r, far above any bound there: an atom inside the lattice
  // box is within sqrt(3)/2 * h = 0.43 A of a lattice point, where it contributes at least 0.5 / 0.43 e/A.
  const lattice g = make_lattice(-2.0, 3.0, 1.0, 0.5, 37, 23, 11);
  const atoms a = positive_atoms_in(g, 24, test_seed(1));
  const expected_values e = float64_expected(a, g);
  for (const std::string strategy : {"reference", "gather", "gather_hybrid_rsqrt_cuda"}) {
    const tolerance& t = tolerance_of(strategy);
    for (std::size_t drop = 0; drop < a.size(); ++drop) {
      atoms fewer;
      for (std::size_t n = 0; n < a.size(); ++n)
        if (n != drop) fewer.push_back(a.x[n], a.y[n], a.z[n], a.q[n]);
      const std::vector<double> v64 = float64_expected(fewer, g).value;
      const comparison c = compare(std::vector<float>(v64.begin(), v64.end()), e, t);
      EXPECT_GT(c.failures, 0u) << strategy << ": dropping atom " << drop << " went unnoticed";
    }
  }
}

TEST(PotentialTolerance, AcceptsFloat64RoundedRejectsZerosAndUnwrittenPoints) {
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 37, 23, 11);
  const atoms a = atoms_around(g, 2000, 2.0, test_seed());
  const expected_values e = float64_expected(a, g);
  const std::vector<float> rounded(e.value.begin(), e.value.end());
  const comparison ok = compare(rounded, e, tolerance_of("reference"));
  EXPECT_EQ(ok.failures, 0u);
  EXPECT_LE(ok.needed_k, 0.5);

  // Zero everywhere (written by nobody, zero-initialised): rejected at every point whose |V| exceeds the bound.
  const tolerance& t = tolerance_of("gather");
  std::size_t above_bound = 0;
  for (std::size_t i = 0; i < e.value.size(); ++i) above_bound += std::abs(e.value[i]) > bound_at(e, i, t);
  const comparison zeros = compare(std::vector<float>(g.size(), 0.0f), e, t);
  EXPECT_EQ(zeros.failures, above_bound);
  EXPECT_GT(above_bound, 0u);
  EXPECT_DOUBLE_EQ(zeros.relative_l2, 1.0);

  // One NaN (what run_strategy's poisoning leaves at a point nobody writes).
  std::vector<float> v = rounded;
  v[5] = std::numeric_limits<float>::quiet_NaN();
  const comparison c = compare(v, e, t);
  EXPECT_EQ(c.failures, 1u);
  EXPECT_EQ(c.non_finite, 1u);
  EXPECT_FALSE(std::isfinite(c.relative_l2));
}

TEST(PotentialTolerance, EveryRegisteredStrategyDeclaresOne) {
  for (const auto& e : potential_strategies().entries())  // the cutoff strategies: test_cutoff_strategies.cpp
    if (e.can("coulomb")) {
      EXPECT_NO_THROW(tolerance_of(e.name)) << e.name;
    }
}

}  // namespace
}  // namespace ppl::test
