// Typed parameters read from a job file (include/ppl/jobs/parameter_config.hpp).
#include "ppl/jobs/parameter_config.hpp"

#include <vector>

namespace ppl {

parameter_values read_parameter_values(const parameter_space& space, const config_node* params) {
  parameter_values out;
  if (params == nullptr) return out;
  for (const auto& s : space) {
    if (!params->has(s.name)) continue;
    parameter_value v;
    switch (s.type) {
      case parameter_type::integer: {
        const std::string text = params->get<std::string>(s.name);
        v = s.has_auto && text == "auto" ? 0 : params->get<int>(s.name);
        break;
      }
      case parameter_type::real:
        v = params->get<double>(s.name);
        break;
      case parameter_type::choice:
        v = params->get<std::string>(s.name);
        break;
      case parameter_type::integer3: {
        const auto list = params->get<std::vector<int>>(s.name);
        if (list.size() != 3)
          throw input_error(params->where(s.name) + ": '" + params->key_path(s.name) + "' must be [x, y, z]");
        v = std::array<int, 3>{list[0], list[1], list[2]};
        break;
      }
    }
    try {
      s.check(v);
    } catch (const parameter_error& e) {
      throw input_error(parameter_error_place(params, params->where(), e));
    }
    out[s.name] = s.coerce(v);
  }
  return out;
}

std::string parameter_error_place(const config_node* params, const std::string& where, const parameter_error& e) {
  // At the value, as the config's own range checks place theirs.
  if (params != nullptr && params->has(e.parameter()))
    return params->find(e.parameter())->where() + ": '" + params->key_path(e.parameter()) + "' " + e.reason();
  return (params != nullptr ? params->where() : where) + ": " + e.what();
}

}  // namespace ppl
