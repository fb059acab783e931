#pragma once
// Typed parameters, declared once. Each pluggable thing (a potential or SpMV strategy, a Krylov method, a
// preconditioner) owns a plain struct of parameters whose default member initializers are THE defaults; next to it,
// `fields()` binds each member to its public name, its allowed values or range and its meaning:
//
//   struct gather_coarsened_params {
//     int coarsening = 8;  // points per thread
//     static const parameter_fields<gather_coarsened_params>& fields();
//   };
//   const parameter_fields<gather_coarsened_params>& gather_coarsened_params::fields() {
//     static const auto f = parameter_fields<gather_coarsened_params>().integer_of(
//         "coarsening", &gather_coarsened_params::coarsening, {1, 2, 4, 8, 16}, "points per thread (C)");
//     return f;
//   }
//
// From that one declaration come the declared space (`space()`: what `ppl strategies --parameters`, the docs
// tables, the config check and `space: declared` sweeps use; its defaults are read off a default-constructed
// struct, so they cannot drift), the checks of a struct a C++ caller filled (`check`), and the conversion from
// values by name (`from`: what the job layer hands over after reading YAML). Factories take the struct; nothing
// below the job layer reads a config file.
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ppl/core/error.hpp"

namespace ppl {

enum class parameter_type { integer, real, choice, integer3 };

using parameter_value = std::variant<int, double, std::string, std::array<int, 3>>;
// Values by parameter name: the ones a config, a sweep point or a caller gives; absent ones keep their defaults.
using parameter_values = std::map<std::string, parameter_value>;

std::string value_text(const parameter_value& v);  // 8, 0.25, segment, [8, 8, 8]
parameter_type type_of(const parameter_value& v);

// A bad parameter: which one (so the job layer can name the key's file:line) and why, e.g. "'coarsening' = 3 is not
// one of 1, 2, 4, 8, 16". Factories throw it for constraints between parameters too (region vs coarsening).
// what() = "'<parameter>' <reason>"; the job layer rewrites it as "file:line:col: 'strategy_params.<parameter>'
// <reason>".
class parameter_error : public input_error {
 public:
  parameter_error(std::string parameter, std::string reason)
      : input_error("'" + parameter + "' " + reason), parameter_(std::move(parameter)), reason_(std::move(reason)) {}
  const std::string& parameter() const noexcept { return parameter_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string parameter_, reason_;
};

// One declared parameter, as listed and checked.
struct parameter_spec {
  std::string name;
  parameter_type type = parameter_type::integer;
  std::vector<std::string> allowed;  // choice: the names; integer: a discrete set (empty: the range)
  double lo = 0, hi = 0;             // integer, real, integer3 (each component): the range, inclusive
  // integer: 0 stands for "auto", chosen from the problem at run time (the doc says how); a config may say `auto`.
  bool has_auto = false;
  std::string default_text;  // the struct's default as text ("auto" for the auto value)
  std::string doc;

  std::string values_text() const;  // "one of 1, 2, 4", "[1, 1024]", "[x, y, z] each in [1, 64]", "auto or [1, 64]"
  // Throws parameter_error when `v` has another type or lies outside the declaration.
  void check(const parameter_value& v) const;
  // `v` as the parameter's type (an int given for a real, "auto" for an auto integer); parameter_error otherwise.
  parameter_value coerce(const parameter_value& v) const;
};

using parameter_space = std::vector<parameter_spec>;

// One markdown table (parameter | values | default | meaning) of a space.
std::string parameter_table(const parameter_space& space);

// The declaration of P's parameters (see the top of this file). Built once, by chained calls, in P::fields().
template <class P>
class parameter_fields {
 public:
  parameter_fields& integer(std::string name, int P::*m, int lo, int hi, std::string doc) {
    return add(m, spec(std::move(name), parameter_type::integer, {}, lo, hi, false, std::move(doc)));
  }
  // An integer from a discrete set.
  parameter_fields& integer_of(std::string name, int P::*m, const std::vector<int>& allowed, std::string doc) {
    std::vector<std::string> names;
    for (int v : allowed) names.push_back(std::to_string(v));
    const auto [lo, hi] = std::minmax_element(allowed.begin(), allowed.end());
    return add(m, spec(std::move(name), parameter_type::integer, names, *lo, *hi, false, std::move(doc)));
  }
  // An integer in [lo, hi] or 0 = auto (decided from the problem at run time).
  parameter_fields& integer_or_auto(std::string name, int P::*m, int lo, int hi, std::string doc) {
    return add(m, spec(std::move(name), parameter_type::integer, {}, lo, hi, true, std::move(doc)));
  }
  // An integer from a discrete set or 0 = auto (decided from the problem at run time).
  parameter_fields& integer_of_or_auto(std::string name, int P::*m, const std::vector<int>& allowed, std::string doc) {
    std::vector<std::string> names;
    for (int v : allowed) names.push_back(std::to_string(v));
    const auto [lo, hi] = std::minmax_element(allowed.begin(), allowed.end());
    return add(m, spec(std::move(name), parameter_type::integer, names, *lo, *hi, true, std::move(doc)));
  }
  parameter_fields& real(std::string name, double P::*m, double lo, double hi, std::string doc) {
    return add(m, spec(std::move(name), parameter_type::real, {}, lo, hi, false, std::move(doc)));
  }
  parameter_fields& choice(std::string name, std::string P::*m, std::vector<std::string> allowed, std::string doc) {
    return add(m, spec(std::move(name), parameter_type::choice, std::move(allowed), 0, 0, false, std::move(doc)));
  }
  parameter_fields& integer3(std::string name, std::array<int, 3> P::*m, int lo, int hi, std::string doc) {
    return add(m, spec(std::move(name), parameter_type::integer3, {}, lo, hi, false, std::move(doc)));
  }

