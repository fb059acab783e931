// GMRES(m) (Saad & Schultz 1986), restarted, right-preconditioned: A M^-1 u = b, x = x0 + M^-1 V y, so the
// residual it minimises and reports is the unpreconditioned b - A x that the tolerance talks about.
//
// The Arnoldi basis V (n x (m+1), one column per vector, on the device) is orthogonalised by classical Gram-Schmidt
// done twice (CGS2): h = V^T w, w -= V h, twice, then ||w|| in the same pass as the second correction; the first
// correction and the second projection share one pass over V (3 passes over V per step, not 4). CGS2 keeps
// the basis orthogonal to working precision like MGS does (Giraud, Langou, Rozloznik 2005: "twice is enough"), but
// needs 2 reductions per step (each over all j+1 columns at once) where MGS needs j+1 dependent ones, each a
// kernel and a pass over w; docs/solver.md says more. The Hessenberg matrix, its Givens rotations and the
// least-squares residual |g_{j+1}| live on the host: one copy of the step's j+3 scalars per iteration, as the other
// solvers copy their slots.
//
// An iteration is one Arnoldi step. x is formed (x += M^-1 V y) when the least-squares residual passes the
// tolerance (the driver then checks the true residual), at the end of a cycle (after m steps; the next cycle starts
// from r = b - A x, and the history records that true residual), after a breakdown, and when the loop ends.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <vector>

#include "krylov_support.hpp"

namespace ppl {
namespace {

using namespace krylov_detail;
using vec::dev_coef;

class gmres_method final : public krylov_method {
 public:
  gmres_method(const solve_context& c, const gmres_params& p, const gmres_observer& observer)
      : c_(c),
        observer_(observer),
        n_(c.A.numRows()),
        m_(std::max(1, std::min(p.restart, n_))),  // a basis of more than n vectors cannot grow
        identity_(c.M.is_identity()),
        pad_(vec::multi_dot_slots(m_ + 1)),
        V_(make_large_view<vec::basis_view>("ppl::gmres::V", n_, m_ + 1)),
        u_(make_large_view<vector_view>("ppl::gmres::u", n_)),
        z_(identity_ ? vector_view() : make_large_view<vector_view>("ppl::gmres::z", n_)),
        s_("ppl::gmres::scalars", 3 * pad_ + 3),  // norm_slot() takes dots3's three sums
        R_(static_cast<std::size_t>(m_ + 1) * m_, 0.0),
        g_(m_ + 1, 0.0),
        cs_(m_, 0.0),
        sn_(m_, 0.0),
        colnorm_(m_, 0.0) {
    sh_ = Kokkos::create_mirror_view(s_);
  }

  // A new cycle: r = b - A x (or the driver's true residual) in V(:, 0), beta = ||r||, V(:, 0) = r / beta.
  start_result start(bool residual_in_work, int) override {
    const vector_view v0 = column(0);
    if (residual_in_work) {
      vec::copy(c_.space, v0, u_);
    } else {
      c_.spmv.apply(c_.space, c_.A, c_.x, v0);
      vec::axpby(c_.space, dev_coef::constant(1.0), c_.b, dev_coef::constant(-1.0), v0, s_);
    }
    vec::dots3(c_.space, v0, v0, s_, norm_slot());
    fetch();
    const double beta = std::sqrt(sh_(norm_slot()));
    if (beta > 0 && std::isfinite(beta))
      vec::axpby(c_.space, dev_coef::constant(1.0 / beta), v0, dev_coef::constant(0.0), v0, s_);
    std::fill(g_.begin(), g_.end(), 0.0);
    g_[0] = beta;
    j_ = 0;
    return {beta, std::isfinite(beta)};
  }

