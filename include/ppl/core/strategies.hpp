#pragma once
// Every registered strategy of every family, for `ppl strategies`. src/core/strategies.cpp holds one line per family.
#include <string>
#include <vector>

namespace ppl {

struct strategy_listing {
  std::string family;
  std::string name;
  std::string backends;
  std::string description;
};

std::vector<strategy_listing> all_strategies();

}  // namespace ppl
