#include "ppl/jobs/strategies.hpp"

#include "ppl/jobs/job.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl {
namespace {

// `tables`: every entry gets its parameter table, "(no parameters)" included (the families of pluggable
// strategies); otherwise only entries that declare some (job kinds declare none).
template <class Registry>
void append(std::vector<strategy_listing>& out, const std::string& family, const Registry& r, bool tables = false) {
  for (const auto& e : r.entries())
    out.push_back({family, e.name, e.backends, e.description, e.available() ? "" : "needs " + requirement_text(e.needs),
                   e.parameters.empty() && !tables ? "" : parameter_table(e.parameters)});
}

}  // namespace

std::vector<strategy_listing> all_strategies() {
  std::vector<strategy_listing> out;
  append(out, "job", job_kinds());
  append(out, "potential", potential_strategies(), true);
  // Not a registry entry: the job resolves it to one when it knows the lattice and the atoms.
  out.push_back({"potential", "auto", "all",
                 "the job's default: chosen from the interaction, lattice, atom count and build, printed with its "
                 "reason (include/ppl/potential/strategy_choice.hpp, docs/potential.md)",
                 "", ""});
  append(out, "spmv", spmv_strategies(), true);
  append(out, "solver", solvers(), true);
  append(out, "preconditioner", preconditioners(), true);
  return out;
}

}  // namespace ppl
