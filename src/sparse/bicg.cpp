// BiCG (Fletcher 1976; preconditioned form of Barrett et al., "Templates", 1994), the method of the 2016 study.
// Needs A^T products (spmv_strategy::apply_transpose) and M^-T (preconditioner::apply_transpose). Per iteration:
// 2 SpMV (one transposed), 2 updates of the directions, 1 fused 3-dot, 1 fused update of x, r, r~ with the next
// dots, and with a preconditioner 2 applications plus one more 3-dot. The host reads the scalar slots once per
// iteration, while the next iteration's direction updates run. The loop around the steps is the shared driver
// (krylov_driver.cpp).
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

class bicg_method final : public krylov_method {
 public:
  explicit bicg_method(const solve_context& c)
      : c_(c),
        n_(c.A.numRows()),
        pre_(!c.M.is_identity()),
        r_(make_large_view<vector_view>("ppl::bicg::r", n_)),
        rt_(make_large_view<vector_view>("ppl::bicg::r_tilde", n_)),
        p_(make_large_view<vector_view>("ppl::bicg::p", n_)),
        pt_(make_large_view<vector_view>("ppl::bicg::p_tilde", n_)),
        q_(make_large_view<vector_view>("ppl::bicg::q", n_)),
        qt_(make_large_view<vector_view>("ppl::bicg::q_tilde", n_)),
        z_(pre_ ? make_large_view<vector_view>("ppl::bicg::z", n_) : r_),
        zt_(pre_ ? make_large_view<vector_view>("ppl::bicg::z_tilde", n_) : rt_),
        sl_(c.space, STRIDE),
        rr_slot_(pre_ ? U_RR : Z2) {
    // Builds the strategy's cached transpose (if it uses one) now, in the setup time.
    c_.spmv.apply_transpose(c_.space, c_.A, c_.b, qt_);
  }

  // r = b - A x, r~ = r, p = p~ = 0, z = M^-1 r; slots: rho = (z, r~) and "previous" rho = 1, so the first beta
  // multiplies p = 0.
  start_result start(bool residual_in_work, int k) override {
    const int cur = k & 1;  // the set the next iteration uses
    auto s = sl_.device();
    if (residual_in_work) {
      vec::copy(c_.space, r_, q_);
    } else {
      c_.spmv.apply(c_.space, c_.A, c_.x, r_);
      vec::axpby(c_.space, dev_coef::constant(1.0), c_.b, dev_coef::constant(-1.0), r_, s);
    }
    vec::copy(c_.space, rt_, r_);
    vec::fill(c_.space, p_, 0.0);
    vec::fill(c_.space, pt_, 0.0);
    direction_ready_ = false;  // a new recurrence: its first direction comes from these slots
    vec::dots3(c_.space, r_, rt_, s, sl_.at(cur, pre_ ? U_RRT : RHO));  // (r, r~), (r, r), (r~, r~)
    if (pre_) precondition_and_dot(cur);
    sl_.fetch();
    sl_.host(cur ^ 1, RHO) = 1.0;
    sl_.push();
    const double rho = sl_.host(cur, RHO);
    return {std::sqrt(sl_.host(cur, rr_slot_)), std::isfinite(rho)};
  }

  // rho = (z, r~) ~ 0 (Lanczos breakdown): with a preconditioner already possible at the start, e.g. (D^-1 r, r)
  // for an indefinite diagonal.
  const char* breakdown_before_step(int k) override {
    const int c = k & 1;
    return negligible(sl_.host(c, RHO), sl_.host(c, Z2), sl_.host(c, RT2), c_.o.breakdown_tol) ? "rho" : nullptr;
  }

