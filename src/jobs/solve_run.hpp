#pragma once
// The solve job's work, callable on its own so that `job: solve` and `job: sweep` load, solve and check a system
// with one code path (the sweep repeats run_solve() to time it).
#include <string>

#include "ppl/sparse/csr.hpp"
#include "ppl/sparse/krylov.hpp"
#include "solve_config.hpp"

namespace ppl {

struct solve_system {
  crs_matrix A;
  vector_view b, x_exact;  // x_exact empty unless rhs: manufactured
  std::string description;
  double seconds = 0;  // loading or generating, moving to the device, preparing the SpMV strategy
};

// Builds A and b as the configuration says (a file's host copy is moved to the device and freed) and prepares
// cfg.spmv for A.
solve_system load_solve_system(solve_config& cfg);

struct solve_run {
  solver_result result;
  vector_view x;
  double error_l2 = -1, error_max = -1;  // against x* (manufactured systems only; -1 otherwise)
};

// One solve from the configured initial guess (zero or solver.initial_guess) with `options`.
solve_run run_solve(const solve_config& cfg, const solve_system& sys, const solver_options& options);

}  // namespace ppl
