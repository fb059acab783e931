#include "ppl/jobs/strategies.hpp"

#include "ppl/jobs/job.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl {
namespace {

template <class Registry>
void append(std::vector<strategy_listing>& out, const std::string& family, const Registry& r) {
  for (const auto& e : r.entries())
    out.push_back({family, e.name, e.backends, e.description, e.available() ? "" : "needs " + requirement_text(e.needs),
                   e.parameters.empty() ? "" : parameter_table(e.parameters)});
}

}  // namespace

std::vector<strategy_listing> all_strategies() {
  std::vector<strategy_listing> out;
  append(out, "job", job_kinds());
  append(out, "potential", potential_strategies());
  append(out, "spmv", spmv_strategies());
  append(out, "solver", solvers());
  return out;
}

}  // namespace ppl
