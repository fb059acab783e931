#pragma once
// Where YAML meets typed parameters: a strategy's (or method's, or preconditioner's) parameter map in a job file,
// read against its declared space into values by name, and factory errors about a parameter placed at its key.
#include <string>

#include "ppl/jobs/config.hpp"
#include "ppl/core/parameters.hpp"

namespace ppl {

// The keys of `params` (may be null: none given) that `space` declares, typed and checked; errors name the key's
// file:line:column. Keys the space does not declare are left unread, so the config check reports them as unknown.
parameter_values read_parameter_values(const parameter_space& space, const config_node* params);

// The text of a parameter_error placed at its key in `params` (or at `where` when the key was not given).
std::string parameter_error_place(const config_node* params, const std::string& where, const parameter_error& e);

// Runs make(); a parameter_error it throws becomes an input_error at the parameter's key in `params` (or at
// `where` when the key was not given).
template <class Make>
auto with_parameter_errors(const config_node* params, const std::string& where, Make&& make) -> decltype(make()) {
  try {
    return make();
  } catch (const parameter_error& e) {
    throw input_error(parameter_error_place(params, where, e));
  }
}

}  // namespace ppl
