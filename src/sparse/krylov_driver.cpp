// The one Krylov driver loop (krylov_support.hpp): every registered method runs its steps inside it, so the
// stopping rules, the residual replacement, the restarts after a breakdown, the history and the timers are written
// once (docs/solver.md, "Stopping and outcomes").
#include <Kokkos_Core.hpp>
#include <cmath>

#include "krylov_support.hpp"

namespace ppl::krylov_detail {

solver_result krylov_method_solver::solve(const execution& space, const crs_matrix& A, spmv_strategy& spmv,
                                          const_vector_view b, vector_view x) {
  Kokkos::Profiling::pushRegion("ppl::solver[" + name_ + "]");
  try {
    auto res = run(space, A, spmv, b, x);
    Kokkos::Profiling::popRegion();
    return res;
  } catch (...) {
    Kokkos::Profiling::popRegion();
    throw;
  }
}

solver_result krylov_method_solver::run(const execution& space, const crs_matrix& A, spmv_strategy& spmv,
                                        const_vector_view b, vector_view x) {
  solver_result res;
  res.times.profiled = o_.profile;
  const Kokkos::Timer total;
  if (!check_inputs(space, A, b, x, name_, res)) return res;

  const Kokkos::Timer precond_timer;
  // The set-up runs on the default space (the matrix's); the fence also ends the work queued on `space` before it.
  space.fence();
  const auto M = o_.custom_preconditioner ? o_.custom_preconditioner(A)
                                          : make_preconditioner(o_.preconditioner, A, o_.preconditioner_params);
  Kokkos::fence();
  res.times.precond_setup = precond_timer.seconds();
  res.preconditioner = M->describe();
  const double tol = stop_tolerance(o_, res.b_norm);
  const solve_context ctx{space, A, spmv, b, x, *M, o_, tol};
  const auto method = create(ctx);

  const start_result first = method->start(false, 0);
  double rnorm = first.rnorm;
  record(o_, res, 0, rnorm);
  res.times.setup = total.seconds();

  Kokkos::Timer loop;
  phase_clock clock(o_.profile, space);
  int k = 0;
  bool moved = false;  // x changed since the recurrence last (re)started
  // After a breakdown: restart from x (a new recurrence, r = b - A x) unless the restarts are used up or x has not
  // moved since the last (re)start, which would repeat the breakdown exactly. Returns false when the solve ends.
  auto restart_after_breakdown = [&](const char* what) {
    res.breakdown = what;
    if (!moved || res.breakdown_restarts >= o_.max_restarts) {
      res.outcome = solver_outcome::diverged_breakdown;
      return false;
    }
    res.breakdown.clear();
    ++res.breakdown_restarts;
    rnorm = method->start(false, k).rnorm;
    moved = false;
    return true;
  };
  bool done = false;
  if (!first.finite || !std::isfinite(rnorm)) {
    res.outcome = solver_outcome::diverged_nan;
    done = true;
  }
  while (!done) {
    if (rnorm <= tol) {  // the recursive residual passes: check the true one
      const vector_view work = method->work();
      const double true_norm = residual_norm(space, A, spmv, b, x, work);
      if (true_norm <= tol) {
        res.outcome = converged_outcome(o_, true_norm);
        break;
      }
      rnorm = method->start(true, k).rnorm;  // residual replacement: restart from b - A x
      ++res.restarts;
      moved = false;
    }
    if (k >= o_.max_iters) {
      res.outcome = solver_outcome::diverged_max_iters;
      break;
    }
    if (const char* what = method->breakdown_before_step(k)) {
      if (!restart_after_breakdown(what)) break;
      continue;
    }
    clock.restart();
    const step_result st = method->step(k, clock, res.times);
    ++k;
    rnorm = st.rnorm;
    record(o_, res, k, rnorm);
    if (!st.finite) {
      res.outcome = solver_outcome::diverged_nan;
      break;
    }
    moved = moved || st.moved;
    if (rnorm <= tol) continue;  // the true residual is checked at the top of the loop
    if (rnorm >= o_.dtol * first.rnorm) {
      res.outcome = solver_outcome::diverged_dtol;
      break;
    }
    if (st.breakdown != nullptr && !restart_after_breakdown(st.breakdown)) break;
  }
  method->conclude();
  res.iterations = k;
  space.fence();
  res.times.iterate = loop.seconds();
  finish(space, A, spmv, b, x, method->work(), res);
  return res;
}

}  // namespace ppl::krylov_detail
