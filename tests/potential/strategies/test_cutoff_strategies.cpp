// Every registered strategy that supports the cutoff interaction (registry capability "cutoff"), for each cutoff
// function, against the float64 direct sum of the same interaction (reference_potential: all pairs, minimum image
// when periodic), on seeded random atoms, clustered atoms that overflow the bins, periodic boxes and a real molecule.
//
// Per point the float32 map may differ from the float64 sum by
//   16 eps * sum |t_a|          each term's rounding (rsqrt, r^2, the cutoff factor) and the float accumulation
//                               (a few hundred terms per point at most here, summed in bin order)
//   + 1.25 * sum (|q|/r^2 + 4 |q|/rc^2) (|da| + |dp|)   float32 coordinates (as in tolerance.hpp)
//   + sum over borderline pairs (|r^2 - rc^2| <= 1e-5 rc^2) of |q| / rc for `truncated` (float32 may put such a
//     pair on the other side of the step; cutcp and shifted are continuous at rc)
// and the relative L2 error over the lattice must be <= 1e-5. Dropping one atom within the cutoff of a point breaks
// the bound (DroppedAtomIsCaught).
#include <array>
#include <cmath>

#include "ppl/potential/reference.hpp"
#include "strategy_test_support.hpp"

namespace ppl::test {
namespace {

struct cutoff_case {
  std::string strategy;
  cutoff_function function;
  bool periodic;
};

std::vector<cutoff_case> cutoff_cases() {
  std::vector<cutoff_case> out;
  for (const auto& name : strategies_supporting("cutoff"))
    for (auto f : {cutoff_function::truncated, cutoff_function::cutcp, cutoff_function::shifted})
      for (bool periodic : {false, true})
        if (!periodic || potential_strategies().find(name)->can("periodic")) out.push_back({name, f, periodic});
  return out;
}

struct bound_terms {
  std::vector<double> value, abs_sum, borderline, positioned;
};

bound_terms float64_cutoff(const atoms& a, const lattice& g, const interaction& in) {
  bound_terms b;
  b.value = reference_potential(a, g, in);
  b.abs_sum.assign(g.size(), 0.0);
  b.borderline.assign(g.size(), 0.0);
  b.positioned.assign(g.size(), 0.0);
  const double rc2 = in.radius * in.radius;
  const auto box = g.box();
  // The kernels see float32 coordinates relative to the lattice origin: each atom moved by da (to_device), each
  // point by dp (x = float(i) * float(h)); a term q/r f(r) changes by at most (|q|/r^2 + 4 |q|/rc^2) (|da| + |dp|).
  std::vector<double> moved(a.size());
  for (std::size_t n = 0; n < a.size(); ++n) {
    const double rel[3] = {a.x[n] - g.origin[0], a.y[n] - g.origin[1], a.z[n] - g.origin[2]};
    for (double r : rel) moved[n] += std::abs(double(float(r)) - r);
  }
  const float hf = float(g.spacing);
  for (std::size_t p = 0; p < g.size(); ++p) {
    const auto at = g.point(p);
    int idx[3];
    g.shape().ijk(std::int64_t(p), idx[0], idx[1], idx[2]);
    double dp = 0;
    for (int k = 0; k < 3; ++k) dp += std::abs(double(float(idx[k]) * hf) - g.spacing * idx[k]);
    for (std::size_t n = 0; n < a.size(); ++n) {
      double d[3] = {at[0] - a.x[n], at[1] - a.y[n], at[2] - a.z[n]};
      if (g.periodic)
        for (int k = 0; k < 3; ++k) d[k] -= box[std::size_t(k)] * std::nearbyint(d[k] / box[std::size_t(k)]);
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      b.abs_sum[p] += std::abs(pair_potential_f64(in, a.q[n], r2));
      if (r2 < rc2 * (1 + 1e-5) && r2 >= coincidence_radius2)
        b.positioned[p] += (std::abs(a.q[n]) / r2 + 4 * std::abs(a.q[n]) / rc2) * (moved[n] + dp);
      if (in.function == cutoff_function::truncated && std::abs(r2 - rc2) <= 1e-5 * rc2)
        b.borderline[p] += std::abs(a.q[n]) / in.radius;
    }
  }
  return b;
}

struct cutoff_check {
  std::size_t bad = 0, first = 0;
  double relative_l2 = 0;
};

cutoff_check compare_cutoff_map(const std::vector<float>& v, const bound_terms& b) {
  cutoff_check c;
  double d2 = 0, r2 = 0;
  for (std::size_t p = 0; p < v.size(); ++p) {
    const double err = std::abs(double(v[p]) - b.value[p]);
    const double bound = 16 * eps_float * b.abs_sum[p] + b.borderline[p] + position_k * b.positioned[p] + 1e-30;
    if (!(err <= bound) && c.bad++ == 0) c.first = p;
    d2 += (double(v[p]) - b.value[p]) * (double(v[p]) - b.value[p]);
    r2 += b.value[p] * b.value[p];
  }
  c.relative_l2 = r2 > 0 ? std::sqrt(d2 / r2) : std::sqrt(d2);
  if (!std::isfinite(c.relative_l2)) c.relative_l2 = INFINITY;
  return c;
}

void check_cutoff_map(const std::vector<float>& v, const bound_terms& b, const std::string& what) {
  const cutoff_check c = compare_cutoff_map(v, b);
  EXPECT_EQ(c.bad, 0u) << what << ": first bad point " << c.first << ": " << v[c.first] << " vs " << b.value[c.first]
                       << " (bound "
                       << 16 * eps_float * b.abs_sum[c.first] + b.borderline[c.first] +
                              position_k * b.positioned[c.first]
                       << ")";
  EXPECT_LE(c.relative_l2, max_relative_l2) << what;
}

class CutoffStrategy : public ::testing::TestWithParam<cutoff_case> {
 protected:
  void expect_matches(const atoms& a, lattice g, double radius, const parameter_values& params,
                      const std::string& what) {
    g.periodic = GetParam().periodic;
    const interaction in = cutoff_interaction(radius, GetParam().function);
    auto s = make_strategy(GetParam().strategy, params, in);
    const auto expected = float64_cutoff(a, g, in);
    // On every execution space of the build (a CUDA-only strategy on the default one).
    const bool cuda_only = potential_strategies().find(GetParam().strategy)->needs == build_requirement::cuda;
    for (const execution& space : cuda_only ? std::vector<execution>{execution()} : execution::all()) {
      const std::vector<float> v = run_strategy(*s, a, g, in, space);
      check_cutoff_map(v, expected,
                       what + " (" + in.describe() + (g.periodic ? ", periodic" : "") +
                           (params.empty() ? "" : ", " + text(params)) + ", " + space.name() + ")");
    }
  }
};

TEST_P(CutoffStrategy, RandomAtoms) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(-3.0, 1.5, 0.75, 0.5, 37, 23, 19);  // box 18.5 x 11.5 x 9.5 A
  const atoms a = atoms_around(g, 1500, GetParam().periodic ? 0.0 : 6.0, seed);
  expect_matches(a, g, 4.5, {}, "1500 random atoms, 37x23x19");
}

TEST_P(CutoffStrategy, OverflowingBinsAndSmallBins) {
  // Clustered atoms: a few hundred in one 2 A cube overflow any bin capacity, so the host's overflow sum runs.
  const std::uint64_t seed = test_seed(2);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 24, 20, 17);
  atoms a = atoms_around(g, 400, 0.0, seed);
  const double lo[3] = {3.0, 4.0, 2.0}, hi[3] = {5.0, 6.0, 4.0};
  const atoms cluster = on_grid(random_atoms(300, lo, hi, -1.0, 1.0, seed + 1));
  for (std::size_t n = 0; n < cluster.size(); ++n) a.push_back(cluster.x[n], cluster.y[n], cluster.z[n], cluster.q[n]);
  const std::string& name = GetParam().strategy;
  parameter_values params;
  if (name == "cutoff_binned" || name == "cutoff_large_bins")
    params = {{"bin_capacity", 3}, {"coarsening", 2}, {"region", std::array<int, 3>{4, 4, 2}}};
  if (name == "cutoff_binned") params["bin_edge"] = 1.5;
  expect_matches(a, g, 4.0, params, "random atoms + a 300-atom cluster");
}

