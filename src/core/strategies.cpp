#include "ppl/core/strategies.hpp"

#include "ppl/jobs/job.hpp"

namespace ppl {
namespace {

template <class Registry>
void append(std::vector<strategy_listing>& out, const std::string& family, const Registry& r) {
  for (const auto& e : r.entries()) out.push_back({family, e.name, e.backends, e.description});
}

}  // namespace

std::vector<strategy_listing> all_strategies() {
  std::vector<strategy_listing> out;
  append(out, "job", job_kinds());
  return out;
}

}  // namespace ppl
