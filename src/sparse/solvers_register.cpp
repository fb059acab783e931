// The Krylov solver family's one name -> factory table (config `solver.method`).
#include "ppl/sparse/krylov.hpp"

namespace ppl {

const solver_registry& solvers() {
  static const solver_registry r = [] {
    solver_registry reg("solver");
    reg.add({"bicgstab", "BiCGSTAB (van der Vorst), right-preconditioned; 2 SpMV per iteration", "all", make_bicgstab});
    reg.add({"bicg", "BiCG (Fletcher), as in the 2016 study; SpMV with A and A^T per iteration", "all", make_bicg});
    reg.add({"gmres", "GMRES(m) (Saad & Schultz), restarted every solver.restart steps, right-preconditioned, CGS2",
             "all", make_gmres});
    return reg;
  }();
  return r;
}

}  // namespace ppl