TEST_P(CutoffStrategy, RealMolecule) {
  if (GetParam().periodic) GTEST_SKIP() << "a protein in vacuum";
  const atoms a = read_pqr(ppl_test::data_path("molecules/ubq.pqr"));
  const lattice g = lattice_around(a, 1.5, 3.0);
  expect_matches(a, g, 8.0, {}, "ubq.pqr on a 1.5 A lattice");
}

std::string printable(const ::testing::TestParamInfo<cutoff_case>& info) {
  return info.param.strategy + "_" + config_name(info.param.function) + (info.param.periodic ? "_periodic" : "");
}

INSTANTIATE_TEST_SUITE_P(Registry, CutoffStrategy, ::testing::ValuesIn(cutoff_cases()), printable);

TEST(CutoffStrategies, DroppedAtomIsCaught) {
  // The bound is tight enough to see one missing atom within the cutoff of a point.
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 16, 16, 16);
  const atoms a = atoms_around(g, 600, 2.0, test_seed());
  const interaction in = cutoff_interaction(4.0, cutoff_function::cutcp);
  atoms fewer = a;
  for (auto* c : {&fewer.x, &fewer.y, &fewer.z, &fewer.q}) c->erase(c->begin() + 300);
  auto s = make_strategy("cutoff_binned", {}, in);
  const auto v = run_strategy(*s, fewer, g, in);
  const cutoff_check c = compare_cutoff_map(v, float64_cutoff(a, g, in));
  EXPECT_GT(c.bad, 0u) << "dropping an atom went unnoticed";
}

