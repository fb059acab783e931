// The preconditioner family's one name -> entry table (config `solver.preconditioner`): one line per preconditioner,
// in the order `ppl strategies` lists them. Each entry is defined in its own file (preconditioners.hpp).
#include "preconditioners.hpp"

namespace ppl {

const preconditioner_registry& preconditioners() {
  static const preconditioner_registry r = [] {
    preconditioner_registry reg("preconditioner");
    reg.add(precond_detail::none_entry());
    reg.add(precond_detail::jacobi_entry());
    reg.add(precond_detail::ilu0_entry());
    return reg;
  }();
  return r;
}

}  // namespace ppl
