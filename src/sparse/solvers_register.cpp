// The Krylov method family's one name -> entry table (config `solver.method`), one registration per method. A
// method's parameters are the other keys of the job's `solver` map (GMRES: restart).
#include "ppl/sparse/krylov.hpp"

namespace ppl {

const solver_registry& solvers() {
  static const solver_registry r = [] {
    using entry = solver_registry::entry;
    solver_registry reg("solver");
    reg.add(entry::named("bicgstab")
                .with_description("BiCGSTAB (van der Vorst), right-preconditioned; 2 SpMV per iteration")
                .with_backends("all")
                .with_factory(solver_from_values<no_parameters>(make_bicgstab))
                .with_parameters(no_parameters::fields().space()));
    reg.add(entry::named("bicg")
                .with_description("BiCG (Fletcher), as in the 2016 study; SpMV with A and A^T per iteration, M^-T")
                .with_backends("all")
                .with_factory(solver_from_values<no_parameters>(make_bicg))
                .with_capabilities({krylov_uses_transpose})
                .with_parameters(no_parameters::fields().space()));
    reg.add(entry::named("gmres")
                .with_description("GMRES(m) (Saad & Schultz), restarted every `restart` steps, right-preconditioned, CGS2")
                .with_backends("all")
                .with_factory(solver_from_values<gmres_params>(
                    [](const solver_options& o, const gmres_params& p) { return make_gmres(o, p); }))
                .with_parameters(gmres_params::fields().space()));
    return reg;
  }();
  return r;
}

}  // namespace ppl