TEST(CutoffStrategies, BinnedReportsBinsOverflowAndTheHostSplit) {
  // A 300-atom cluster in 3-slot bins: atoms overflow to the host, and the plan says how many and how long the host
  // took; the automatic capacity grows to the fullest bin (at most 32 slots), so fewer overflow.
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 24, 20, 17);
  const double lo[3] = {3.0, 4.0, 2.0}, hi[3] = {5.0, 6.0, 4.0};
  const atoms a = on_grid(random_atoms(300, lo, hi, -1.0, 1.0, test_seed()));
  const interaction in = cutoff_interaction(4.0, cutoff_function::cutcp);
  auto value = [](const potential_plan& p, const std::string& name) {
    for (const auto& [n, v] : p.breakdown())
      if (n == name) return v;
    ADD_FAILURE() << "no " << name;
    return -1.0;
  };
  cutoff_binned_params small_bins;
  small_bins.bin_edge = 1.5;
  small_bins.bin_capacity = 3;
  auto small = make_cutoff_binned(small_bins);
  const auto plan = small->prepare({a, g, in});
  potential_view out("out", g.size());
  small->compute(*plan, out, write_mode::overwrite);
  EXPECT_EQ(value(*plan, "bin_capacity"), 3.0);
  EXPECT_GT(value(*plan, "overflow_atoms"), 100.0);
  EXPECT_GT(value(*plan, "overflow_host_s"), 0.0);
  EXPECT_GE(value(*plan, "compute_wall_s"), value(*plan, "overflow_host_s"));
  auto automatic = make_strategy("cutoff_binned", {{"bin_edge", 1.5}}, in);
  const auto plan2 = automatic->prepare({a, g, in});
  EXPECT_EQ(value(*plan2, "bin_capacity"), std::min(32.0, std::ceil(value(*plan2, "fullest_bin") / 4) * 4));
  EXPECT_LT(value(*plan2, "overflow_atoms"), value(*plan, "overflow_atoms"));
  // Uniform atoms at a few per bin: the automatic capacity leaves nothing to the host.
  const atoms spread = atoms_around(g, 400, 0.0, test_seed(1));
  const auto plan3 = automatic->prepare({spread, g, in});
  EXPECT_EQ(value(*plan3, "overflow_atoms"), 0.0);
  EXPECT_EQ(value(*plan3, "bin_capacity"), std::ceil(value(*plan3, "fullest_bin") / 4) * 4 < 8
                                               ? 8.0
                                               : std::ceil(value(*plan3, "fullest_bin") / 4) * 4);
}

