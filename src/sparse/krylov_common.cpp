// Outcome names, argument checks, the convergence test and the final true residual shared by the Krylov solvers.
#include <cmath>

#include "krylov_support.hpp"
#include "ppl/core/error.hpp"

namespace ppl {

std::string to_string(solver_outcome o) {
  switch (o) {
    case solver_outcome::converged_rtol:
      return "converged_rtol";
    case solver_outcome::converged_atol:
      return "converged_atol";
    case solver_outcome::diverged_max_iters:
      return "diverged_max_iters";
    case solver_outcome::diverged_breakdown:
      return "diverged_breakdown";
    case solver_outcome::diverged_nan:
      return "diverged_nan";
    case solver_outcome::diverged_dtol:
      return "diverged_dtol";
  }
  return "unknown";
}

bool is_converged(solver_outcome o) {
  return o == solver_outcome::converged_rtol || o == solver_outcome::converged_atol;
}

double residual_norm(const execution& space, const crs_matrix& A, spmv_strategy& spmv, const_vector_view b,
                     const_vector_view x, vector_view work) {
  spmv.apply(space, A, x, work);
  vec::axpby(space, vec::dev_coef::constant(1.0), b, vec::dev_coef::constant(-1.0), work, vec::scalar_view());
  return std::sqrt(vec::dot(space, work, work));
}

std::unique_ptr<krylov_solver> make_solver(const std::string& name, const solver_options& o,
                                           const parameter_values& params) {
  return solvers().get(name, "solver.method").factory(o, params);
}

namespace krylov_detail {

bool check_inputs(const execution& space, const crs_matrix& A, const_vector_view b, const_vector_view x,
                  const std::string& solver, solver_result& result) {
  const auto n = static_cast<std::size_t>(A.numRows());
  if (A.numCols() != A.numRows())
    throw input_error(solver + ": the matrix must be square, got " + std::to_string(A.numRows()) + " x " +
                      std::to_string(A.numCols()));
  if (b.extent(0) != n || x.extent(0) != n)
    throw input_error(solver + ": sizes differ: matrix " + std::to_string(n) + " rows, b " +
                      std::to_string(b.extent(0)) + ", x " + std::to_string(x.extent(0)));
  result.b_norm = std::sqrt(vec::dot(space, b, b));
  if (!std::isfinite(result.b_norm) || !vec::all_finite(space, x)) {
    result.outcome = solver_outcome::diverged_nan;
    result.residual_norm = result.true_residual_norm = result.true_residual = std::nan("");
    return false;
  }
  return true;
}

double stop_tolerance(const solver_options& o, double b_norm) {
  return std::max(o.rtol * b_norm, o.atol);
}

solver_outcome converged_outcome(const solver_options& o, double residual_norm) {
  return residual_norm < o.atol ? solver_outcome::converged_atol : solver_outcome::converged_rtol;
}

void record(const solver_options& o, solver_result& result, int iteration, double rnorm) {
  result.residual_norm = rnorm;
  if (o.record_history) result.history.push_back(rnorm);
  if (o.progress && o.progress_every > 0 && iteration > 0 && iteration % o.progress_every == 0)
    o.progress(iteration, result.b_norm > 0 ? rnorm / result.b_norm : rnorm);
}

void finish(const execution& space, const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, const_vector_view x,
            vector_view work, solver_result& result) {
  Kokkos::Timer t;
  result.true_residual_norm = residual_norm(space, A, spmv, b, x, work);
  result.true_residual = result.b_norm > 0 ? result.true_residual_norm / result.b_norm : result.true_residual_norm;
  result.times.finish = t.seconds();
  result.times.total = result.times.setup + result.times.iterate + result.times.finish;
}

}  // namespace krylov_detail
}  // namespace ppl
