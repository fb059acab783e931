#pragma once
// The solve job's work, callable on its own so that `job: solve` and `job: sweep` load, solve and check a system
// with one code path (the sweep repeats run_solve() to time it).
#include <string>

#include "ppl/sparse/csr.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/system_scaling.hpp"
#include "solve_config.hpp"

namespace ppl {

struct solve_system {
  // The system as solved: s_A A and s_A s_x b (scaling). The solution, the norms and the outputs are in the
  // units of the input; matrix() and rhs() give A and b back.
  crs_matrix A;
  vector_view b, x_exact;  // x_exact (unscaled) empty unless rhs: manufactured
  system_scaling scaling;  // powers of two; identity for magnitudes within 2^+-100 (system_scaling.hpp)
  std::string description;
  double seconds = 0;               // loading or generating, moving to the device, preparing the SpMV strategy
  host_csr matrix() const;          // A as given
  std::vector<double> rhs() const;  // b as given
};

// Builds A and b as the configuration says (a file's host copy is moved to the device and freed), scales them
// when their magnitudes would overflow a solve's norms, and prepares cfg.spmv for A.
solve_system load_solve_system(solve_config& cfg);

struct solve_run {
  solver_result result;
  vector_view x;
  double error_l2 = -1, error_max = -1;  // against x* (manufactured systems only; -1 otherwise)
};

// One solve from the configured initial guess (zero or solver.initial_guess) with `options` (atol and the result's
// norms, history and x in the units of the input).
solve_run run_solve(const solve_config& cfg, const solve_system& sys, const solver_options& options);

}  // namespace ppl
