// BiCGSTAB (van der Vorst 1992) with right preconditioning, so the recursive residual is the unpreconditioned
// one. Per iteration: 2 SpMV, 2 fused 3-dot reductions, 3 updates (the last fused with the 2 dots of the next
// rho and ||r||); a diagonal preconditioner (Jacobi) is fused into the first two updates, any other is applied
// after them. With Jacobi the direction is kept only as p_hat = D^-1 p (p is needed for nothing else), which saves
// its store: docs/solver.md counts the passes. The scalars stay on the device; the host reads the 16 scalar slots once
// per iteration (docs/solver.md: "What crosses to the host"), while the next iteration's first kernel runs. The
// loop around the steps is the shared driver (krylov_driver.cpp).
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

class bicgstab_method final : public krylov_method {
 public:
  explicit bicgstab_method(const solve_context& c)
      : c_(c),
        n_(c.A.numRows()),
        identity_(c.M.is_identity()),
        dinv_(c.M.inverse_diagonal()),
        fused_(dinv_.data() != nullptr),
        r_(make_large_view<vector_view>("ppl::bicgstab::r", n_)),
        rh_(make_large_view<vector_view>("ppl::bicgstab::r_hat", n_)),
        // With a fused Jacobi p is never formed: only p_hat.
        p_(fused_ ? vector_view() : make_large_view<vector_view>("ppl::bicgstab::p", n_)),
        v_(make_large_view<vector_view>("ppl::bicgstab::v", n_)),
        t_(make_large_view<vector_view>("ppl::bicgstab::t", n_)),
        // Without a preconditioner p_hat is p and s_hat is s, which lives in r (s = r - alpha v is done in place).
        ph_(identity_ ? p_ : make_large_view<vector_view>("ppl::bicgstab::p_hat", n_)),
        sh_(identity_ ? r_ : make_large_view<vector_view>("ppl::bicgstab::s_hat", n_)),
        sl_(c.space, STRIDE) {}

  // r = b - A x, r_hat = r, p = v = 0; slots: rho = (r, r), and "previous" rv = ts = tt = 1 so that the first
  // beta multiplies p = 0 and v = 0 by finite numbers.
  start_result start(bool residual_in_work, int k) override {
    const int cur = k & 1;  // the set the next iteration uses
    auto s = sl_.device();
    if (residual_in_work) {
      vec::copy(c_.space, r_, t_);
    } else {
      c_.spmv.apply(c_.space, c_.A, c_.x, r_);
      vec::axpby(c_.space, dev_coef::constant(1.0), c_.b, dev_coef::constant(-1.0), r_, s);
    }
    vec::copy(c_.space, rh_, r_);
    vec::fill(c_.space, fused_ ? ph_ : p_, 0.0);
    vec::fill(c_.space, v_, 0.0);
    direction_ready_ = false;                           // a new recurrence: its first direction comes from these slots
    vec::dots3(c_.space, r_, r_, s, sl_.at(cur, RHO));  // RHO = RR = (r, r)
    sl_.fetch();
    sl_.host(cur ^ 1, RV) = sl_.host(cur ^ 1, TS) = sl_.host(cur ^ 1, TT) = 1.0;
    sl_.push();
    return {std::sqrt(sl_.host(cur, RR)), true};
  }

