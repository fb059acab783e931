#pragma once
// Krylov solvers for nonsymmetric sparse systems (config `solver.method`): BiCGSTAB, BiCG and GMRES(m), with any
// preconditioner (preconditioner.hpp), on any SpMV strategy, on an execution space given to solve(). One interface,
// one registry
// (src/sparse/solvers_register.cpp); the name is the config value, test parameter, benchmark label and Kokkos profiling
// region "ppl::solver[<name>]".
//
// Convergence is tested on the recursive residual r_k against max(rtol * ||b||, atol) (2-norms). When it passes,
// the true residual b - A x is recomputed; if that one misses the tolerance the recurrence restarts from it
// (residual replacement), so a `converged_*` outcome always means the TRUE residual meets the tolerance. A
// breakdown restarts the recurrence from the current iterate, a bounded number of times (max_restarts).
// docs/solver.md describes the algorithms, the outcomes and which scalars cross to the host per iteration.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ppl/core/execution.hpp"
#include "ppl/core/parameters.hpp"
#include "ppl/core/registry.hpp"
#include "ppl/sparse/csr.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl {

// Named like PETSc's KSPConvergedReason.
enum class solver_outcome {
  converged_rtol,      // ||b - A x|| <= rtol ||b||
  converged_atol,      // ||b - A x|| <= atol
  diverged_max_iters,  // max_iters iterations without meeting the tolerance
  diverged_breakdown,  // a denominator of the recurrence vanished (solver_result::breakdown says which)
  diverged_nan,        // a NaN or Inf appeared (in b, x0, A or along the iteration)
  diverged_dtol,       // ||r_k|| >= dtol ||r_0||: the residual grew past the divergence tolerance
};
std::string to_string(solver_outcome o);
bool is_converged(solver_outcome o);

// What every method shares: the stopping rules, the preconditioner, the recording. A method's own parameters are
// its params struct (gmres_params; BiCGSTAB and BiCG have none), declared in its registry entry.
struct solver_options {
  double rtol = 1e-8;
  double atol = 0.0;
  int max_iters = 1000;
  // Divergence: stop with diverged_dtol when ||r_k|| >= dtol ||r_0|| (r_0 the residual of the initial guess), as
  // PETSc's KSPConvergedDefault does, with PETSc's default 1e5. Must exceed 1; infinity disables it.
  double dtol = 1e5;
  // A name of preconditioners() (include/ppl/sparse/preconditioner.hpp) and its parameters by name.
  std::string preconditioner = "none";
  parameter_values preconditioner_params;
  // When set, builds M instead of `preconditioner` (programmatic use and tests: any preconditioner class).
  std::function<std::unique_ptr<ppl::preconditioner>(const crs_matrix&)> custom_preconditioner;
  bool record_history = true;  // ||r_k|| for k = 0..iterations
  // Fence after every phase and time it (spmv, dot, update, precond, host). Off: only the total is timed, so the
  // kernels stay queued back to back on the device (one host synchronisation per iteration, see docs/solver.md).
  bool profile = false;
  // A denominator d = (u, w) counts as zero when |d| <= breakdown_tol * ||u|| ||w|| (cosine of the angle).
  double breakdown_tol = 1e-15;
  // On a breakdown the recurrence restarts from the current iterate (r = b - A x, a new shadow residual r_hat = r)
  // at most this many times in a solve; a breakdown after that, or one that left x where the last (re)start put
  // it (restarting would repeat it exactly), ends the solve with diverged_breakdown.
  int max_restarts = 10;
  // Called every `progress_every` iterations (0: never) with (iteration, ||r_k|| / ||b||).
  int progress_every = 0;
  std::function<void(int, double)> progress;
};

// The largest GMRES restart: the basis keeps restart + 1 vectors of n doubles each (at most n + 1 are used).
constexpr int gmres_max_restart = 10000;

// GMRES(m)'s parameters (config: `solver.restart`).
struct gmres_params {
  // m: the Krylov basis holds at most `restart` vectors before the cycle restarts from the current x.
  int restart = 30;
  static const parameter_fields<gmres_params>& fields();
};

// For tests, not a parameter: GMRES calls `basis` when a cycle ends (before x is formed from it) with its Krylov
// basis V (column c = V(:, c)) and the number of columns built, so a test can measure V's orthogonality without a
// copy of GMRES. Only make_gmres takes it.
struct gmres_observer {
  std::function<void(const Kokkos::View<const double**, Kokkos::LayoutLeft, sparse_space>&, int)> basis;
};

