#include "strategy_support.hpp"

#include <algorithm>

#include "ppl/core/error.hpp"

namespace ppl::potential_detail {

int read_int_choice(const config_node* params, const std::string& key, int fallback,
                    std::initializer_list<int> allowed) {
  if (params == nullptr || !params->has(key)) return fallback;
  const int v = params->get<int>(key);
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::string list;
    for (int a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
    throw input_error(params->where(key) + ": '" + params->key_path(key) + "' = " + std::to_string(v) +
                      " is not one of: " + list);
  }
  return v;
}

int read_int_in(const config_node* params, const std::string& key, int fallback, int lo, int hi) {
  if (params == nullptr) return fallback;
  return params->get_in<int>(key, fallback, lo, hi);
}

}  // namespace ppl::potential_detail
