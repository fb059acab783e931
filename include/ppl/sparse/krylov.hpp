#pragma once
// Krylov solvers for nonsymmetric sparse systems (config `solver.method`): BiCGSTAB, BiCG and GMRES(m), with any
// preconditioner (preconditioner.hpp), on any SpMV strategy. One interface, one registry
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

struct solver_options {
  double rtol = 1e-8;
  double atol = 0.0;
  int max_iters = 1000;
  // Divergence: stop with diverged_dtol when ||r_k|| >= dtol ||r_0|| (r_0 the residual of the initial guess), as
  // PETSc's KSPConvergedDefault does, with PETSc's default 1e5. Must exceed 1; infinity disables it.
  double dtol = 1e5;
  preconditioner_kind preconditioner = preconditioner_kind::none;
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
  // GMRES(m): the Krylov basis holds at most `restart` vectors (m) before the cycle restarts from the current x.
  int restart = 30;
  // Called every `progress_every` iterations (0: never) with (iteration, ||r_k|| / ||b||).
  int progress_every = 0;
  std::function<void(int, double)> progress;
  // Tests: GMRES calls this when a cycle ends (before x is formed from it) with its Krylov basis V (column c =
  // V(:, c)) and the number of columns built, so a test can measure V's orthogonality without a copy of GMRES.
  std::function<void(const Kokkos::View<const double**, Kokkos::LayoutLeft, sparse_space>&, int)> gmres_basis;
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
  solver_times times;
};

class krylov_solver {
 public:
  virtual ~krylov_solver() = default;
  // Solves A x = b starting from the guess in x; x holds the last iterate on return (also when not converged).
  // `spmv` must have been prepared for A. Throws ppl::input_error on a size mismatch or, with Jacobi, a zero or
  // non-finite diagonal (naming the 1-based row).
  virtual solver_result solve(const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, vector_view x) = 0;
  virtual std::string name() const = 0;
};

using solver_factory = std::function<std::unique_ptr<krylov_solver>(const solver_options&)>;
using solver_registry = registry<solver_factory>;
const solver_registry& solvers();

std::unique_ptr<krylov_solver> make_bicgstab(const solver_options& o);
std::unique_ptr<krylov_solver> make_bicg(const solver_options& o);
std::unique_ptr<krylov_solver> make_gmres(const solver_options& o);

// Jacobi: 1 / a_ii for every row (duplicates summed). A zero, missing or non-finite diagonal throws input_error
// naming the first such row, 1-based as in Matrix Market.
vector_view jacobi_inverse_diagonal(const crs_matrix& A);

// ||b - A x|| with `spmv` (uses `work`, n entries). Synchronises (returns a host number).
double residual_norm(const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, const_vector_view x,
                     vector_view work);

}  // namespace ppl
