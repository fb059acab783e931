#pragma once
// The pair interaction a potential map sums, made explicit: every strategy, the float64 reference and the
// verification evaluate the same term, chosen by the job (`physics.interaction`), instead of a Coulomb term
// hard-wired into each kernel.
//   coulomb                     q / r                       (all pairs; the direct-summation strategies)
//   cutoff{radius, truncated}   q / r            for r < rc (a step at rc)
//   cutoff{radius, cutcp}       q / r (1 - r^2/rc^2)^2 for r < rc (Parboil's cutcp: value and slope vanish at rc)
//   cutoff{radius, shifted}     q (1/r - 1/rc)   for r < rc (value vanishes at rc)
//   msm{cutoff a, spacing h, order, levels}   q / r, computed by multilevel summation (Hardy, Stone and Schulten
//                               2009): exact short range q (1/r - g_a(r)) for r < a plus the smooth rest on a grid
//                               hierarchy; the float64 oracle is Coulomb itself (docs/msm.md)
// All with the singularity rule of potential_strategy.hpp (r^2 < 1e-8 A^2 contributes nothing). The float32 device
// forms are in kernels/pair_terms.hpp; the float64 form used by the references and the verification is below.
#include <string>
#include <vector>

#include "ppl/core/parameters.hpp"

namespace ppl {

enum class interaction_kind { coulomb, cutoff, msm };

// Multilevel summation's parameters (physics.interaction with kind: msm). The error falls as (h / a)^p; the
// defaults (h / a = 1/6) keep the relative RMS error against exact Coulomb below 1e-3 on neutral water, the hardest
// case measured (docs/msm.md's accuracy guide), at the least cost on the H200 (short range ~ a^3, grids ~ a^-3).
struct msm_parameters {
  double cutoff = 9.0;           // a (A): the splitting distance; the short range is exact within it
  double spacing = 1.5;          // h (A): the finest grid's spacing, any ratio to the map's
  std::string order = "quintic";  // cubic (C1, 4 nodes per axis) | quintic (C2, 6 nodes per axis)
  std::string splitting = "auto";  // c1 | c2 | c3: gamma's continuity at a; auto: c2 for cubic, c3 for quintic
  int levels = 0;                // grids in the hierarchy; auto: coarsened until the top grid is small
  int order_degree() const { return order == "cubic" ? 3 : 5; }
  static const parameter_fields<msm_parameters>& fields();
};
enum class cutoff_function { truncated, cutcp, shifted };

struct interaction {
  interaction_kind kind = interaction_kind::coulomb;
  cutoff_function function = cutoff_function::cutcp;
  double radius = 0.0;  // A; cutoff: > 0; msm: the splitting distance a (= msm.cutoff)
  msm_parameters msm;   // msm only

  bool is_cutoff() const { return kind == interaction_kind::cutoff; }
  bool is_msm() const { return kind == interaction_kind::msm; }
  // "coulomb" or "cutoff cutcp, radius 12 A" (summaries, progress lines).
  std::string describe() const;
};

inline interaction coulomb_interaction() {
  return {};
}
inline interaction cutoff_interaction(double radius, cutoff_function f) {
  return {interaction_kind::cutoff, f, radius, {}};
}
// Throws parameter_error (msm_parameters::fields()) for a value outside its declaration.
interaction msm_interaction(const msm_parameters& p = {});

const char* config_name(interaction_kind k);  // "coulomb" | "cutoff"
const char* config_name(cutoff_function f);   // "truncated" | "cutcp" | "shifted"
const std::vector<std::string>& interaction_kind_names();
const std::vector<std::string>& cutoff_function_names();
interaction_kind parse_interaction_kind(const std::string& name);  // one of interaction_kind_names()
cutoff_function parse_cutoff_function(const std::string& name);    // one of cutoff_function_names()

// The contribution of charge q at squared distance r2 in float64, with the singularity rule (msm: q / r, what it
// approximates).
double pair_potential_f64(const interaction& in, double q, double r2);

// MSM's splitting: g_a(r) = gamma(r / a) / a, gamma(rho) = 1 / rho for rho >= 1 and within a the Taylor expansion of
// rho^-1 about rho = 1 in (rho^2 - 1), truncated after `degree` terms (C^degree at a: `splitting`, by default 2 for
// cubic interpolation and 3 for quintic, the most accurate on water and the actin dimer at h / a = 1/6:
// docs/msm.md). Even in r, so g_a(r) = sum_j c_j r^(2j) within a: msm_splitting_coefficients gives
// c_0..c_3 (c_j = 0 beyond the degree) for distance a.
int msm_splitting_degree(const msm_parameters& p);
void msm_splitting_coefficients(const msm_parameters& p, double a, double (&c)[4]);
double msm_smoothing_f64(const msm_parameters& p, double a, double r);  // g_a(r)
// What the binned short-range kernels sum for kind msm: q (1/r - g_a(r)) for r < a, else 0 (singularity rule kept);
// for any other kind pair_potential_f64.
double short_range_potential_f64(const interaction& in, double q, double r2);

}  // namespace ppl
