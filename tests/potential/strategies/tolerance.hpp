#pragma once
// How far a strategy's float32 map may be from the float64 sum, per point, and why; one declared tolerance per
// strategy. test_tolerance.cpp feeds deliberately degraded results through the same comparison and checks that it
// rejects them (one Newton step dropped, the rsqrt's first guess alone, a missing atom, unwritten points).
//
// Per point p (eps = 2^-23, terms t_a = q_a / r_a, partial sums S_m = t_1 + ... + t_m):
//   |v - V| <= eps * k * sum |t_a|                         the error of each term (k: the strategy's, below)
//            + eps/2 * sum_{m >= 2} |S_m|                  float accumulation, atom by atom in atom order
//            + position_k * sum |q_a| / r_a^2 * (|dp| + |da_a|)   float32 coordinates
//            + 1e-30
// - k covers the relative error of one term: the rsqrt (host: three Newton steps, at most 1.24 eps,
//   test_rsqrt.cpp; CUDA: rsqrt.approx.ftz.f32, 2^-22.9 = 1.07 eps; gather's rsqrt=ieee: correctly rounded sqrt and
//   division, 1 eps) and the roundings of dx (0.5 eps on r), r^2 (three products and two sums: 1 eps on 1/r) and
//   q * (1/r) (0.5): 3.24 eps at worst. It is what tells a good kernel from a degraded one: one Newton step less
//   makes every term up to 39.7 eps low (15.7 on average).
// - accumulation: each float addition errs by at most eps/2 of the partial sum it produces. Every gather kernel
//   (and the CUDA ones) adds its atoms in atom order, tile by tile, so the bound is computed in that order.
//   scatter's atomic adds come in any order: there every |S_m| is bounded by the larger of the positive and the
//   negative terms' sums, over n - 1 additions.
// - coordinates: the kernels see atoms and points relative to the lattice origin rounded to float32, the atom
//   moved by da (to_device) and the point by dp (x = float(i) * float(h)), both computed exactly here. They change r
//   by at most |dp| + |da| and q/r by that times q/r^2 to first order; position_k = 1.25 covers the second order
//   (|dp| + |da| < 6% of r for every r above the 1e-4 A singularity radius in these tests). Inputs whose
//   coordinates are exact in float32 have none (strategy_test_support.hpp: on_grid).
// The bound is a worst case, so it holds for every seed. Besides it, a strategy's relative L2 error over the points
// checked must be <= 1e-5, the job's default verification tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "ppl/potential/potential_strategy.hpp"

namespace ppl::test {

constexpr double eps_float = 1.1920928955078125e-07;  // 2^-23
constexpr double position_k = 1.25;
constexpr double max_relative_l2 = 1e-5;

enum class summation { float64, atom_order, any_order };

struct tolerance {
  double k;                // eps per term
  summation order;         // how the float sum accumulates
  bool float32_positions;  // coordinates rounded to float32
};

// What the strategy tests measured is in docs/potential.md ("How the strategies are tested").
inline const tolerance& tolerance_of(const std::string& strategy) {
  static const std::map<std::string, tolerance> table = {
      // float64 sums rounded once to float32: at most eps/2 * |V| <= eps/2 * sum |t|; 0.1 for the float64 sums'
      // own error (about n * 1.1e-16 relative).
      {"reference", {0.6, summation::float64, false}},
      // Cutoff only (not iterated by the Coulomb tests; test_cutoff_reference.cpp checks it against the float64
      // all-pairs sum): the same float64 sums rounded once.
      {"cutoff_reference", {0.6, summation::float64, false}},
      // The float32 kernels: 3.24 eps per term at worst (above), 4 with the first-order terms of the analysis.
      {"scatter", {4.0, summation::any_order, true}},
      {"gather", {4.0, summation::atom_order, true}},
      {"gather_coarsened", {4.0, summation::atom_order, true}},
      {"gather_coalesced", {4.0, summation::atom_order, true}},
      // Chunk sums added in chunk order (two_pass) or in any order (atomic): not the atom order.
      {"gather_atom_split", {4.0, summation::any_order, true}},
      {"gather_constmem_cuda", {4.0, summation::atom_order, true}},
      // software_points of the C points per thread use a software rsqrt (a degree-3 polynomial after an integer
      // first guess): up to 6.6 eps (7.9e-7) per term instead of 1.07; the other roundings as above.
      {"gather_hybrid_rsqrt_cuda", {10.0, summation::atom_order, true}},
  };
  const auto it = table.find(strategy);
  if (it == table.end()) throw std::runtime_error("no tolerance declared for potential strategy '" + strategy + "'");
  return it->second;
}

// The float64 answer and the scales of the bound, per point.
struct expected_values {
  std::vector<double> value;       // V, with the singularity rule
  std::vector<double> abs_sum;     // sum |t|
  std::vector<double> in_order;    // sum_{m >= 2} |S_m| in atom order
  std::vector<double> any_order;   // (terms - 1) * max(sum of positive t, sum of |negative t|)
  std::vector<double> positioned;  // sum |q| / r^2 * (|dp| + |da|)
};

expected_values float64_expected(const atoms& a, const lattice& g);

inline double bound_at(const expected_values& e, std::size_t i, const tolerance& t, double k) {
  const double sum = t.order == summation::atom_order  ? e.in_order[i]
                     : t.order == summation::any_order ? e.any_order[i]
                                                       : 0.0;
  return eps_float * k * e.abs_sum[i] + 0.5 * eps_float * sum +
         (t.float32_positions ? position_k * e.positioned[i] : 0.0) + 1e-30;
}
inline double bound_at(const expected_values& e, std::size_t i, const tolerance& t) {
  return bound_at(e, i, t, t.k);
}

struct comparison {
  std::size_t failures = 0, non_finite = 0;
  std::size_t first_bad = 0;
  double worst_ratio = 0.0;  // max |v - V| / bound (<= 1 passes)
  double needed_k = 0.0;     // the smallest k that would have passed every point (0: the other terms suffice)
  double relative_l2 = 0.0;  // ||v - V|| / ||V|| (infinite when a value is not finite)
  std::string describe(const lattice& g, const std::vector<float>& v, const expected_values& e,
                       const tolerance& t) const;
};

comparison compare(const std::vector<float>& v, const expected_values& e, const tolerance& t);

// What every strategy test checks: each point within the strategy's bound and the relative L2 error within
// max_relative_l2 (`check_l2` false only for inputs built to be ill-conditioned, such as an atom 1e-3 A from a
// point, where float32 coordinates alone change the value there by 1e-3 relative). PPL_TEST_TOLERANCE_LOG=<file>
// appends strategy, input, needed k, worst error / bound and relative L2 per check (how the numbers in
// docs/potential.md were taken).
comparison expect_within_tolerance(const std::string& strategy, const lattice& g, const std::vector<float>& v,
                                   const expected_values& e, const std::string& what, bool check_l2 = true);

}  // namespace ppl::test
