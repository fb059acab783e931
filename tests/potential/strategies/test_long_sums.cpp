// Sums of many atoms: the tiled kernels add each block of atoms into fresh partial sums before the point's total
// (coalesced_tiles.hpp, partial_sum_atoms), so their float32 rounding grows with sqrt(block) + sqrt(n / block)
// rather than sqrt(n). With 40,000 atoms on exact coordinates (on_grid) the kernels' own arithmetic is all that
// differs from float64: partial sums of 256 atoms give a relative L2 error of 3.5e-7 here (OpenMP), partial sums
// of whole 2048-atom tiles 9.4e-7, against a bound of 5e-7 (the rsqrt's own share is about 1e-7).
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

double relative_l2(const std::vector<float>& v, const expected_values& e) {
  double d2 = 0, r2 = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double d = double(v[i]) - e.value[i];
    d2 += d * d;
    r2 += e.value[i] * e.value[i];
  }
  return std::sqrt(d2 / r2);
}

TEST(LongSums, PartialSumsKeepFloat32RoundingSmall) {
  const std::uint64_t seed = test_seed(7);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 24, 20, 6);
  const atoms a = atoms_around(g, 40000, 20.0, seed);
  const expected_values e = float64_expected(a, g);
  for (const char* name : {"gather_coalesced", "gather_atom_split", "gather_hybrid_rsqrt_cuda"}) {
    const auto* entry = potential_strategies().find(name);
    if (!entry || !entry->available()) continue;
    const std::vector<float> v = run_strategy(*make_strategy(name), a, g);
    EXPECT_LE(relative_l2(v, e), 5e-7) << name;
  }
}

}  // namespace
}  // namespace ppl::test
