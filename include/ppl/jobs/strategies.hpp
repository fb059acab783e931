#pragma once
// Every registered strategy of every family, for `ppl strategies`. src/jobs/strategies.cpp holds one line per family:
// it is a composition point (like the job registry), since core does not depend on the families.
#include <string>
#include <vector>

namespace ppl {

struct strategy_listing {
  std::string family;
  std::string name;
  std::string backends;
  std::string description;
  std::string unavailable;  // "" when this build can run it, else why not ("needs a CUDA build")
  std::string parameters;   // the declared parameter space as a markdown table ("" when the entry declares none)
};

// Registered entries, runnable in this build or not, in registration order per family.
std::vector<strategy_listing> all_strategies();

}  // namespace ppl
