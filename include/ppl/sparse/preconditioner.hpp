#pragma once
// Preconditioners of the Krylov solvers (config `solver.preconditioner`): one interface and one registry, so that
// every solver takes every preconditioner and a new one is a file and a registration. A solver builds M once per
// solve through the registry's factory (the set-up: Jacobi's inverse diagonal, a factorisation, ...) and then only
// calls apply (and, BiCG, apply_transpose). docs/solver.md ("Preconditioners") lists them and what each solver
// applies; docs/extending.md says how to add one.
#include <functional>
#include <memory>
#include <string>

#include "ppl/core/execution.hpp"
#include "ppl/core/parameters.hpp"
#include "ppl/core/registry.hpp"
#include "ppl/sparse/csr.hpp"

namespace ppl {

class preconditioner {
 public:
  virtual ~preconditioner() = default;
  virtual std::string name() const = 0;
  // What the set-up built, for the job's report (the choices `auto` parameters resolved to): the name by default.
  virtual std::string describe() const { return name(); }

  // z = M^-1 r on `space`. r and z are distinct vectors of A's rows. Does not fence: solvers queue it with their
  // other kernels. A preconditioner without the `every_space` capability takes only the default space (ppl::error
  // otherwise).
  virtual void apply(const execution& space, const_vector_view r, vector_view z) const = 0;

  // z = M^-T r: BiCG's shadow system (z~ = M^-T r~). The default throws an input_error saying that this
  // preconditioner cannot be used with a solver that needs it (entries without the `transpose` capability).
  virtual void apply_transpose(const execution& space, const_vector_view r, vector_view z) const;

  // M = I: solvers skip the application and let z be r itself (no copy, no pass over memory).
  virtual bool is_identity() const { return false; }

  // When M is diagonal, its inverse as a vector (M^-1 = diag(d)), so that a solver can fuse z = d .* r into an
  // update kernel (BiCGSTAB does: one pass and one launch less per application); empty otherwise.
  virtual const_vector_view inverse_diagonal() const { return {}; }
};

// Builds M for A (its whole set-up, on the default execution space) from its declared parameters by name. Throws
// ppl::input_error for a matrix it cannot precondition, naming the first such row 1-based (Jacobi: a zero, missing
// or non-finite diagonal), and parameter_error for a bad parameter.
using preconditioner_factory =
    std::function<std::unique_ptr<preconditioner>(const crs_matrix& A, const parameter_values& params)>;
// Entries: name, description, backends, factory, capabilities (below), declared parameters, and a configuration-time
// check of a matrix file (`ppl validate` runs it: the same rows the set-up would refuse).
using preconditioner_registry = registry<preconditioner_factory, matrix_check>;
const preconditioner_registry& preconditioners();  // src/sparse/precond_register.cpp

// Capabilities of a preconditioner entry.
inline const std::string precond_transpose = "transpose";      // applies M^-T (BiCG needs it)
inline const std::string precond_diagonal = "diagonal";        // M is diagonal: inverse_diagonal() is given
inline const std::string precond_identity = "identity";        // M = I: is_identity()
inline const std::string precond_every_space = "every_space";  // apply runs on every space of execution::all()

// A registry factory from a typed one, make(A, P): values -> P (checked) -> make(A, P).
template <class P, class Make>
auto preconditioner_from_values(Make make) {
  return [make](const crs_matrix& A, const parameter_values& v) { return make(A, P::fields().from(v)); };
}

// The preconditioner `name` of the registry for A (an unknown name is an input_error listing the known ones).
std::unique_ptr<preconditioner> make_preconditioner(const std::string& name, const crs_matrix& A,
                                                    const parameter_values& params = {});

}  // namespace ppl
