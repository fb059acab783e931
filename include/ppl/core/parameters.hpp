#pragma once
// A strategy's parameter space, declared once (Ginkgo-style typed parameters): each parameter's name, type, allowed
// values or range, per-backend default and meaning. From the declaration come the config check (parameter_reader:
// every value a factory reads is validated against it, with file:line errors), the table `ppl strategies
// --parameters` prints (docs), and the test that runs every strategy at every declared value and edge
// (tests/potential/strategies/test_declared_parameters.cpp).
#include <array>
#include <string>
#include <vector>

#include "ppl/core/config.hpp"

namespace ppl {

enum class parameter_type { integer, real, choice, integer3 };

struct parameter_spec {
  std::string name;
  parameter_type type = parameter_type::integer;
  std::vector<std::string> allowed;  // choice: the names; integer: a discrete set (empty: the range)
  double lo = 0, hi = 0;             // integer, real, integer3 (each component): the range, inclusive
  std::string host_default;          // as text; "auto": chosen from the problem at run time (doc says how)
  std::string gpu_default;           // "" = same as host_default
  std::string doc;

  std::string values_text() const;  // "one of 1, 2, 4", "[1, 1024]", "[x, y, z] each in [1, 64]"
  const std::string& default_for(bool gpu) const { return gpu && !gpu_default.empty() ? gpu_default : host_default; }
};

using parameter_space = std::vector<parameter_spec>;

// Reads a strategy's parameters (the `strategy_params` map, or none) as declared: absent -> the backend's default,
// present -> validated (type, set or range; errors name the key's file:line). Asking for an undeclared name is a
// programming error (ppl::error, failure), so a factory cannot read a parameter the space does not list.
class parameter_reader {
 public:
  parameter_reader(const parameter_space& space, const config_node* params, bool gpu);
  bool given(const std::string& name) const;
  int integer(const std::string& name) const;  // "auto" defaults read as 0
  double real(const std::string& name) const;
  std::string choice(const std::string& name) const;
  std::array<int, 3> integer3(const std::string& name) const;
  const config_node* params() const { return params_; }

 private:
  const parameter_spec& spec(const std::string& name, parameter_type type) const;
  const parameter_space& space_;
  const config_node* params_;
  bool gpu_;
};

// One markdown table (name | values | default host / GPU | meaning) of a space.
std::string parameter_table(const parameter_space& space);

}  // namespace ppl