  step_result step(int, phase_clock& clock, solver_times& times) override {
    const int j = j_, cols = j + 1;
    const vector_view vj = column(j), w = column(j + 1);
    if (identity_) {
      c_.spmv.apply(c_.space, c_.A, vj, w);
      clock.charge(times.spmv);
    } else {
      c_.M.apply(c_.space, vj, z_);
      clock.charge(times.precond);
      c_.spmv.apply(c_.space, c_.A, z_, w);
      clock.charge(times.spmv);
    }
    // CGS2: h1 = V^T w; w -= V h1 and h2 = V^T w in one pass over V; w -= V h2 with ||w||^2 in the same pass.
    vec::multi_dots(c_.space, V_, cols, w, s_, h1_slot());
    clock.charge(times.dot);
    vec::combine_then_dots(c_.space, V_, cols, s_, h1_slot(), w, h2_slot());
    clock.charge(times.update);
    vec::combine(c_.space, V_, cols, s_, h2_slot(), -1.0, 1.0, w, norm_slot());
    clock.charge(times.update);
    fetch();
    clock.charge(times.host);

    step_result st;
    double col2 = 0;  // ||A M^-1 v_j||^2 = sum h_ij^2 + h_{j+1,j}^2 (Pythagoras: w was split into V h and the rest)
    double* h = &R_[static_cast<std::size_t>(j) * (m_ + 1)];  // column j of the Hessenberg matrix
    for (int i = 0; i < cols; ++i) {
      h[i] = sh_(h1_slot() + i) + sh_(h2_slot() + i);
      col2 += h[i] * h[i];
    }
    const double hn = std::sqrt(sh_(norm_slot()));
    col2 += hn * hn;
    st.finite = std::isfinite(col2);
    if (!st.finite) {
      poisoned_ = true;  // this column is not usable: x keeps the iterate of the cycle's start
      st.rnorm = std::nan("");
      return st;
    }
    colnorm_[j] = std::sqrt(col2);
    // h_{j+1,j} ~ 0: A M^-1 v_j lies in the span of V (an invariant subspace). The least-squares solution is then
    // exact in it; v_{j+1} is not formed.
    const bool invariant = hn <= c_.o.breakdown_tol * colnorm_[j];
    if (!invariant) vec::axpby(c_.space, dev_coef::constant(1.0 / hn), w, dev_coef::constant(0.0), w, s_);
    clock.charge(times.update);

    // The previous rotations on column j, then the one that zeroes h_{j+1,j}.
    for (int i = 0; i < j; ++i) {
      const double a = h[i], b = h[i + 1];
      h[i] = cs_[i] * a + sn_[i] * b;
      h[i + 1] = -sn_[i] * a + cs_[i] * b;
    }
    const double rho = std::hypot(h[j], hn);
    cs_[j] = rho > 0 ? h[j] / rho : 1.0;
    sn_[j] = rho > 0 ? hn / rho : 0.0;
    h[j] = rho;
    g_[j + 1] = -sn_[j] * g_[j];
    g_[j] = cs_[j] * g_[j];
    j_ = j + 1;
    // |g_{j+1}| is the least-squares residual while R is nonsingular. rho ~ 0 (only with an invariant subspace and a
    // singular A) leaves the component g_j unreducible: y_j is taken as 0 and the residual keeps it.
    const bool singular = rho <= c_.o.breakdown_tol * colnorm_[j];
    st.rnorm = singular ? std::hypot(g_[j], g_[j + 1]) : std::fabs(g_[j + 1]);

    if (st.rnorm <= c_.tol || j_ == m_ || invariant) {
      if (observer_.basis) observer_.basis(V_, invariant ? j_ : j_ + 1);  // v_{j+1} is not formed when invariant
      st.moved = update_x(clock, times);
      if (st.rnorm > c_.tol) {
        if (invariant) {
          st.breakdown = "arnoldi";  // the Krylov space stopped growing short of the tolerance (singular A)
        } else {
          st.rnorm = start(false, 0).rnorm;  // end of the cycle: the next starts from the true residual
          st.finite = std::isfinite(st.rnorm);
        }
      }
    }
    return st;
  }

  // The loop ended inside a cycle: form x from the steps made so far.
  void conclude() override {
    if (j_ > 0 && !poisoned_) {
      phase_clock off(false, c_.space);
      solver_times unused;
      update_x(off, unused);
    }
  }