  step_result step(int k, phase_clock& clock, solver_times& times) override {
    auto s = sl_.device();
    const int c = k & 1, nx = c ^ 1;
    if (!direction_ready_) direction_update(k);
    direction_ready_ = false;
    clock.charge(times.update);
    c_.spmv.apply(c_.space, c_.A, p_, q_);
    c_.spmv.apply_transpose(c_.space, c_.A, pt_, qt_);
    clock.charge(times.spmv);
    vec::dots3(c_.space, pt_, q_, s, sl_.at(c, PQ));
    clock.charge(times.dot);
    const dev_coef alpha =
        dev_coef::ratio(sl_.at(c, RHO), sl_.at(c, PQ)).guarded(c_.o.breakdown_tol, sl_.at(c, PT2), sl_.at(c, Q2));
    vec::bicg_update_dots(c_.space, alpha, p_, q_, qt_, c_.x, r_, rt_, s, sl_.at(nx, pre_ ? U_RRT : RHO));
    clock.charge(times.update);
    if (pre_) {
      c_.M.apply(c_.space, r_, z_);
      c_.M.apply_transpose(c_.space, rt_, zt_);
      clock.charge(times.precond);
      vec::dots3(c_.space, z_, rt_, s, sl_.at(nx, RHO));
      clock.charge(times.dot);
    }
    sl_.fetch_begin();
    // As in BiCGSTAB: the next iteration's direction update runs while the host waits for the scalars (unused if
    // the driver ends or restarts the recurrence: start() sets p = p~ = 0).
    if (!c_.o.profile) {
      direction_update(k + 1);
      direction_ready_ = true;
    }
    sl_.fetch_end();
    clock.charge(times.host);

    const double pq = sl_.host(c, PQ), pt2 = sl_.host(c, PT2), q2 = sl_.host(c, Q2);
    const double rho_next = sl_.host(nx, RHO), z2 = sl_.host(nx, Z2), rt2 = sl_.host(nx, RT2);
    const double rr = sl_.host(nx, rr_slot_);
    step_result st;
    st.rnorm = std::sqrt(rr);
    st.finite = std::isfinite(pq + pt2 + q2 + rho_next + z2 + rt2 + rr);
    if (!st.finite) return st;
    st.moved = vec::eval_on_host(alpha, sl_.host_data()) != 0.0;              // x += alpha p as the device did it
    if (negligible(pq, pt2, q2, c_.o.breakdown_tol)) st.breakdown = "alpha";  // (p~, A p) ~ 0: pivot breakdown
    return st;
  }

  vector_view work() override { return q_; }

 private:
  // The first kernels of iteration k: p = z + beta p, p~ = z~ + beta p~, beta = rho / rho'.
  void direction_update(int k) {
    auto s = sl_.device();
    const int c = k & 1, nx = c ^ 1;
    const dev_coef beta = dev_coef::ratio(sl_.at(c, RHO), sl_.at(nx, RHO));
    vec::axpby(c_.space, dev_coef::constant(1.0), z_, beta, p_, s);
    vec::axpby(c_.space, dev_coef::constant(1.0), zt_, beta, pt_, s);
  }

  void precondition_and_dot(int set) {
    c_.M.apply(c_.space, r_, z_);
    c_.M.apply_transpose(c_.space, rt_, zt_);
    vec::dots3(c_.space, z_, rt_, sl_.device(), sl_.at(set, RHO));
  }

  const solve_context c_;
  const int n_;
  const bool pre_;  // M is not the identity: z and z~ are vectors of their own
  vector_view r_, rt_, p_, pt_, q_, qt_, z_, zt_;
  scalar_slots sl_;
  const int rr_slot_;
  bool direction_ready_ = false;  // the last step queued this iteration's direction update
};

class bicg final : public krylov_method_solver {
 public:
  explicit bicg(const solver_options& o) : krylov_method_solver("bicg", o) {}

 private:
  std::unique_ptr<krylov_method> create(const solve_context& c) const override {
    return std::make_unique<bicg_method>(c);
  }
};

}  // namespace

std::unique_ptr<krylov_solver> make_bicg(const solver_options& o, const no_parameters&) {
  return std::make_unique<bicg>(o);
}

}  // namespace ppl
