// Names and the float64 pair term of the interactions (include/ppl/potential/interaction.hpp).
#include "ppl/potential/interaction.hpp"

#include <cmath>

#include "ppl/core/error.hpp"
#include "ppl/potential/potential_strategy.hpp"

namespace ppl {

const std::vector<std::string>& interaction_kind_names() {
  static const std::vector<std::string> names{"coulomb", "cutoff"};
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

std::string interaction::describe() const {
  if (!is_cutoff()) return "coulomb";
  char radius_text[32];
  std::snprintf(radius_text, sizeof radius_text, "%g", radius);
  return std::string("cutoff ") + config_name(function) + ", radius " + radius_text + " A";
}

double pair_potential_f64(const interaction& in, double q, double r2) {
  if (r2 < coincidence_radius2) return 0.0;
  const double inv_r = 1.0 / std::sqrt(r2);
  if (!in.is_cutoff()) return q * inv_r;
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