  vector_view work() override { return u_; }

 private:
  vector_view column(int c) const { return Kokkos::subview(V_, Kokkos::ALL, c); }
  int h1_slot() const { return 0; }
  int h2_slot() const { return pad_; }
  int y_slot() const { return 2 * pad_; }
  int norm_slot() const { return 3 * pad_; }
  void fetch() { Kokkos::deep_copy(sh_, s_); }

  // Solves the rotated triangle R y = g (j_ x j_), then x += M^-1 V y; ends the cycle (j_ = 0). A diagonal entry
  // that vanished next to its column (a singular Hessenberg matrix) contributes 0 instead of an Inf. Returns
  // whether x changed.
  bool update_x(phase_clock& clock, solver_times& times) {
    const int k = j_;
    j_ = 0;
    std::vector<double> y(k, 0.0);
    bool moved = false;
    for (int i = k - 1; i >= 0; --i) {
      double v = g_[i];
      for (int l = i + 1; l < k; ++l) v -= R_[static_cast<std::size_t>(l) * (m_ + 1) + i] * y[l];
      const double d = R_[static_cast<std::size_t>(i) * (m_ + 1) + i];
      y[i] = std::fabs(d) > c_.o.breakdown_tol * colnorm_[i] ? v / d : 0.0;
      moved = moved || y[i] != 0.0;
    }
    if (!moved) return false;
    for (int i = 0; i < k; ++i) sh_(y_slot() + i) = y[i];
    Kokkos::deep_copy(s_, sh_);
    if (identity_) {
      vec::combine(c_.space, V_, k, s_, y_slot(), 1.0, 1.0, c_.x);
    } else {
      vec::combine(c_.space, V_, k, s_, y_slot(), 1.0, 0.0, u_);
      clock.charge(times.update);
      c_.M.apply(c_.space, u_, z_);
      clock.charge(times.precond);
      vec::axpby(c_.space, dev_coef::constant(1.0), z_, dev_coef::constant(1.0), c_.x, s_);
    }
    clock.charge(times.update);
    return true;
  }

  const solve_context c_;
  const gmres_observer& observer_;
  const int n_, m_;
  const bool identity_;
  const int pad_;       // scalar slots per block: h1, h2, y (each padded for multi_dots), then ||w||^2
  vec::basis_view V_;   // the Arnoldi basis, m + 1 columns
  vector_view u_, z_;   // u: V y and the driver's true residual; z: M^-1 v (absent for M = I)
  vec::scalar_view s_;  // device scalar slots
  vec::scalar_view::HostMirror sh_;
  std::vector<double> R_;  // column-major (m + 1) x m: the Hessenberg matrix, rotated into R in place
  std::vector<double> g_, cs_, sn_, colnorm_;
  int j_ = 0;              // steps made in the current cycle
  bool poisoned_ = false;  // a step produced NaN/Inf: x stays as it is
};

class gmres final : public krylov_method_solver {
 public:
  gmres(const solver_options& o, const gmres_params& p, gmres_observer observer)
      : krylov_method_solver("gmres", o), p_(p), observer_(std::move(observer)) {}

 private:
  std::unique_ptr<krylov_method> create(const solve_context& c) const override {
    return std::make_unique<gmres_method>(c, p_, observer_);
  }
  const gmres_params p_;
  const gmres_observer observer_;
};

}  // namespace

const parameter_fields<gmres_params>& gmres_params::fields() {
  static const auto f = parameter_fields<gmres_params>().integer(
      "restart", &gmres_params::restart, 1, gmres_max_restart,
      "m: the Krylov basis holds m vectors before the cycle restarts from the current x (memory: (min(m, n) + 1) n "
      "doubles)");
  return f;
}

std::unique_ptr<krylov_solver> make_gmres(const solver_options& o, const gmres_params& p, gmres_observer observer) {
  gmres_params::fields().check(p);
  return std::make_unique<gmres>(o, p, std::move(observer));
}

}  // namespace ppl
