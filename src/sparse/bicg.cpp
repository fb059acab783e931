// BiCG (Fletcher 1976; preconditioned form of Barrett et al., "Templates", 1994), the method of the 2016 study.
// Needs A^T products (spmv_strategy::apply_transpose). Per iteration: 2 SpMV (one transposed), 2 updates of the
// directions, 1 fused 3-dot, 1 fused update of x, r, r~ with the next dots, and with Jacobi 2 applications plus
// one more 3-dot. The host reads the scalar slots once per iteration.
#include <Kokkos_Core.hpp>
#include <cmath>

#include "krylov_support.hpp"

namespace ppl {
namespace {

using namespace krylov_detail;
using vec::dev_coef;

// RHO = (z, r~), Z2 = (z, z), RT2 = (r~, r~) for the next iteration (z = r without preconditioner, and then
// Z2 = (r, r)); PQ, PT2, Q2 = (p~, q), (p~, p~), (q, q); U_* = the update's dots when preconditioned (U_RR = (r, r)).
enum slot : int { RHO = 0, Z2, RT2, PQ, PT2, Q2, U_RRT, U_RR, U_RT2, STRIDE };

class bicg final : public krylov_method {
 public:
  explicit bicg(const solver_options& o) : krylov_method("bicg", o) {}

 private:
  vector_view iterate(const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, vector_view x,
                      const_vector_view dinv, solver_result& res, const Kokkos::Timer& total) override;
};

vector_view bicg::iterate(const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, vector_view x,
                          const_vector_view dinv, solver_result& res, const Kokkos::Timer& total) {
  const int n = A.numRows();
  const bool jacobi = dinv.data() != nullptr;
  vector_view r("ppl::bicg::r", n), rt("ppl::bicg::r_tilde", n), p("ppl::bicg::p", n), pt("ppl::bicg::p_tilde", n),
      q("ppl::bicg::q", n), qt("ppl::bicg::q_tilde", n);
  vector_view z = jacobi ? vector_view("ppl::bicg::z", n) : r;
  vector_view zt = jacobi ? vector_view("ppl::bicg::z_tilde", n) : rt;
  scalar_slots sl(STRIDE);
  auto s = sl.device();
  const int rr_slot = jacobi ? U_RR : Z2;

  auto precondition_and_dot = [&](int set) {
    if (jacobi) {
      vec::multiply(dinv, r, z);
      vec::multiply(dinv, rt, zt);
      vec::dots3(z, rt, s, sl.at(set, RHO));
    }
  };
  // r = b - A x, r~ = r, p = p~ = 0, z = M^-1 r; slots: rho = (z, r~) and "previous" rho = 1, so the first beta
  // multiplies p = 0. Also used for residual replacement.
  auto start_recurrence = [&](bool have_residual, int cur) {  // cur: the set the next iteration uses
    if (!have_residual) {
      spmv.apply(A, x, r);
      vec::axpby(dev_coef::constant(1.0), b, dev_coef::constant(-1.0), r, s);
    }
    Kokkos::deep_copy(rt, r);
    Kokkos::deep_copy(p, 0.0);
    Kokkos::deep_copy(pt, 0.0);
    vec::dots3(r, rt, s, sl.at(cur, jacobi ? U_RRT : RHO));  // (r, r~), (r, r), (r~, r~)
    precondition_and_dot(cur);
    sl.fetch();
    sl.host(cur ^ 1, RHO) = 1.0;
    sl.push();
    return std::sqrt(sl.host(cur, rr_slot));
  };
  double rnorm = start_recurrence(false, 0);
  spmv.apply_transpose(A, r, qt);  // builds the strategy's cached transpose (if it uses one) in the setup time
  const double tol = stop_tolerance(o_, res.b_norm);
  record(o_, res, 0, rnorm);
  res.times.setup = total.seconds();

  Kokkos::Timer loop;
  phase_clock clock(o_.profile);
  int k = 0;
  bool done = false;
  bool moved = false;  // x changed since the recurrence last (re)started
  // After a breakdown: restart from x (r = b - A x, r~ = r) unless the restarts are used up or x has not moved
  // since the last (re)start, which would repeat the breakdown exactly. Returns false when the solve ends.
  auto restart_after_breakdown = [&](const char* what) {
    res.breakdown = what;
    if (!moved || res.breakdown_restarts >= o_.max_restarts) {
      res.outcome = solver_outcome::diverged_breakdown;
      return false;
    }
    res.breakdown.clear();
    ++res.breakdown_restarts;
    rnorm = start_recurrence(false, k & 1);
    moved = false;
    clock.restart();
    return true;
  };
  if (!std::isfinite(rnorm) || !std::isfinite(sl.host(0, RHO))) {
    res.outcome = solver_outcome::diverged_nan;
    done = true;
  }
  while (!done) {
    if (rnorm <= tol) {  // the recursive residual passes: check the true one
      const double true_norm = residual_norm(A, spmv, b, x, q);
      if (true_norm <= tol) {
        res.outcome = converged_outcome(o_, true_norm);
        break;
      }
      Kokkos::deep_copy(r, q);  // residual replacement: restart from b - A x
      rnorm = start_recurrence(true, k & 1);
      ++res.restarts;
      moved = false;
    }
    if (k >= o_.max_iters) {
      res.outcome = solver_outcome::diverged_max_iters;
      break;
    }
    const int c = k & 1, nx = c ^ 1;
    // rho = (z, r~) ~ 0 (Lanczos breakdown): with Jacobi already possible at the start, (D^-1 r, r) for an
    // indefinite diagonal.
    if (negligible(sl.host(c, RHO), sl.host(c, Z2), sl.host(c, RT2), o_.breakdown_tol)) {
      if (!restart_after_breakdown("rho")) break;
      continue;
    }
    clock.restart();
    const dev_coef beta = dev_coef::ratio(sl.at(c, RHO), sl.at(nx, RHO));
    vec::axpby(dev_coef::constant(1.0), z, beta, p, s);  // p = z + beta p
    vec::axpby(dev_coef::constant(1.0), zt, beta, pt, s);
    clock.charge(res.times.update);
    spmv.apply(A, p, q);
    spmv.apply_transpose(A, pt, qt);
    clock.charge(res.times.spmv);
    vec::dots3(pt, q, s, sl.at(c, PQ));
    clock.charge(res.times.dot);
    const dev_coef alpha =
        dev_coef::ratio(sl.at(c, RHO), sl.at(c, PQ)).guarded(o_.breakdown_tol, sl.at(c, PT2), sl.at(c, Q2));
    vec::bicg_update_dots(alpha, p, q, qt, x, r, rt, s, sl.at(nx, jacobi ? U_RRT : RHO));
    clock.charge(res.times.update);
    if (jacobi) {
      vec::multiply(dinv, r, z);
      vec::multiply(dinv, rt, zt);
      clock.charge(res.times.precond);
      vec::dots3(z, rt, s, sl.at(nx, RHO));
      clock.charge(res.times.dot);
    }
    sl.fetch();
    clock.charge(res.times.host);
    ++k;

    const double pq = sl.host(c, PQ), pt2 = sl.host(c, PT2), q2 = sl.host(c, Q2);
    const double rho_next = sl.host(nx, RHO), z2 = sl.host(nx, Z2), rt2 = sl.host(nx, RT2);
    const double rr = sl.host(nx, rr_slot);
    rnorm = std::sqrt(rr);
    record(o_, res, k, rnorm);
    if (!std::isfinite(pq + pt2 + q2 + rho_next + z2 + rt2 + rr)) {
      res.outcome = solver_outcome::diverged_nan;
      break;
    }
    moved = moved || vec::eval_on_host(alpha, sl.host_data()) != 0.0;  // x += alpha p as the device did it
    if (rnorm <= tol) continue;
    if (negligible(pq, pt2, q2, o_.breakdown_tol)) {  // (p~, A p) ~ 0: pivot breakdown
      if (!restart_after_breakdown("alpha")) break;
    }
  }
  res.iterations = k;
  Kokkos::fence();
  res.times.iterate = loop.seconds();
  return q;
}

}  // namespace

std::unique_ptr<krylov_solver> make_bicg(const solver_options& o) {
  return std::make_unique<bicg>(o);
}

}  // namespace ppl