  const parameter_space& space() const { return space_; }

  // P's defaults with the given values set, each checked against its declaration; an undeclared name is a
  // parameter_error naming it.
  P from(const parameter_values& given) const {
    P p{};
    for (const auto& [name, v] : given) set(p, name, v);
    check(p);
    return p;
  }
  // Sets one parameter by name (checked).
  void set(P& p, const std::string& name, const parameter_value& v) const {
    const std::size_t i = index(name);
    const parameter_value c = space_[i].coerce(v);
    space_[i].check(c);
    setters_[i](p, c);
  }
  // Every member of p against its declaration (what a factory does first with a struct a caller filled).
  void check(const P& p) const {
    for (std::size_t i = 0; i < space_.size(); ++i) space_[i].check(getters_[i](p));
  }
  // Every parameter of p by name.
  parameter_values values(const P& p) const {
    parameter_values out;
    for (std::size_t i = 0; i < space_.size(); ++i) out[space_[i].name] = getters_[i](p);
    return out;
  }

 private:
  static parameter_spec spec(std::string name, parameter_type type, std::vector<std::string> allowed, double lo,
                             double hi, bool has_auto, std::string doc) {
    parameter_spec s;
    s.name = std::move(name);
    s.type = type;
    s.allowed = std::move(allowed);
    s.lo = lo;
    s.hi = hi;
    s.has_auto = has_auto;
    s.doc = std::move(doc);
    return s;
  }

  template <class T>
  parameter_fields& add(T P::*m, parameter_spec s) {
    for (const auto& e : space_)
      if (e.name == s.name) throw error(exit_code::failure, "parameter '" + s.name + "' declared twice");
    const P defaults{};
    const parameter_value d = defaults.*m;
    s.default_text = s.has_auto && std::get<int>(d) == 0 ? "auto" : value_text(d);
    s.check(d);  // a default outside its own declaration is a programming error caught at start-up
    space_.push_back(std::move(s));
    getters_.push_back([m](const P& p) { return parameter_value(p.*m); });
    setters_.push_back([m](P& p, const parameter_value& v) { p.*m = std::get<T>(v); });
    return *this;
  }

  std::size_t index(const std::string& name) const {
    for (std::size_t i = 0; i < space_.size(); ++i)
      if (space_[i].name == name) return i;
    std::string known;
    for (const auto& s : space_) known += (known.empty() ? "" : ", ") + s.name;
    throw parameter_error(name,
                          "is not a parameter of this strategy; its parameters: " + (known.empty() ? "none" : known));
  }

  parameter_space space_;
  std::vector<std::function<parameter_value(const P&)>> getters_;
  std::vector<std::function<void(P&, const parameter_value&)>> setters_;
};

// The parameters of something that has none.
struct no_parameters {
  static const parameter_fields<no_parameters>& fields() {
    static const parameter_fields<no_parameters> f;
    return f;
  }
};

// A registry factory from values by name, made from a typed factory: values -> P (checked) -> make(P).
template <class P, class Make>
auto from_values(Make make) {
  return [make](const parameter_values& v) { return make(P::fields().from(v)); };
}

}  // namespace ppl
