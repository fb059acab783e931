// Every registered potential strategy (default parameters) against the test's own float64 loop. Parameterised over
// potential_strategies().names(), so a new strategy is tested with no edit here.
#include <fstream>

#include "ppl/core/error.hpp"
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

class PotentialStrategy : public ::testing::TestWithParam<std::string> {
 protected:
  // On every execution space of the build (OpenMP and Serial in a host build; a CUDA-only strategy on the default).
  void expect_matches(const atoms& a, const lattice& g, const std::string& what) {
    auto s = make_strategy(GetParam());
    const expected_values e = float64_expected(a, g);
    for (const execution& space : spaces()) {
      const std::vector<float> v = run_strategy(*s, a, g, coulomb_interaction(), space);
      expect_within_tolerance(GetParam(), g, v, e, what + " on " + space.name());
    }
  }
  std::vector<execution> spaces() const {
    if (potential_strategies().find(GetParam())->needs == build_requirement::cuda) return {execution()};
    return execution::all();
  }
};

TEST_P(PotentialStrategy, RandomAtomsOddLattice) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(-3.25, 1.5, 0.75, 0.5, 37, 23, 11);  // 253 rows, 37 points per row
  expect_matches(atoms_around(g, 1000, 2.0, seed), g, "1000 random atoms, 37x23x11");
}

TEST_P(PotentialStrategy, RandomAtomsLongRows) {
  // Rows longer than 32 x 8 points and not a multiple of it; two row blocks of odd size; spacing not a power of 2.
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(10.0, -20.0, 5.0, 0.375, 300, 5, 3);
  expect_matches(atoms_around(g, 2500, 3.0, seed), g, "2500 random atoms, 300x5x3");
}

TEST_P(PotentialStrategy, FewPositiveCharges) {
  // No cancellation between terms: the per-point bound sees each term's relative error (test_tolerance.cpp shows
  // that one Newton step less in the rsqrt fails here).
  const std::uint64_t seed = test_seed(1);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(-2.0, 3.0, 1.0, 0.5, 37, 23, 11);
  expect_matches(positive_atoms_in(g, 24, seed), g, "24 positive charges, 37x23x11");
}

TEST_P(PotentialStrategy, ThinLattices) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const lattice& g : {make_lattice(0, 0, 0, 0.5, 1, 50, 3), make_lattice(0, 0, 0, 0.5, 1, 1, 1),
                           make_lattice(0, 0, 0, 0.5, 33, 1, 1)})
    expect_matches(atoms_around(g, 300, 4.0, seed), g,
                   std::to_string(g.dims[0]) + "x" + std::to_string(g.dims[1]) + "x" + std::to_string(g.dims[2]));
}

TEST_P(PotentialStrategy, RealMolecule) {
  const atoms a = read_pqr(ppl_test::data_path("molecules/hca.pqr.gz"));
  ASSERT_GT(a.size(), 2000u);
  const lattice g = lattice_around(a, 2.5, 3.0);
  ASSERT_LT(g.size(), 40000u);
  expect_matches(a, g, "hca.pqr on a 2.5 A lattice");
}

TEST_P(PotentialStrategy, AtomOnALatticePoint) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(1.0, 2.0, 3.0, 0.5, 40, 9, 7);
  atoms a = atoms_around(g, 200, 1.0, seed);
  a.push_back(g.coord(0, 17), g.coord(1, 4), g.coord(2, 3), 1.5);         // exactly on point (17, 4, 3)
  a.push_back(g.coord(0, 3) + 1e-5, g.coord(1, 8), g.coord(2, 6), -1.0);  // r^2 = 1e-10 < 1e-8: excluded
  a.push_back(g.coord(0, 30), g.coord(1, 2) + 1e-3, g.coord(2, 0), 0.5);  // r^2 = 1e-6: counted (500 e/A)
  auto s = make_strategy(GetParam());
  for (const execution& space : spaces()) {
    SCOPED_TRACE(space.name());
    const std::vector<float> v = run_strategy(*s, a, g, coulomb_interaction(), space);
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_TRUE(std::isfinite(v[i])) << "point " << i;
    expect_within_tolerance(GetParam(), g, v, float64_expected(a, g), "an atom on a lattice point", false);
    // The coincident atom is left out at its point, not clamped: the value there stays far below 1.5 / 1e-4.
    EXPECT_LT(std::abs(v[g.index(17, 4, 3)]), 1e3);
    EXPECT_GT(v[g.index(30, 2, 0)], 300.0f);
  }
}

