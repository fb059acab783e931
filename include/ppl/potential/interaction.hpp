#pragma once
// The pair interaction a potential map sums, made explicit: every strategy, the float64 reference and the
// verification evaluate the same term, chosen by the job (`physics.interaction`), instead of a Coulomb term
// hard-wired into each kernel.
//   coulomb                     q / r                       (all pairs; the direct-summation strategies)
//   cutoff{radius, truncated}   q / r            for r < rc (a step at rc)
//   cutoff{radius, cutcp}       q / r (1 - r^2/rc^2)^2 for r < rc (Parboil's cutcp: value and slope vanish at rc)
//   cutoff{radius, shifted}     q (1/r - 1/rc)   for r < rc (value vanishes at rc)
// All with the singularity rule of potential_strategy.hpp (r^2 < 1e-8 A^2 contributes nothing). The float32 device
// forms are in kernels/pair_terms.hpp; the float64 form used by the references and the verification is below.
#include <string>
#include <vector>

namespace ppl {

enum class interaction_kind { coulomb, cutoff };
enum class cutoff_function { truncated, cutcp, shifted };

struct interaction {
  interaction_kind kind = interaction_kind::coulomb;
  cutoff_function function = cutoff_function::cutcp;
  double radius = 0.0;  // A; cutoff only, > 0

  bool is_cutoff() const { return kind == interaction_kind::cutoff; }
  // "coulomb" or "cutoff cutcp, radius 12 A" (summaries, progress lines).
  std::string describe() const;
};

inline interaction coulomb_interaction() {
  return {};
}
inline interaction cutoff_interaction(double radius, cutoff_function f) {
  return {interaction_kind::cutoff, f, radius};
}

const char* config_name(interaction_kind k);  // "coulomb" | "cutoff"
const char* config_name(cutoff_function f);   // "truncated" | "cutcp" | "shifted"
const std::vector<std::string>& interaction_kind_names();
const std::vector<std::string>& cutoff_function_names();
interaction_kind parse_interaction_kind(const std::string& name);  // one of interaction_kind_names()
cutoff_function parse_cutoff_function(const std::string& name);    // one of cutoff_function_names()

// The contribution of charge q at squared distance r2 in float64, with the singularity rule.
double pair_potential_f64(const interaction& in, double q, double r2);

}  // namespace ppl
