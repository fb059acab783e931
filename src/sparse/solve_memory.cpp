#include "ppl/sparse/solve_memory.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ppl {
namespace {

double sum(const std::vector<solve_memory_item>& items) {
  double s = 0;
  for (const auto& i : items) s += i.bytes;
  return s;
}

}  // namespace

double solve_memory_need::device_bytes() const {
  return sum(device);
}

double solve_memory_need::host_bytes() const {
  return sum(host);
}

solve_memory_need estimate_solve_memory(const solve_memory_problem& p) {
  const double n = double(p.rows), nnz = double(p.nnz);
  const double vec = 8.0 * n;
  // CSR: double values, int columns, size_t row offsets (Kokkos Kernels' CrsMatrix<double, int, ...>).
  const double csr = 12.0 * nnz + 8.0 * (n + 1);
  solve_memory_need need;
  need.device.push_back({fmt::format("matrix ({} rows, {} nonzeros)", p.rows, p.nnz), "matrix", csr});
  if (p.host_matrix_copy) need.host.push_back({"host copy of the matrix file", "matrix", csr});
  if (p.host_vectors > 0)
    need.host.push_back({fmt::format("{} host vectors", p.host_vectors), "matrix", p.host_vectors * vec});
  need.device.push_back({fmt::format("{} vectors of the job", p.job_vectors), "matrix", p.job_vectors * vec});

  const bool bicg = p.method == "bicg";
  if (p.method == "gmres") {
    // The basis V (m + 1 columns), u and z; the Hessenberg matrix and its rotations on the host (gmres.cpp).
    const double m = double(std::max<std::int64_t>(1, std::min<std::int64_t>(p.gmres_restart, p.rows)));
    need.device.push_back(
        {fmt::format("GMRES Krylov basis ({:.0f} x {} doubles)", m + 1, p.rows), "solver.restart", (m + 1) * vec});
    need.device.push_back({"GMRES work vectors", "solver.method", 2 * vec});
    need.host.push_back({fmt::format("GMRES Hessenberg matrix ({:.0f} x {:.0f} doubles)", m + 1, m), "solver.restart",
                         8.0 * ((m + 1) * m + 5 * m)});
  } else if (bicg) {
    // r, r~, p, p~, q, q~, z, z~, and the explicit transpose A^T the SpMV builds for A^T x.
    need.device.push_back({"BiCG work vectors", "solver.method", 8 * vec});
    need.device.push_back({"A^T (explicit transpose)", "solver.method", csr});
  } else {
    // BiCGSTAB: r, r^, p, v, t, p^, s^ (and any method registered later: as many).
    need.device.push_back({"BiCGSTAB work vectors", "solver.method", 7 * vec});
  }

  if (p.preconditioner == "jacobi") {
    need.device.push_back({"Jacobi inverse diagonal", "solver.preconditioner", vec});
  } else if (p.preconditioner == "ilu0") {
    // L and U (together A's pattern plus a unit diagonal), the work vector, the Jacobi solves' scratch vector and
    // inverse diagonal, or the triangular solves' level sets.
    const double factors = 12.0 * (nnz + n) + 16.0 * (n + 1) + 5 * vec;
    need.device.push_back({"ILU(0) factors", "solver.preconditioner", factors});
    if (bicg) need.device.push_back({"ILU(0) transposed factors", "solver.preconditioner", factors});
    // The parallel factorisation's set-up beside the factors (src/sparse/ilu0_parallel.cpp): the second copy of
    // L's values, U^T's values in two copies, U^T's pattern and the map from U to U^T.
    if (p.ilu0_parallel)
      need.device.push_back(
          {"ILU(0) parallel factorisation (sweep copies, U^T)", "solver.preconditioner", 20.0 * (nnz + n) + vec});
  } else if (p.preconditioner != "none") {
    need.device.push_back({"preconditioner", "solver.preconditioner", 2 * vec});
  }
  return need;
}

}  // namespace ppl