TEST_P(PotentialStrategy, ZeroAtomsGiveZeros) {
  const lattice g = make_lattice(0, 0, 0, 0.5, 37, 23, 11);
  auto s = make_strategy(GetParam());
  for (const execution& space : spaces()) {
    const std::vector<float> v = run_strategy(*s, atoms{}, g, coulomb_interaction(), space);
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], 0.0f) << space.name() << " point " << i;
  }
}

TEST_P(PotentialStrategy, FarAwayCoordinatesGiveTheSameMap) {
  const atoms a = read_pqr(ppl_test::data_path("molecules/1d7h-min.pqr.gz"));
  lattice g = lattice_around(a, 2.0, 2.0);
  atoms far = a;
  const double shift[3] = {1e4, -1e4, 1e4};
  for (std::size_t n = 0; n < far.size(); ++n) {
    far.x[n] += shift[0];
    far.y[n] += shift[1];
    far.z[n] += shift[2];
  }
  lattice g_far = g;
  for (int d = 0; d < 3; ++d) g_far.origin[d] += shift[d];
  auto s = make_strategy(GetParam());
  const std::vector<float> near_v = run_strategy(*s, a, g), far_v = run_strategy(*s, far, g_far);
  const expected_values e = float64_expected(a, g);
  expect_within_tolerance(GetParam(), g, near_v, e, "1d7h-min.pqr");
  expect_within_tolerance(GetParam(), g, far_v, e, "1d7h-min.pqr translated by 1e4 A");
}

TEST_P(PotentialStrategy, UnknownParameterIsReported) {
  EXPECT_THROW(make_strategy(GetParam(), {{"no_such_parameter", 1}}), parameter_error);
}

TEST_P(PotentialStrategy, AccumulateAddsToTheMap) {
  // compute(plan, out, accumulate) adds the map to what `out` holds: a map plus itself is twice the map.
  const lattice g = make_lattice(-1.0, 0.5, 2.0, 0.5, 19, 7, 5);
  const atoms a = atoms_around(g, 200, 2.0, test_seed());
  auto s = make_strategy(GetParam());
  const auto plan = s->prepare({a, g, coulomb_interaction()});
  for (const execution& space : spaces()) {
    potential_view out("potential", g.size());
    s->compute(space, *plan, out, write_mode::overwrite);
    const auto once = Kokkos::create_mirror(out);  // a copy even where `out` is host memory
    Kokkos::deep_copy(once, out);
    s->compute(space, *plan, out, write_mode::accumulate);
    const auto twice = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    // scatter adds its terms onto the values already there, so the sums round differently: 1e-5 of the map's scale
    // (an overwrite instead of an add is off by 100%).
    float scale = 0.0f;
    for (std::size_t i = 0; i < g.size(); ++i) scale = std::max(scale, std::abs(once(i)));
    for (std::size_t i = 0; i < g.size(); ++i)
      ASSERT_NEAR(twice(i), 2.0f * once(i), 1e-5f * scale) << GetParam() << " on " << space.name() << " point " << i;
  }
}

std::string printable(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

INSTANTIATE_TEST_SUITE_P(Registry, PotentialStrategy, ::testing::ValuesIn(strategies_supporting("coulomb")), printable);

TEST(PotentialRegistry, HasThePortableStrategies) {
  for (const char* name : {"reference", "scatter", "gather", "gather_coarsened", "gather_coalesced"})
    EXPECT_NE(potential_strategies().find(name), nullptr) << name;
  // The CUDA-only strategies are registered in every build, runnable only in CUDA builds.
  for (const char* name : {"gather_constmem_cuda", "gather_hybrid_rsqrt_cuda"}) {
    ASSERT_NE(potential_strategies().lookup(name), nullptr) << name;
#if defined(KOKKOS_ENABLE_CUDA)
    EXPECT_NE(potential_strategies().find(name), nullptr) << name;
#else
    EXPECT_EQ(potential_strategies().find(name), nullptr) << name;
    const auto msg = ppl_test::error_of<input_error>([&] { potential_strategies().get(name, "job.yaml:4:11"); });
    EXPECT_NE(
        msg.find("job.yaml:4:11: potential strategy '" + std::string(name) + "' needs a CUDA build (this build: "),
        std::string::npos)
        << msg;
#endif
  }
  try {
    potential_strategies().get("gather_hybrid", "job.yaml:4:13");
    FAIL() << "no error for an unknown strategy";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("job.yaml:4:13"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("gather_coalesced"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ppl::test