  step_result step(int k, phase_clock& clock, solver_times& times) override {
    const auto& o = c_.o;
    auto s = sl_.device();
    const int c = k & 1, nx = c ^ 1;  // this iteration's slots, the previous (= next) iteration's
    if (!direction_ready_) direction_update(k);
    direction_ready_ = false;
    clock.charge(times.update);
    if (!identity_ && !fused_) {
      c_.M.apply(c_.space, p_, ph_);
      clock.charge(times.precond);
    }
    c_.spmv.apply(c_.space, c_.A, ph_, v_);
    clock.charge(times.spmv);
    vec::dots3(c_.space, rh_, v_, s, sl_.at(c, RV));  // rv, rhat2, vv
    clock.charge(times.dot);
    const dev_coef alpha =
        dev_coef::ratio(sl_.at(c, RHO), sl_.at(c, RV)).guarded(o.breakdown_tol, sl_.at(c, RHAT2), sl_.at(c, VV));
    // s = r - alpha v, in r; with a diagonal M also s_hat = D^-1 s
    vec::axpby(c_.space, alpha.negated(), v_, dev_coef::constant(1.0), r_, s, dinv_, fused_ ? sh_ : vector_view());
    clock.charge(times.update);
    if (!identity_ && !fused_) {
      c_.M.apply(c_.space, r_, sh_);
      clock.charge(times.precond);
    }
    c_.spmv.apply(c_.space, c_.A, sh_, t_);
    clock.charge(times.spmv);
    vec::dots3(c_.space, t_, r_, s, sl_.at(c, TS));  // ts, tt, ss
    clock.charge(times.dot);
    const dev_coef omega =
        dev_coef::ratio(sl_.at(c, TS), sl_.at(c, TT)).guarded(o.breakdown_tol, sl_.at(c, TT), sl_.at(c, SS));
    vec::xr_update_dots(c_.space, alpha, ph_, omega, sh_, c_.x, omega.negated(), t_, r_, rh_, s, sl_.at(nx, RHO));
    clock.charge(times.update);
    sl_.fetch_begin();
    // The next iteration's direction update needs only device data: queued now, it runs while the host waits for
    // the scalars and decides, instead of after (an idle device between iterations). If the driver ends or
    // restarts the recurrence instead, the update is unused (start() begins a new direction). Not when profiling,
    // which fences each phase.
    if (!o.profile) {
      direction_update(k + 1);
      direction_ready_ = true;
    }
    sl_.fetch_end();
    clock.charge(times.host);

    const double rv = sl_.host(c, RV), rhat2 = sl_.host(c, RHAT2), vv = sl_.host(c, VV);
    const double ts = sl_.host(c, TS), tt = sl_.host(c, TT), ss = sl_.host(c, SS);
    const double rho_next = sl_.host(nx, RHO), rr = sl_.host(nx, RR);
    step_result st;
    st.rnorm = std::sqrt(rr);
    st.finite = std::isfinite(rv + rhat2 + vv + ts + tt + ss + rho_next + rr);
    if (!st.finite) return st;
    // alpha and omega as the device used them: with both 0 the iteration left x unchanged.
    st.moved = vec::eval_on_host(alpha, sl_.host_data()) != 0.0 || vec::eval_on_host(omega, sl_.host_data()) != 0.0;
    if (negligible(rv, rhat2, vv, o.breakdown_tol)) {
      st.breakdown = "alpha";  // (r_hat, A p) ~ 0: the step along p is undefined
    } else if (ss > 0 && negligible(ts, tt, ss, o.breakdown_tol)) {
      st.breakdown = "omega";  // (t, s) ~ 0: the stabilising step makes no progress
    } else if (negligible(rho_next, rhat2, rr, o.breakdown_tol)) {
      st.breakdown = "rho";  // (r_hat, r) ~ 0: the shadow residual is orthogonal to r
    }
    return st;
  }

  vector_view work() override { return t_; }

 private:
  // The first kernel of iteration k: p = r + beta (p - omega' v), beta = (rho / rho') (alpha' / omega') =
  // rho tt' / (rv' ts'), beta omega' = rho / rv'; with Jacobi p_hat = D^-1 (r - beta omega' v) + beta p_hat.
  void direction_update(int k) {
    auto s = sl_.device();
    const int c = k & 1, nx = c ^ 1;
    dev_coef beta;
    beta.num0 = sl_.at(c, RHO);
    beta.num1 = sl_.at(nx, TT);
    beta.den0 = sl_.at(nx, RV);
    beta.den1 = sl_.at(nx, TS);
    const dev_coef beta_omega = dev_coef::ratio(sl_.at(c, RHO), sl_.at(nx, RV), -1.0);
    if (fused_) {
      vec::scaled_axpy_pcz(c_.space, dinv_, r_, beta_omega, v_, beta, ph_, s);
    } else {
      vec::axpbypcz(c_.space, dev_coef::constant(1.0), r_, beta_omega, v_, beta, p_, s);
    }
  }

  const solve_context c_;
  const int n_;
  const bool identity_;
  const const_vector_view dinv_;  // M^-1 when M is diagonal (fused into the updates), else empty
  const bool fused_;              // dinv_ is given
  vector_view r_, rh_, p_, v_, t_, ph_, sh_;
  scalar_slots sl_;
  bool direction_ready_ = false;  // the last step queued this iteration's direction update
};

class bicgstab final : public krylov_method_solver {
 public:
  explicit bicgstab(const solver_options& o) : krylov_method_solver("bicgstab", o) {}

 private:
  std::unique_ptr<krylov_method> create(const solve_context& c) const override {
    return std::make_unique<bicgstab_method>(c);
  }
};

}  // namespace

std::unique_ptr<krylov_solver> make_bicgstab(const solver_options& o, const no_parameters&) {
  return std::make_unique<bicgstab>(o);
}

}  // namespace ppl
