// Names and the float64 pair term of the interactions (include/ppl/potential/interaction.hpp).
#include "ppl/potential/interaction.hpp"

#include <cmath>
#include <cstdio>

#include "ppl/core/error.hpp"
#include "ppl/potential/potential_strategy.hpp"

namespace ppl {

const std::vector<std::string>& interaction_kind_names() {
  static const std::vector<std::string> names{"coulomb", "cutoff", "msm"};
  return names;
}

const std::vector<std::string>& cutoff_function_names() {
  static const std::vector<std::string> names{"truncated", "cutcp", "shifted"};
  return names;
}

const char* config_name(interaction_kind k) {
  return interaction_kind_names()[std::size_t(k)].c_str();
}
const char* config_name(cutoff_function f) {
  return cutoff_function_names()[std::size_t(f)].c_str();
}

interaction_kind parse_interaction_kind(const std::string& name) {
  const auto& n = interaction_kind_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return interaction_kind(i);
  throw input_error("unknown interaction kind '" + name + "'");
}

cutoff_function parse_cutoff_function(const std::string& name) {
  const auto& n = cutoff_function_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return cutoff_function(i);
  throw input_error("unknown cutoff function '" + name + "'");
}

const parameter_fields<msm_parameters>& msm_parameters::fields() {
  static const auto f = [] {
    using P = msm_parameters;
    parameter_fields<P> d;
    d.real("cutoff", &P::cutoff, 1.0, 1000.0,
           "the splitting distance a (A): pairs within a are summed exactly, the smooth rest on the grids")
        .real("spacing", &P::spacing, 0.25, 100.0, "the finest grid's spacing h (A); any ratio to the map's spacing")
        .choice("order", &P::order, {"cubic", "quintic"},
                "interpolation: cubic (C1, 4 nodes per axis) or quintic (C2, 6 nodes per axis)")
        .choice("splitting", &P::splitting, {"auto", "c1", "c2", "c3"},
                "the smoothing of 1/r within a: its Taylor expansion about a, continuous to the 1st, 2nd or 3rd "
                "derivative; auto: c2 for cubic, c3 for quintic")
        .integer_or_auto("levels", &P::levels, 1, 32,
                         "grids in the hierarchy (1: the finest grid summed directly); auto: coarsened until the "
                         "top grid has at most 2 p + 4 nodes per axis (p the order)");
    return d;
  }();
  return f;
}

interaction msm_interaction(const msm_parameters& p) {
  msm_parameters::fields().check(p);
  interaction in;
  in.kind = interaction_kind::msm;
  in.radius = p.cutoff;
  in.msm = p;
  return in;
}

int msm_splitting_degree(const msm_parameters& p) {
  if (p.splitting != "auto") return p.splitting[1] - '0';  // c1, c2, c3
  return p.order_degree() == 3 ? 2 : 3;
}

void msm_splitting_coefficients(const msm_parameters& p, double a, double (&c)[4]) {
  // rho^-1 = (1 + u)^(-1/2) with u = rho^2 - 1: sum_n binom(-1/2, n) u^n; expanded in powers of rho^2.
  const int degree = msm_splitting_degree(p);
  double rho2[4] = {0, 0, 0, 0};
  double b = 1.0;  // binom(-1/2, n)
  for (int n = 0; n <= degree; ++n) {
    if (n > 0) b *= (-0.5 - (n - 1)) / n;
    // u^n = sum_j binom(n, j) rho^(2j) (-1)^(n-j)
    double binom_nj = 1.0;
    for (int j = 0; j <= n; ++j) {
      if (j > 0) binom_nj *= double(n - j + 1) / j;
      rho2[j] += b * binom_nj * (((n - j) % 2) ? -1.0 : 1.0);
    }
  }
  // g_a(r) = gamma(r / a) / a: the rho^(2j) coefficient over a^(2j + 1).
  double scale = 1.0 / a;
  for (int j = 0; j < 4; ++j) {
    c[j] = rho2[j] * scale;
    scale /= a * a;
  }
}

double msm_smoothing_f64(const msm_parameters& p, double a, double r) {
  if (r >= a) return 1.0 / r;
  double c[4];
  msm_splitting_coefficients(p, a, c);
  const double r2 = r * r;
  return c[0] + r2 * (c[1] + r2 * (c[2] + r2 * c[3]));
}

double short_range_potential_f64(const interaction& in, double q, double r2) {
  if (!in.is_msm()) return pair_potential_f64(in, q, r2);
  if (r2 < coincidence_radius2) return 0.0;
  const double a = in.msm.cutoff;
  if (!(r2 < a * a)) return 0.0;
  const double r = std::sqrt(r2);
  return q * (1.0 / r - msm_smoothing_f64(in.msm, a, r));
}

std::string interaction::describe() const {
  if (is_msm()) {
    char text[160];
    std::snprintf(text, sizeof text, "msm %s, cutoff %g A, spacing %g A, splitting C%d, levels %s",
                  msm.order.c_str(), msm.cutoff, msm.spacing, msm_splitting_degree(msm),
                  msm.levels == 0 ? "auto" : std::to_string(msm.levels).c_str());
    return text;
  }
  if (!is_cutoff()) return "coulomb";
  char radius_text[32];
  std::snprintf(radius_text, sizeof radius_text, "%g", radius);
  return std::string("cutoff ") + config_name(function) + ", radius " + radius_text + " A";
}

double pair_potential_f64(const interaction& in, double q, double r2) {
  if (r2 < coincidence_radius2) return 0.0;
  const double inv_r = 1.0 / std::sqrt(r2);
  if (!in.is_cutoff()) return q * inv_r;  // coulomb, and msm: what it approximates
  const double rc2 = in.radius * in.radius;
  if (!(r2 < rc2)) return 0.0;
  switch (in.function) {
    case cutoff_function::truncated:
      return q * inv_r;
    case cutoff_function::cutcp: {
      const double s = 1.0 - r2 / rc2;
      return q * inv_r * s * s;
    }
    case cutoff_function::shifted:
      return q * (inv_r - 1.0 / in.radius);
  }
  return 0.0;
}

}  // namespace ppl
