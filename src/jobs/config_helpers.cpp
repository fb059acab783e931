// Shared readers for job configurations (see ppl/jobs/config_helpers.hpp).
#include "ppl/jobs/config_helpers.hpp"

#include <cmath>
#include <sstream>

#include "ppl/core/text.hpp"

namespace ppl {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// 1e6 -> "1e6", 2000 -> "2000", 0.5 -> "0.5" (the default stream form writes 1e+06).
std::string short_number(double v) {
  std::ostringstream os;
  os << v;
  std::string s = os.str();
  const auto e = s.find('e');
  if (e == std::string::npos) return s;
  std::string exponent = s.substr(e + 1);
  const bool negative = !exponent.empty() && exponent[0] == '-';
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.erase(0, 1);
  while (exponent.size() > 1 && exponent[0] == '0') exponent.erase(0, 1);
  return s.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

}  // namespace

std::optional<config_node> optional_map(const config_node& parent, const std::string& key) {
  auto n = parent.find(key);
  if (n && !n->is_map()) throw input_error(n->where() + ": '" + n->path() + "' must be a map");
  return n;
}

std::string exactly_one_of(const config_node& section, const std::vector<std::string>& alternatives) {
  if (!section.is_map())
    throw input_error(section.where() + ": '" + section.path() + "' must be a map with one of: " + join(alternatives));
  std::string chosen;
  int given = 0;
  for (const auto& a : alternatives)  // has() on each, so all of them are valid keys of the section
    if (section.has(a)) ++given, chosen = chosen.empty() ? a : chosen;
  if (given == 0) throw_if_misspelt_among(section, alternatives);
  if (given != 1)
    throw input_error(section.where() + ": '" + section.path() + "' needs exactly one of: " + join(alternatives) +
                      " (" + std::to_string(given) + " given)");
  return chosen;
}

void throw_if_misspelt_among(const config_node& section, const std::vector<std::string>& expected) {
  for (const auto& key : section.unread_keys()) {
    const std::string guess = closest_match(key, expected);
    if (guess.empty()) continue;
    throw input_error(section.where(key) + ": unknown key '" + key + "'" +
                      (section.path().empty() ? "" : " in '" + section.path() + "'") + ": did you mean '" + guess +
                      "'? ('" + section.path() + "' needs one of: " + join(expected) + ")");
  }
}

std::vector<double> fixed_number_list(const config_node& c, const std::string& key, std::size_t n, double max_abs,
                                      const std::vector<double>& fallback) {
  if (!c.has(key)) {
    if (fallback.empty()) throw input_error(c.where() + ": missing required key '" + c.key_path(key) + "'");
    return fallback;
  }
  const auto v = c.get<std::vector<double>>(key);
  if (v.size() != n)
    throw input_error(c.where(key) + ": '" + c.key_path(key) + "' must have " + std::to_string(n) + " numbers");
  for (double x : v)
    if (!std::isfinite(x) || std::abs(x) > max_abs)
      throw input_error(c.where(key) + ": '" + c.key_path(key) + "' values must be finite and within +-" +
                        short_number(max_abs));
  return v;
}

std::optional<std::string> optional_output_file(const config_node& c, const std::string& key,
                                                const std::vector<std::string>& sidecars, bool may_gzip) {
  if (!c.has(key)) return std::nullopt;
  return c.output_file(key, sidecars, may_gzip);
}

}  // namespace ppl
