// Declared parameters: text, checks and tables (include/ppl/core/parameters.hpp).
#include "ppl/core/parameters.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "ppl/core/text.hpp"

namespace ppl {
namespace {

std::string number_text(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

const char* type_name(parameter_type t) {
  switch (t) {
    case parameter_type::integer:
      return "an integer";
    case parameter_type::real:
      return "a number";
    case parameter_type::choice:
      return "a name";
    case parameter_type::integer3:
      return "[x, y, z]";
  }
  return "?";
}

}  // namespace

std::string value_text(const parameter_value& v) {
  struct {
    std::string operator()(int i) const { return std::to_string(i); }
    std::string operator()(double d) const { return number_text(d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::array<int, 3>& a) const {
      return "[" + std::to_string(a[0]) + ", " + std::to_string(a[1]) + ", " + std::to_string(a[2]) + "]";
    }
  } text;
  return std::visit(text, v);
}

parameter_type type_of(const parameter_value& v) {
  switch (v.index()) {
    case 0:
      return parameter_type::integer;
    case 1:
      return parameter_type::real;
    case 2:
      return parameter_type::choice;
    default:
      return parameter_type::integer3;
  }
}

std::string parameter_spec::values_text() const {
  if (!allowed.empty()) return (has_auto ? "auto or one of " : "one of ") + join(allowed, ", ");
  const std::string range = "[" + number_text(lo) + ", " + number_text(hi) + "]";
  if (type == parameter_type::integer3) return "[x, y, z] each in " + range;
  return has_auto ? "auto or " + range : range;
}

parameter_value parameter_spec::coerce(const parameter_value& v) const {
  if (type == parameter_type::real && std::holds_alternative<int>(v)) return double(std::get<int>(v));
  if (type == parameter_type::integer && has_auto && std::holds_alternative<std::string>(v) &&
      std::get<std::string>(v) == "auto")
    return 0;
  if (type_of(v) != type)
    throw parameter_error(
        name, "must be " + std::string(type_name(type)) + " (" + values_text() + "), got '" + value_text(v) + "'");
  return v;
}

void parameter_spec::check(const parameter_value& v) const {
  const parameter_value c = coerce(v);
  const auto bad = [&](const std::string& why) { throw parameter_error(name, "= " + value_text(c) + " " + why); };
  switch (type) {
    case parameter_type::integer: {
      const int i = std::get<int>(c);
      if (has_auto && i == 0) return;
      if (!allowed.empty()) {
        if (std::find(allowed.begin(), allowed.end(), std::to_string(i)) == allowed.end())
          bad("is not one of " + join(allowed, ", "));
      } else if (i < lo || i > hi) {
        bad("is outside " + values_text());
      }
      return;
    }
    case parameter_type::real: {
      const double d = std::get<double>(c);
      if (!std::isfinite(d) || d < lo || d > hi) bad("is outside " + values_text());
      return;
    }
    case parameter_type::choice:
      if (std::find(allowed.begin(), allowed.end(), std::get<std::string>(c)) == allowed.end()) {
        const std::string guess = closest_match(std::get<std::string>(c), allowed);
        bad("is not one of " + join(allowed, ", ") + (guess.empty() ? "" : ": did you mean '" + guess + "'?"));
      }
      return;
    case parameter_type::integer3:
      for (int x : std::get<std::array<int, 3>>(c))
        if (x < lo || x > hi) bad("has a value outside [" + number_text(lo) + ", " + number_text(hi) + "]");
      return;
  }
}

std::string parameter_table(const parameter_space& space) {
  if (space.empty()) return "(no parameters)\n";
  std::string out = "| parameter | values | default | meaning |\n|---|---|---|---|\n";
  for (const auto& s : space)
    out += "| `" + s.name + "` | " + s.values_text() + " | " + s.default_text + " | " + s.doc + " |\n";
  return out;
}

}  // namespace ppl
