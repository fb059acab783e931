// Declared parameter spaces and their reader (include/ppl/core/parameters.hpp).
#include "ppl/core/parameters.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "ppl/core/error.hpp"

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

}  // namespace

std::string parameter_spec::values_text() const {
  if (!allowed.empty()) return "one of " + join(allowed, ", ");
  const std::string range = "[" + number_text(lo) + ", " + number_text(hi) + "]";
  return type == parameter_type::integer3 ? "[x, y, z] each in " + range : range;
}

parameter_reader::parameter_reader(const parameter_space& space, const config_node* params, bool gpu)
    : space_(space), params_(params), gpu_(gpu) {}

const parameter_spec& parameter_reader::spec(const std::string& name, parameter_type type) const {
  const auto it = std::find_if(space_.begin(), space_.end(), [&](const parameter_spec& s) { return s.name == name; });
  if (it == space_.end() || it->type != type)
    throw error(exit_code::failure, "parameter '" + name + "' is not declared with this type in its strategy's space");
  return *it;
}

bool parameter_reader::given(const std::string& name) const {
  return params_ != nullptr && params_->has(name);
}

int parameter_reader::integer(const std::string& name) const {
  const auto& s = spec(name, parameter_type::integer);
  const std::string& d = s.default_for(gpu_);
  const int fallback = d == "auto" ? 0 : std::stoi(d);
  if (!given(name)) return fallback;
  const int v = params_->get_in<int>(name, fallback, int(s.lo), int(s.hi));
  if (!s.allowed.empty() && std::find(s.allowed.begin(), s.allowed.end(), std::to_string(v)) == s.allowed.end())
    throw input_error(params_->where(name) + ": '" + params_->key_path(name) + "' = " + std::to_string(v) +
                      " is not one of: " + join(s.allowed, ", "));
  return v;
}

double parameter_reader::real(const std::string& name) const {
  const auto& s = spec(name, parameter_type::real);
  const std::string& d = s.default_for(gpu_);
  const double fallback = d == "auto" ? 0.0 : std::stod(d);
  if (!given(name)) return fallback;
  return params_->get_in<double>(name, fallback, s.lo, s.hi);
}

std::string parameter_reader::choice(const std::string& name) const {
  const auto& s = spec(name, parameter_type::choice);
  const std::string& d = s.default_for(gpu_);
  if (!given(name)) return d;
  return params_->get_choice(name, d, s.allowed);
}

std::array<int, 3> parameter_reader::integer3(const std::string& name) const {
  const auto& s = spec(name, parameter_type::integer3);
  std::array<int, 3> out{};
  if (!given(name)) {
    std::istringstream in(s.default_for(gpu_));
    char c;
    in >> c >> out[0] >> c >> out[1] >> c >> out[2];  // "[8, 8, 8]"
    return out;
  }
  const auto v = params_->get<std::vector<int>>(name);
  if (v.size() != 3) throw input_error(params_->where(name) + ": '" + params_->key_path(name) + "' must be [x, y, z]");
  for (int d = 0; d < 3; ++d) {
    if (v[std::size_t(d)] < s.lo || v[std::size_t(d)] > s.hi)
      throw input_error(params_->where(name) + ": '" + params_->key_path(name) + "' values must be in [" +
                        number_text(s.lo) + ", " + number_text(s.hi) + "]");
    out[std::size_t(d)] = v[std::size_t(d)];
  }
  return out;
}

std::string parameter_table(const parameter_space& space) {
  if (space.empty()) return "(no parameters)\n";
  std::string out = "| parameter | values | default (host / GPU) | meaning |\n|---|---|---|---|\n";
  for (const auto& s : space) {
    const std::string defaults = s.gpu_default.empty() || s.gpu_default == s.host_default
                                     ? s.host_default
                                     : s.host_default + " / " + s.gpu_default;
    out += "| `" + s.name + "` | " + s.values_text() + " | " + defaults + " | " + s.doc + " |\n";
  }
  return out;
}

}  // namespace ppl
