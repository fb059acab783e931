#pragma once
// What the Krylov methods share: the phase clock, the device scalar slots with their one host copy per iteration,
// the method interface that the one driver loop runs, the convergence test and argument checks. Private to
// src/sparse/.
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "ppl/core/huge_pages.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "ppl/sparse/vector_ops.hpp"
#include "scalar_transfer.hpp"

namespace ppl::krylov_detail {

// Times the phases of an iteration only when profiling: charge() then fences and adds the time since the previous
// charge to a bucket. Without profiling charge() does nothing, so kernels stay queued back to back.
class phase_clock {
 public:
  phase_clock(bool profile, const execution& space) : profile_(profile), space_(space) {}
  void restart() {
    if (profile_) {
      space_.fence();
      timer_.reset();
    }
  }
  void charge(double& bucket) {
    if (!profile_) return;
    space_.fence();
    bucket += timer_.seconds();
    timer_.reset();
  }

 private:
  bool profile_;
  execution space_;
  Kokkos::Timer timer_;
};

// Two sets of `stride` slots on the device, used alternately by even and odd iterations, so an iteration can read
// the previous iteration's scalars (beta needs them) while it writes its own, with no race inside a kernel.
class scalar_slots {
 public:
  scalar_slots(const execution& space, int stride)
      : stride_(stride), dev_("ppl::krylov::scalars", 2 * stride), transfer_(make_scalar_transfer(space, 2 * stride)) {}
  int at(int set, int name) const { return (set & 1) * stride_ + name; }
  vec::scalar_view device() const { return dev_; }
  // The one device -> host transfer of an iteration (2 * stride doubles), whole or in two halves: device work
  // queued between fetch_begin() and fetch_end() may run while the host waits (scalar_transfer.hpp).
  void fetch() {
    fetch_begin();
    fetch_end();
  }
  void fetch_begin() { transfer_->begin(dev_.data()); }
  void fetch_end() { transfer_->wait(); }
  void push() {
    Kokkos::deep_copy(dev_, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                transfer_->host(), dev_.extent(0)));
  }
  double& host(int set, int name) { return transfer_->host()[at(set, name)]; }
  const double* host_data() const { return transfer_->host(); }

 private:
  int stride_;
  vec::scalar_view dev_;
  std::unique_ptr<scalar_transfer> transfer_;
};

// The state of one solve that a method's steps work on: the execution space, the system, the SpMV, the
// preconditioner (already set up) and the options. Lives for the whole solve.
struct solve_context {
  const execution& space;
  const crs_matrix& A;
  spmv_strategy& spmv;
  const_vector_view b;
  vector_view x;
  const preconditioner& M;
  const solver_options& o;
  double tol;  // the stopping tolerance max(rtol ||b||, atol)
};

// What the driver needs to know after a (re)start of the recurrence.
struct start_result {
  double rnorm = 0;    // ||r|| of the new recurrence
  bool finite = true;  // its scalars are finite (checked by the driver at the first start only)
};

// What the driver needs to know after one step.
struct step_result {
  double rnorm = 0;                 // ||r_k||: the recursive residual (GMRES: the least-squares estimate)
  bool finite = true;               // every scalar the step formed is finite
  bool moved = false;               // the step changed x (a restart from an unmoved x would repeat a breakdown)
  const char* breakdown = nullptr;  // the vanished denominator (docs/solver.md), or nullptr
};

// One method's per-solve state (work vectors, scalar slots) and steps. The driver (krylov_driver.cpp) owns the
// loop: true-residual check and residual replacement, max_iters, NaN and breakdown exits with restarts, history,
// progress and timers; a method only knows how to start its recurrence and make one step.
class krylov_method {
 public:
  virtual ~krylov_method() = default;
  // (Re)starts the recurrence from the current x at iteration k: r = b - A x, or, with `residual_in_work`, from
  // work(), which then holds b - A x (the driver's true residual: residual replacement).
  virtual start_result start(bool residual_in_work, int k) = 0;
  // A breakdown the host sees before iteration k does any work (BiCG: rho = (z, r~) ~ 0), else nullptr.
  virtual const char* breakdown_before_step(int k) {
    (void)k;
    return nullptr;
  }
  // Iteration k (0-based) from the current recurrence; charges its phases through `clock` to `times`.
  virtual step_result step(int k, phase_clock& clock, solver_times& times) = 0;
  // Called once after the loop, whatever the outcome, before the final true residual: x must then hold the last
  // iterate (GMRES forms it from a partly built cycle).
  virtual void conclude() {}
  // A vector of A's rows that the driver may overwrite between steps (the true residual b - A x goes there).
  virtual vector_view work() = 0;
};

// A registered solver: builds its method for a solve, then runs the one driver loop. The profiling region
// "ppl::solver[<name>]" is popped also when an input error is thrown.
class krylov_method_solver : public krylov_solver {
 public:
  krylov_method_solver(std::string name, const solver_options& o) : name_(std::move(name)), o_(o) {}
  std::string name() const final { return name_; }
  solver_result solve(const execution& space, const crs_matrix& A, spmv_strategy& spmv, const_vector_view b,
                      vector_view x) final;

 protected:
  // The method's state for one solve (allocates its work vectors; may build what it needs, e.g. BiCG's A^T).
  virtual std::unique_ptr<krylov_method> create(const solve_context& c) const = 0;

 private:
  solver_result run(const execution& space, const crs_matrix& A, spmv_strategy& spmv, const_vector_view b,
                    vector_view x);
  const std::string name_;
  const solver_options o_;
};

// |d| <= tol * sqrt(|uu * ww|): d = (u, w) is negligible next to ||u|| ||w||.
inline bool negligible(double d, double uu, double ww, double tol) {
  return std::fabs(d) <= tol * std::sqrt(std::fabs(uu * ww));
}

// Checks shapes, finiteness of b and x0; fills result.b_norm. Returns false (outcome set) when b or x0 holds a
// NaN/Inf.
bool check_inputs(const execution& space, const crs_matrix& A, const_vector_view b, const_vector_view x,
                  const std::string& solver, solver_result& result);

// The stopping tolerance max(rtol ||b||, atol) and the outcome it names for a residual that meets it.
double stop_tolerance(const solver_options& o, double b_norm);
// As PETSc: converged_atol when the residual is below atol (strictly), else converged_rtol.
solver_outcome converged_outcome(const solver_options& o, double residual_norm);

// Records ||r_k|| in the history and reports progress.
void record(const solver_options& o, solver_result& result, int iteration, double rnorm);

// The final true residual (synchronises); fills result.true_residual{,_norm} and the finish/total times.
void finish(const execution& space, const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, const_vector_view x,
            vector_view work, solver_result& result);

}  // namespace ppl::krylov_detail
