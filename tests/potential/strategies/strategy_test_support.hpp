#pragma once
// What the strategy tests share: running a strategy on poisoned output, seeded inputs, and (tolerance.hpp) the
// float64 answer with each strategy's declared tolerance.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ppl/core/execution.hpp"
#include "ppl/core/parameters.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/potential/strategies.hpp"
#include "ppl/potential/verification.hpp"
#include "support/ppl_test.hpp"
#include "tolerance.hpp"

namespace ppl::test {

// Runs `s` (prepare, then compute on `space`) with the output poisoned (NaN) first, so a point the strategy never
// writes cannot pass.
inline std::vector<float> run_strategy(const potential_strategy& s, const atoms& a, const lattice& g,
                                       const interaction& physics = coulomb_interaction(),
                                       const execution& space = execution()) {
  const auto plan = s.prepare({a, g, physics});
  potential_view out("potential", g.size());
  Kokkos::deep_copy(out, std::numeric_limits<float>::quiet_NaN());
  s.compute(space, *plan, out, write_mode::overwrite);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<float>(h.data(), h.data() + h.extent(0));
}

// Through the registry (make_potential_strategy): the strategy's parameters by name, as a job's strategy_params
// arrive after reading.
inline std::unique_ptr<potential_strategy> make_strategy(const std::string& name, const parameter_values& params = {},
                                                         const interaction& physics = coulomb_interaction()) {
  return make_potential_strategy(name, params, physics, "test");
}

// The interaction a registry-wide test runs strategy `name` with: Coulomb where it can, else MSM where it can (its
// defaults), else Parboil's cutoff at 4 A.
inline interaction interaction_for(const std::string& name) {
  const auto* e = potential_strategies().find(name);
  if (e->can("coulomb")) return coulomb_interaction();
  if (e->can("msm")) return msm_interaction();
  return cutoff_interaction(4.0, cutoff_function::cutcp);
}

// The relative L2 error a non-Coulomb map may have against reference_potential(a, g, in): float32's 1e-5 for a
// cutoff, the method's for MSM (reference_potential being exact Coulomb there).
inline double relative_l2_allowed(const interaction& in) {
  return in.is_msm() ? msm_default_tolerance : max_relative_l2;
}

// "{coarsening: 4, combine: atomic}": parameters in test names and failure messages.
inline std::string text(const parameter_values& params) {
  std::string out;
  for (const auto& [key, value] : params) out += (out.empty() ? "" : ", ") + key + ": " + value_text(value);
  return "{" + out + "}";
}

// The runnable strategies that support `kind` ("coulomb", "cutoff"): the test parameters.
inline std::vector<std::string> strategies_supporting(const std::string& kind) {
  std::vector<std::string> out;
  for (const auto& e : potential_strategies().entries())
    if (e.available() && e.can(kind)) out.push_back(e.name);
  return out;
}

// Fixed by default, PPL_TEST_SEED=<n>|random to vary (tests/support); printed on failure.
inline std::uint64_t test_seed(std::uint64_t stream = 0) {
  return ppl_test::seed(stream);
}

// Seeded random atoms have coordinates on a 2^-12 A grid. With lattices whose origin and spacing are multiples of
// 2^-12 A too (every random-atom test here), no coordinate the kernels see is rounded, so their results differ from
// float64 only by their arithmetic, and the relative L2 error stays far below 1e-5 for any seed: rounded
// coordinates alone can exceed it when an atom happens to lie within ~0.02 A of a lattice point (a 1e-6 A shift
// changes q/r there by 5e-5 relative). Coordinate rounding is tested on the real molecules (arbitrary origins,
// and translated by 1e4 A).
inline atoms on_grid(atoms a) {
  for (auto* c : {&a.x, &a.y, &a.z})
    for (double& v : *c) v = std::ldexp(std::round(std::ldexp(v, 12)), -12);
  return a;
}

// `n` atoms uniform in the lattice's box grown by `margin` A, charges in [-2, 2].
inline atoms atoms_around(const lattice& g, std::size_t n, double margin, std::uint64_t seed) {
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = g.origin[d] - margin;
    hi[d] = g.origin[d] + g.spacing * (g.dims[d] - 1) + margin;
  }
  return on_grid(random_atoms(n, lo, hi, -2.0, 2.0, seed));
}

// `n` atoms uniform in the lattice's box with charges in [0.5, 2] e, all positive: with few atoms and no
// cancellation, a systematic error in every term (such as a lost Newton step) shows at nearly every point.
inline atoms positive_atoms_in(const lattice& g, std::size_t n, std::uint64_t seed) {
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = g.origin[d];
    hi[d] = g.origin[d] + g.spacing * (g.dims[d] - 1);
  }
  return on_grid(random_atoms(n, lo, hi, 0.5, 2.0, seed));
}

inline lattice make_lattice(double ox, double oy, double oz, double h, int nx, int ny, int nz) {
  lattice g;
  g.origin = {ox, oy, oz};
  g.spacing = h;
  g.dims = {nx, ny, nz};
  return g;
}

}  // namespace ppl::test