// Seconds. spmv/dot/update/precond/host are measured only when `profiled` (else 0). setup: work vectors,
// preconditioner, initial residual; precond_setup: the part of setup that built the preconditioner (always
// measured: make_preconditioner() ends with a fence); iterate: the iteration loop (including residual
// replacements); finish: the final true residual. total = setup + iterate + finish.
struct solver_times {
  bool profiled = false;
  double spmv = 0, dot = 0, update = 0, precond = 0, host = 0;
  double setup = 0, precond_setup = 0, iterate = 0, finish = 0, total = 0;
};

struct solver_result {
  solver_outcome outcome = solver_outcome::diverged_max_iters;
  std::string breakdown;  // with diverged_breakdown: "rho", "omega", "alpha" or "arnoldi" (docs/solver.md)
  int iterations = 0;
  int restarts = 0;               // residual replacements after a recursive residual passed but the true one did not
  int breakdown_restarts = 0;     // restarts from the current iterate after a breakdown (at most max_restarts)
  double b_norm = 0;              // ||b||
  double residual_norm = 0;       // last recursive residual ||r_k||
  double true_residual_norm = 0;  // ||b - A x|| recomputed at the end
  double true_residual = 0;       // ||b - A x|| / ||b|| (the absolute norm when b = 0)
  std::vector<double> history;    // ||r_k||, k = 0..iterations (recursive; after a restart the true one)
  std::string preconditioner;     // what was built: preconditioner::describe() ("ilu0: exact factors, ...")
  solver_times times;
};

class krylov_solver {
 public:
  virtual ~krylov_solver() = default;
  // Solves A x = b on `space` starting from the guess in x; x holds the last iterate on return (also when not
  // converged). Every kernel of the solve (SpMV, preconditioner, vector updates) runs on `space`; the preconditioner
  // is built on the default space. `spmv` must have been prepared for A. Throws ppl::input_error on a size mismatch
  // or, with Jacobi, a zero or non-finite diagonal (naming the 1-based row), and ppl::error when the SpMV strategy or
  // the preconditioner cannot run on `space`.
  virtual solver_result solve(const execution& space, const crs_matrix& A, spmv_strategy& spmv, const_vector_view b,
                              vector_view x) = 0;
  virtual std::string name() const = 0;
};

// The registry's factory: the solver for the common options and the method's parameters by name (a bad or
// undeclared one throws parameter_error). Built from a typed factory with solver_from_values<P>.
using solver_factory =
    std::function<std::unique_ptr<krylov_solver>(const solver_options& options, const parameter_values& params)>;
// Entries: name, description, backends, factory, capabilities (krylov_uses_transpose), declared parameters, and an
// optional configuration-time check of a matrix file.
using solver_registry = registry<solver_factory, matrix_check>;
const solver_registry& solvers();  // src/sparse/solvers_register.cpp

// Capability of a method that multiplies by A^T and applies M^-T (BiCG): it takes only preconditioners with the
// `transpose` capability.
inline const std::string krylov_uses_transpose = "uses_transpose";

// A registry factory from a typed one, make(options, P): values -> P (checked) -> make(options, P).
template <class P, class Make>
auto solver_from_values(Make make) {
  return [make](const solver_options& o, const parameter_values& v) { return make(o, P::fields().from(v)); };
}

std::unique_ptr<krylov_solver> make_bicgstab(const solver_options& o, const no_parameters& = {});
std::unique_ptr<krylov_solver> make_bicg(const solver_options& o, const no_parameters& = {});
std::unique_ptr<krylov_solver> make_gmres(const solver_options& o, const gmres_params& p = {},
                                          gmres_observer observer = {});
// The method `name` of the registry (an unknown name is an input_error listing the known ones).
std::unique_ptr<krylov_solver> make_solver(const std::string& name, const solver_options& o,
                                           const parameter_values& params = {});

// Jacobi: 1 / a_ii for every row (duplicates summed). A zero, missing or non-finite diagonal throws input_error
// naming the first such row, 1-based as in Matrix Market.
vector_view jacobi_inverse_diagonal(const crs_matrix& A);

// ||b - A x|| with `spmv` on `space` (uses `work`, n entries). Synchronises (returns a host number).
double residual_norm(const execution& space, const crs_matrix& A, spmv_strategy& spmv, const_vector_view b,
                     const_vector_view x, vector_view work);

}  // namespace ppl
