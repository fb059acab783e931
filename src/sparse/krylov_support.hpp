#pragma once
// What BiCGSTAB and BiCG share: the phase clock, the device scalar slots with their one host copy per iteration,
// the convergence test and argument checks. Private to src/sparse/.
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <cmath>
#include <string>
#include <utility>

#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/vector_ops.hpp"

namespace ppl::krylov_detail {

// Times the phases of an iteration only when profiling: charge() then fences and adds the time since the previous
// charge to a bucket. Without profiling charge() does nothing, so kernels stay queued back to back.
class phase_clock {
 public:
  explicit phase_clock(bool profile) : profile_(profile) {}
  void restart() {
    if (profile_) {
      Kokkos::fence();
      timer_.reset();
    }
  }
  void charge(double& bucket) {
    if (!profile_) return;
    Kokkos::fence();
    bucket += timer_.seconds();
    timer_.reset();
  }

 private:
  bool profile_;
  Kokkos::Timer timer_;
};

// Two sets of `stride` slots on the device, used alternately by even and odd iterations, so an iteration can read
// the previous iteration's scalars (beta needs them) while it writes its own, with no race inside a kernel.
class scalar_slots {
 public:
  explicit scalar_slots(int stride) : stride_(stride), dev_("ppl::krylov::scalars", 2 * stride) {
    host_ = Kokkos::create_mirror_view(dev_);
  }
  int at(int set, int name) const { return (set & 1) * stride_ + name; }
  vec::scalar_view device() const { return dev_; }
  // The one device -> host transfer of an iteration (2 * stride doubles).
  void fetch() { Kokkos::deep_copy(host_, dev_); }
  void push() { Kokkos::deep_copy(dev_, host_); }
  double& host(int set, int name) { return host_(at(set, name)); }
  const double* host_data() const { return host_.data(); }

 private:
  int stride_;
  vec::scalar_view dev_;
  vec::scalar_view::HostMirror host_;
};

// What every solve shares around its iterations: the profiling region "ppl::solver[<name>]" (popped also when an
// input error is thrown), the result and its total timer, the argument checks, the Jacobi inverse diagonal and
// the final true residual. A method implements iterate().
class krylov_method : public krylov_solver {
 public:
  krylov_method(std::string name, const solver_options& o) : name_(std::move(name)), o_(o) {}
  std::string name() const final { return name_; }
  solver_result solve(const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, vector_view x) final;

 protected:
  // Sets up and iterates from the guess in x; `dinv` is the Jacobi inverse diagonal, empty without a
  // preconditioner. Fills result.times.setup (from `total`) and .iterate, .iterations, .outcome; returns a work
  // vector of A's rows that the final true residual may overwrite.
  virtual vector_view iterate(const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, vector_view x,
                              const_vector_view dinv, solver_result& result, const Kokkos::Timer& total) = 0;

  const std::string name_;
  const solver_options o_;
};

// |d| <= tol * sqrt(|uu * ww|): d = (u, w) is negligible next to ||u|| ||w||.
inline bool negligible(double d, double uu, double ww, double tol) {
  return std::fabs(d) <= tol * std::sqrt(std::fabs(uu * ww));
}

// Checks shapes, finiteness of b and x0; fills result.b_norm. Returns false (outcome set) when b or x0 holds a
// NaN/Inf.
bool check_inputs(const crs_matrix& A, const_vector_view b, const_vector_view x, const std::string& solver,
                  solver_result& result);

// The stopping tolerance max(rtol ||b||, atol) and the outcome it names for a residual that meets it.
double stop_tolerance(const solver_options& o, double b_norm);
// As PETSc: converged_atol when the residual is below atol (strictly), else converged_rtol.
solver_outcome converged_outcome(const solver_options& o, double residual_norm);

// Records ||r_k|| in the history and reports progress.
void record(const solver_options& o, solver_result& result, int iteration, double rnorm);

// The final true residual (synchronises); fills result.true_residual{,_norm} and the finish/total times.
void finish(const crs_matrix& A, spmv_strategy& spmv, const_vector_view b, const_vector_view x, vector_view work,
            solver_result& result);

}  // namespace ppl::krylov_detail