TEST(CutoffStrategies, PairCountsAgreeWithBruteForce) {
  // The work-efficiency counts: pairs within the cutoff as a float64 count of every atom-point pair (float32 r^2 may
  // put a pair right at rc on the other side: a few per million), and loaded >= examined >= within. The segment test
  // examines fewer pairs than the cylinder test from the same loaded pairs; bins of edge rc load more than small ones.
  const lattice g = make_lattice(0.0, 0.0, 0.0, 0.5, 24, 20, 17);
  const atoms a = atoms_around(g, 500, 3.0, test_seed());
  const interaction in = cutoff_interaction(3.0, cutoff_function::cutcp);
  double brute = 0;
  for (std::size_t p = 0; p < g.size(); ++p) {
    const auto pt = g.point(p);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double dx = pt[0] - a.x[i], dy = pt[1] - a.y[i], dz = pt[2] - a.z[i], r2 = dx * dx + dy * dy + dz * dz;
      brute += r2 < in.radius * in.radius && r2 >= coincidence_radius2;
    }
  }
  ASSERT_GT(brute, 1e4);
  auto counts = [&](const std::string& name, const parameter_values& params) {
    const auto s = make_strategy(name, params, in);
    const auto plan = s->prepare({a, g, in});
    EXPECT_NEAR(plan->pairs_within(), brute, 1e-5 * brute) << name << " " << text(params);
    EXPECT_GE(plan->pairs_examined(), plan->pairs_within()) << name << " " << text(params);
    EXPECT_GE(plan->pairs_loaded(), plan->pairs_examined()) << name << " " << text(params);
    return std::array<double, 2>{plan->pairs_examined(), plan->pairs_loaded()};
  };
  const auto segment = counts("cutoff_binned", {{"bin_edge", 1.5}, {"atom_test", "segment"}});
  const auto cylinder = counts("cutoff_binned", {{"bin_edge", 1.5}, {"atom_test", "cylinder"}});
  const auto large = counts("cutoff_large_bins", {{"atom_test", "cylinder"}});
  EXPECT_LT(segment[0], cylinder[0]);
  EXPECT_EQ(segment[1], cylinder[1]);
  EXPECT_GT(large[1], cylinder[1]);
}

TEST(CutoffStrategies, UnsupportedPairsAreInputErrors) {
  const auto msg = ppl_test::error_of<input_error>([] {
    make_potential_strategy("gather_coalesced", {}, cutoff_interaction(8, cutoff_function::cutcp),
                            "job.yaml:3:11");
  });
  EXPECT_NE(msg.find("job.yaml:3:11: potential strategy 'gather_coalesced' does not support the cutoff interaction; "
                     "strategies that do: reference"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("cutoff_binned"), std::string::npos) << msg;
  const auto msg2 = ppl_test::error_of<input_error>(
      [] { make_potential_strategy("cutoff_binned", {}, coulomb_interaction(), "t"); });
  EXPECT_NE(msg2.find("does not support the coulomb interaction"), std::string::npos) << msg2;
}

}  // namespace
}  // namespace ppl::test
