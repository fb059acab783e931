#include "strategy_support.hpp"

#include "ppl/core/system_info.hpp"

namespace ppl::potential_detail {

parameter_reader read_parameters(const parameter_space& space, const config_node* params) {
  return parameter_reader(space, params, default_space_is_gpu());
}

}  // namespace ppl::potential_detail
