// BiCGSTAB (van der Vorst 1992) with right preconditioning, so the recursive residual is the unpreconditioned
// one. Per iteration: 2 SpMV, 2 fused 3-dot reductions, 3 updates (the last fused with the 2 dots of the next
// rho and ||r||), the 2 Jacobi applications fused into the first two updates when preconditioned. The scalars stay on
// the device; the host reads the 16 scalar slots once per iteration (docs/solver.md: "What crosses to the host").
#include <KokkosBlas1_dot.hpp>
#include <Kokkos_Core.hpp>
#include <cmath>

#include "krylov_support.hpp"

namespace ppl {
namespace {

using namespace krylov_detail;
using vec::dev_coef;

// Slots of one iteration (two sets, see scalar_slots). RHO and RR are written by the previous iteration's last
// kernel (or the setup); the others by this iteration's two dots3 reductions.
enum slot : int { RHO = 0, RR, RV, RHAT2, VV, TS, TT, SS, STRIDE };

class bicgstab final : public krylov_method {
 public:
  explicit bicgstab(const solver_options& o) : krylov_method("bicgstab", o) {}

 private:
  vector_view iterate(const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, vector_view x,
                      const_vector_view dinv, solver_result& res, const Kokkos::Timer& total) override;
};

vector_view bicgstab::iterate(const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, vector_view x,
                              const_vector_view dinv, solver_result& res, const Kokkos::Timer& total) {
  const int n = A.numRows();
  const bool jacobi = dinv.data() != nullptr;
  vector_view r("ppl::bicgstab::r", n), rh("ppl::bicgstab::r_hat", n), p("ppl::bicgstab::p", n),
      v("ppl::bicgstab::v", n), t("ppl::bicgstab::t", n);
  // Without a preconditioner p_hat is p and s_hat is s, which lives in r (s = r - alpha v is done in place).
  vector_view ph = jacobi ? vector_view("ppl::bicgstab::p_hat", n) : p;
  vector_view sh = jacobi ? vector_view("ppl::bicgstab::s_hat", n) : r;
  scalar_slots sl(STRIDE);
  auto s = sl.device();

  // r = b - A x, r_hat = r, p = v = 0; slots: rho = (r, r), and "previous" rv = ts = tt = 1 so that the first
  // beta multiplies p = 0 and v = 0 by finite numbers. Also used for residual replacement.
  auto start_recurrence = [&](bool have_residual, int cur) {  // cur: the set the next iteration uses
    if (!have_residual) {
      spmv.apply(A, x, r);
      vec::axpby(dev_coef::constant(1.0), b, dev_coef::constant(-1.0), r, s);
    }
    Kokkos::deep_copy(rh, r);
    Kokkos::deep_copy(p, 0.0);
    Kokkos::deep_copy(v, 0.0);
    vec::dots3(r, r, s, sl.at(cur, RHO));  // RHO = RR = (r, r)
    sl.fetch();
    sl.host(cur ^ 1, RV) = sl.host(cur ^ 1, TS) = sl.host(cur ^ 1, TT) = 1.0;
    sl.push();
    return std::sqrt(sl.host(cur, RR));
  };
  double rnorm = start_recurrence(false, 0);
  const double tol = stop_tolerance(o_, res.b_norm);
  record(o_, res, 0, rnorm);
  res.times.setup = total.seconds();

  Kokkos::Timer loop;
  phase_clock clock(o_.profile);
  int k = 0;
  bool done = false;
  bool moved = false;  // x changed since the recurrence last (re)started
  if (!std::isfinite(rnorm)) {
    res.outcome = solver_outcome::diverged_nan;
    done = true;
  }
  while (!done) {
    if (rnorm <= tol) {  // the recursive residual passes: check the true one
      const double true_norm = residual_norm(A, spmv, b, x, t);
      if (true_norm <= tol) {
        res.outcome = converged_outcome(o_, true_norm);
        break;
      }
      Kokkos::deep_copy(r, t);  // residual replacement: restart from b - A x
      rnorm = start_recurrence(true, k & 1);
      ++res.restarts;
      moved = false;
      clock.restart();
    }
    if (k >= o_.max_iters) {
      res.outcome = solver_outcome::diverged_max_iters;
      break;
    }
    const int c = k & 1, nx = c ^ 1;  // this iteration's slots, the previous (= next) iteration's
    clock.restart();
    // p = r + beta (p - omega' v), beta = (rho / rho') (alpha' / omega') = rho tt' / (rv' ts'), beta omega' = rho / rv'
    dev_coef beta;
    beta.num0 = sl.at(c, RHO);
    beta.num1 = sl.at(nx, TT);
    beta.den0 = sl.at(nx, RV);
    beta.den1 = sl.at(nx, TS);
    // With Jacobi, p_hat = D^-1 p is written by the same kernel (charged to "update").
    vec::axpbypcz(dev_coef::constant(1.0), r, dev_coef::ratio(sl.at(c, RHO), sl.at(nx, RV), -1.0), v, beta, p, s, dinv,
                  ph);
    clock.charge(res.times.update);
    spmv.apply(A, ph, v);
    clock.charge(res.times.spmv);
    vec::dots3(rh, v, s, sl.at(c, RV));  // rv, rhat2, vv
    clock.charge(res.times.dot);
    const dev_coef alpha =
        dev_coef::ratio(sl.at(c, RHO), sl.at(c, RV)).guarded(o_.breakdown_tol, sl.at(c, RHAT2), sl.at(c, VV));
    // s = r - alpha v, in r; with Jacobi also s_hat = D^-1 s
    vec::axpby(alpha.negated(), v, dev_coef::constant(1.0), r, s, dinv, sh);
    clock.charge(res.times.update);
    spmv.apply(A, sh, t);
    clock.charge(res.times.spmv);
    vec::dots3(t, r, s, sl.at(c, TS));  // ts, tt, ss
    clock.charge(res.times.dot);
    const dev_coef omega =
        dev_coef::ratio(sl.at(c, TS), sl.at(c, TT)).guarded(o_.breakdown_tol, sl.at(c, TT), sl.at(c, SS));
    vec::xr_update_dots(alpha, ph, omega, sh, x, omega.negated(), t, r, rh, s, sl.at(nx, RHO));
    clock.charge(res.times.update);
    sl.fetch();
    clock.charge(res.times.host);
    ++k;

    const double rv = sl.host(c, RV), rhat2 = sl.host(c, RHAT2), vv = sl.host(c, VV);
    const double ts = sl.host(c, TS), tt = sl.host(c, TT), ss = sl.host(c, SS);
    const double rho_next = sl.host(nx, RHO), rr = sl.host(nx, RR);
    rnorm = std::sqrt(rr);
    record(o_, res, k, rnorm);
    if (!std::isfinite(rv + rhat2 + vv + ts + tt + ss + rho_next + rr)) {
      res.outcome = solver_outcome::diverged_nan;
      break;
    }
    // alpha and omega as the device used them: with both 0 the iteration left x unchanged.
    moved = moved || vec::eval_on_host(alpha, sl.host_data()) != 0.0 || vec::eval_on_host(omega, sl.host_data()) != 0.0;
    if (rnorm <= tol) continue;  // the true residual is checked at the top of the loop
    if (negligible(rv, rhat2, vv, o_.breakdown_tol)) {
      res.breakdown = "alpha";  // (r_hat, A p) ~ 0: the step along p is undefined
    } else if (ss > 0 && negligible(ts, tt, ss, o_.breakdown_tol)) {
      res.breakdown = "omega";  // (t, s) ~ 0: the stabilising step makes no progress
    } else if (negligible(rho_next, rhat2, rr, o_.breakdown_tol)) {
      res.breakdown = "rho";  // (r_hat, r) ~ 0: the shadow residual is orthogonal to r
    }
    if (!res.breakdown.empty()) {
      if (!moved || res.breakdown_restarts >= o_.max_restarts) {
        res.outcome = solver_outcome::diverged_breakdown;
        break;
      }
      // Restart from x: r = b - A x and a new shadow residual r_hat = r, so (r_hat, r) = ||r||^2 again.
      res.breakdown.clear();
      ++res.breakdown_restarts;
      rnorm = start_recurrence(false, k & 1);
      moved = false;
      clock.restart();
    }
  }
  res.iterations = k;
  Kokkos::fence();
  res.times.iterate = loop.seconds();
  return t;
}

}  // namespace

std::unique_ptr<krylov_solver> make_bicgstab(const solver_options& o) {
  return std::make_unique<bicgstab>(o);
}

}  // namespace ppl
