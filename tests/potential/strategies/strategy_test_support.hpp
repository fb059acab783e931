#pragma once
// What the strategy tests share: running a strategy on poisoned output, and an independent float64 host loop (not
// the `reference` strategy) with a per-point error bound that scales with the magnitudes involved.
//
// Error bound per point p, from how float32 kernels can err:
//   |v - v64| <= k * eps * (sum_a |q_a| / r_a  +  sqrt(3) * L * sum_a |q_a| / r_a^2) + 1e-30
//   - the first sum bounds rounding in the terms (rsqrt, products) and in the float accumulation;
//   - the second is position rounding: coordinates relative to the lattice origin (magnitude <= L) are rounded to
//     float32, which moves r by up to sqrt(3) * eps * L, and changes q/r by that times q/r^2.
// k = 96 covers the least accurate rsqrt in the registry (gather_hybrid_rsqrt_cuda's software rsqrt: 4.8e-6 = 40 eps
// per term, all with the same sign) plus accumulation; test_tolerance.cpp shows the bound still rejects a result
// that misses one atom or one point.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ppl/core/config.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "support/ppl_test.hpp"

namespace ppl::test {

constexpr double tolerance_k = 96.0;
constexpr double eps_float = 1.1920928955078125e-07;

struct expected_values {
  std::vector<double> value;  // float64 sum with the singularity rule
  std::vector<double> bound;  // allowed |v - value|
};

inline expected_values float64_expected(const atoms& a, const lattice& g, double k = tolerance_k) {
  // L: largest coordinate magnitude the kernels see (atoms and points, relative to the lattice origin).
  double extent = 0.0;
  for (int d = 0; d < 3; ++d) extent = std::max(extent, g.spacing * (g.dims[d] - 1));
  for (std::size_t n = 0; n < a.size(); ++n)
    extent = std::max(
        {extent, std::abs(a.x[n] - g.origin[0]), std::abs(a.y[n] - g.origin[1]), std::abs(a.z[n] - g.origin[2])});
  expected_values e;
  e.value.resize(g.size());
  e.bound.resize(g.size());
  for (int kz = 0; kz < g.dims[2]; ++kz)
    for (int j = 0; j < g.dims[1]; ++j)
      for (int i = 0; i < g.dims[0]; ++i) {
        const double px = g.origin[0] + g.spacing * i, py = g.origin[1] + g.spacing * j,
                     pz = g.origin[2] + g.spacing * kz;
        double v = 0.0, s1 = 0.0, s2 = 0.0;
        for (std::size_t n = 0; n < a.size(); ++n) {
          const double dx = px - a.x[n], dy = py - a.y[n], dz = pz - a.z[n];
          const double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < coincidence_radius2) continue;
          const double r = std::sqrt(r2);
          v += a.q[n] / r;
          s1 += std::abs(a.q[n]) / r;
          s2 += std::abs(a.q[n]) / r2;
        }
        const std::size_t idx = g.index(i, j, kz);
        e.value[idx] = v;
        e.bound[idx] = k * eps_float * (s1 + std::sqrt(3.0) * extent * s2) + 1e-30;
      }
  return e;
}

struct comparison {
  std::size_t failures = 0, non_finite = 0;
  std::size_t first_bad = 0;
  double worst_ratio = 0.0;  // max |v - value| / bound
  std::string describe(const lattice& g, const std::vector<float>& v, const expected_values& e) const {
    if (failures == 0) return "ok";
    const std::size_t i = first_bad;
    const int nx = g.dims[0], ny = g.dims[1];
    return std::to_string(failures) + " of " + std::to_string(v.size()) + " points out of bound (" +
           std::to_string(non_finite) + " not finite); first at (" + std::to_string(i % nx) + "," +
           std::to_string((i / nx) % ny) + "," + std::to_string(i / (std::size_t(nx) * ny)) + "): got " +
           std::to_string(v[i]) + ", float64 " + std::to_string(e.value[i]) + ", bound " + std::to_string(e.bound[i]);
  }
};

inline comparison compare(const std::vector<float>& v, const expected_values& e) {
  comparison c;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool finite = std::isfinite(v[i]);
    const double err = finite ? std::abs(double(v[i]) - e.value[i]) : std::numeric_limits<double>::infinity();
    const double ratio = err / e.bound[i];
    if (!finite) ++c.non_finite;
    if (!(err <= e.bound[i])) {
      if (c.failures == 0) c.first_bad = i;
      ++c.failures;
    }
    if (finite && ratio > c.worst_ratio) c.worst_ratio = ratio;
  }
  return c;
}

// Runs `s` with the output poisoned (NaN) first, so a point the strategy never writes cannot pass.
inline std::vector<float> run_strategy(potential_strategy& s, const atoms& a, const lattice& g) {
  const device_atoms d = to_device(a, g);
  potential_view out("potential", g.size());
  Kokkos::deep_copy(out, std::numeric_limits<float>::quiet_NaN());
  s.compute(a, d, g, out);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<float>(h.data(), h.data() + h.extent(0));
}

inline std::unique_ptr<potential_strategy> make_strategy(const std::string& name, const std::string& params_yaml = "") {
  const auto& entry = potential_strategies().get(name, "test");
  if (params_yaml.empty()) return entry.factory(nullptr);
  const config_node params = config_node::from_string(params_yaml, "test params");
  auto s = entry.factory(&params);
  params.check_all_used();
  return s;
}

// Fixed by default, PPL_TEST_SEED=<n>|random to vary (tests/support); printed on failure.
inline std::uint64_t test_seed(std::uint64_t stream = 0) {
  return ppl_test::seed(stream);
}

// `n` atoms uniform in the lattice's box grown by `margin` A, charges in [-2, 2].
inline atoms atoms_around(const lattice& g, std::size_t n, double margin, std::uint64_t seed) {
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = g.origin[d] - margin;
    hi[d] = g.origin[d] + g.spacing * (g.dims[d] - 1) + margin;
  }
  return random_atoms(n, lo, hi, -2.0, 2.0, seed);
}

inline lattice make_lattice(double ox, double oy, double oz, double h, int nx, int ny, int nz) {
  lattice g;
  g.origin = {ox, oy, oz};
  g.spacing = h;
  g.dims = {nx, ny, nz};
  return g;
}

}  // namespace ppl::test
