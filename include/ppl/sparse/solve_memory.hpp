#pragma once
// What a solve will allocate, estimated from its sizes before anything is allocated, so that a job can refuse one
// that cannot fit (GMRES(10000) on 205k rows needs 15.3 GiB for its basis alone) at validation instead of failing
// after its set-up. The counts follow the allocations of the solvers (src/sparse/bicgstab.cpp, bicg.cpp, gmres.cpp),
// the preconditioners and the matrix; small buffers (scalar slots, Kokkos' own) are left out.
#include <cstdint>
#include <string>
#include <vector>

namespace ppl {

struct solve_memory_problem {
  std::int64_t rows = 0, nnz = 0;
  std::string method = "bicgstab";  // solvers() name
  int gmres_restart = 30;           // solver.restart (GMRES only)
  std::string preconditioner = "none";
  bool ilu0_parallel = false;     // `ilu0` sets up by the parallel factorisation (its sweeps hold extra copies)
  int job_vectors = 2;            // the caller's own n-vectors in the default memory space (b, x, x*, ...)
  bool host_matrix_copy = false;  // a host copy of the matrix (a file's) is alive while the device one is built
  int host_vectors = 0;           // n-vectors the caller keeps on the host (a file's rhs, initial guess)
};

struct solve_memory_item {
  std::string what;  // "GMRES Krylov basis (10001 x 205000 doubles)"
  std::string key;   // the configuration key that sizes it: "solver.restart", "matrix", "solver.preconditioner", ...
  double bytes = 0;
};

struct solve_memory_need {
  std::vector<solve_memory_item> device;  // the default memory space (the host's on a CPU build)
  std::vector<solve_memory_item> host;    // host memory in every build (GMRES' Hessenberg matrix, host copies)
  double device_bytes() const;
  double host_bytes() const;
};

solve_memory_need estimate_solve_memory(const solve_memory_problem& p);

}  // namespace ppl
