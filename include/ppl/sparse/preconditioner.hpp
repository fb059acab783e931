#pragma once
// Preconditioners of the Krylov solvers (config `solver.preconditioner`): one interface, so that every solver
// takes every preconditioner and a new one is a file and a line. A solver asks make_preconditioner() for M once per
// solve (the set-up: Jacobi's inverse diagonal, a factorisation, ...) and then only calls apply (and, BiCG,
// apply_transpose). docs/solver.md ("Preconditioners") lists them and what each solver applies.
//
// Adding one (e.g. ilu0): a value in preconditioner_kind and its name in to_string (src/sparse/preconditioner.cpp),
// its class and factory in its own file src/sparse/precond_<name>.cpp, the factory declared in
// src/sparse/preconditioners.hpp and called from make_preconditioner(), and the name in the `solver.preconditioner`
// choice of src/jobs/solve_config.cpp.
#include <memory>
#include <string>

#include "ppl/sparse/csr.hpp"

namespace ppl {

enum class preconditioner_kind { none, jacobi, ilu0 };
std::string to_string(preconditioner_kind p);

class preconditioner {
 public:
  virtual ~preconditioner() = default;
  virtual std::string name() const = 0;

  // z = M^-1 r. r and z are distinct vectors of A's rows. Does not fence: solvers queue it with their other
  // kernels on the default execution space.
  virtual void apply(const_vector_view r, vector_view z) const = 0;

  // z = M^-T r: BiCG's shadow system (z~ = M^-T r~). The default throws an input_error saying that this
  // preconditioner cannot be used with a solver that needs it.
  virtual void apply_transpose(const_vector_view r, vector_view z) const;

  // M = I: solvers skip the application and let z be r itself (no copy, no pass over memory).
  virtual bool is_identity() const { return false; }

  // When M is diagonal, its inverse as a vector (M^-1 = diag(d)), so that a solver can fuse z = d .* r into an
  // update kernel (BiCGSTAB does: one pass and one launch less per application); empty otherwise.
  virtual const_vector_view inverse_diagonal() const { return {}; }
};

// Builds M for A (its whole set-up). Throws ppl::input_error for a matrix that `kind` cannot precondition, naming
// the first such row 1-based (Jacobi: a zero, missing or non-finite diagonal).
std::unique_ptr<preconditioner> make_preconditioner(preconditioner_kind kind, const crs_matrix& A);

}  // namespace ppl
