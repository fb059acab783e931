#pragma once
// Independent float64 host Krylov solvers: the oracle the library's solvers are checked against. Plain loops over
// host_csr, written from the textbook algorithms and sharing no code with src/sparse (no Kokkos, no fused kernels,
// no residual replacement, no breakdown handling), so a defect in the library cannot hide in the reference.
// Used by tests/sparse/spmv (the generators must be solvable) and tests/sparse/krylov (iteration counts).
#include <cmath>
#include <cstddef>
#include <vector>

#include "ppl/sparse/csr.hpp"

namespace ppl::test::oracle {

inline double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// y = A x (transpose: y = A^T x).
inline std::vector<double> multiply(const host_csr& A, const std::vector<double>& x, bool transpose = false) {
  std::vector<double> y(transpose ? A.cols : A.rows, 0.0);
  for (int r = 0; r < A.rows; ++r)
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) {
      if (transpose)
        y[A.entries[j]] += A.values[j] * x[r];
      else
        y[r] += A.values[j] * x[A.entries[j]];
    }
  return y;
}

// 1 / a_ii (duplicates summed) with Jacobi, else ones.
inline std::vector<double> inverse_diagonal(const host_csr& A, bool jacobi) {
  std::vector<double> d(A.rows, 1.0);
  if (!jacobi) return d;
  std::vector<double> diag(A.rows, 0.0);
  for (int r = 0; r < A.rows; ++r)
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j)
      if (A.entries[j] == r) diag[r] += A.values[j];
  for (int r = 0; r < A.rows; ++r) d[r] = 1.0 / diag[r];
  return d;
}

// BiCGSTAB (van der Vorst 1992), right-preconditioned with D^-1 when `jacobi`, x0 = 0, r_hat = b. Stops when the
// recursive residual is <= rtol ||b||; returns the iterations used, or -1 (no convergence in max_iters, or a
// non-finite scalar). x holds the last iterate.
inline int bicgstab(const host_csr& A, const std::vector<double>& b, std::vector<double>& x, double rtol, int max_iters,
                    bool jacobi) {
  const std::size_t n = b.size();
  const auto dinv = inverse_diagonal(A, jacobi);
  x.assign(n, 0.0);
  std::vector<double> r = b, rhat = b, p(n, 0.0), v(n, 0.0), ph(n), sh(n), s(n), t(n);
  const double bnorm = std::sqrt(dot(b, b));
  double rho = 1, alpha = 1, omega = 1;
  for (int it = 1; it <= max_iters; ++it) {
    const double rho_new = dot(rhat, r);
    const double beta = (rho_new / rho) * (alpha / omega);
    rho = rho_new;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
    for (std::size_t i = 0; i < n; ++i) ph[i] = dinv[i] * p[i];
    v = multiply(A, ph);
    alpha = rho / dot(rhat, v);
    for (std::size_t i = 0; i < n; ++i) s[i] = r[i] - alpha * v[i];
    for (std::size_t i = 0; i < n; ++i) sh[i] = dinv[i] * s[i];
    t = multiply(A, sh);
    omega = dot(t, s) / dot(t, t);
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * ph[i] + omega * sh[i];
    for (std::size_t i = 0; i < n; ++i) r[i] = s[i] - omega * t[i];
    if (std::sqrt(dot(r, r)) <= rtol * bnorm) return it;
    if (!std::isfinite(rho) || !std::isfinite(alpha) || !std::isfinite(omega)) return -1;
  }
  return -1;
}

// BiCG (Fletcher 1976; preconditioned as in Barrett et al., "Templates", 1994) with M = D when `jacobi`, x0 = 0,
// r~ = r = b. Same stopping rule and result as bicgstab().
inline int bicg(const host_csr& A, const std::vector<double>& b, std::vector<double>& x, double rtol, int max_iters,
                bool jacobi) {
  const std::size_t n = b.size();
  const auto dinv = inverse_diagonal(A, jacobi);
  x.assign(n, 0.0);
  std::vector<double> r = b, rt = b, z(n), zt(n), p(n, 0.0), pt(n, 0.0);
  const double bnorm = std::sqrt(dot(b, b));
  double rho_old = 1;
  for (int it = 1; it <= max_iters; ++it) {
    for (std::size_t i = 0; i < n; ++i) z[i] = dinv[i] * r[i], zt[i] = dinv[i] * rt[i];
    const double rho = dot(z, rt);
    const double beta = it == 1 ? 0.0 : rho / rho_old;
    rho_old = rho;
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i], pt[i] = zt[i] + beta * pt[i];
    const auto q = multiply(A, p), qt = multiply(A, pt, true);
    const double alpha = rho / dot(pt, q);
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * p[i], r[i] -= alpha * q[i], rt[i] -= alpha * qt[i];
    if (std::sqrt(dot(r, r)) <= rtol * bnorm) return it;
    if (!std::isfinite(rho) || !std::isfinite(alpha)) return -1;
  }
  return -1;
}

}  // namespace ppl::test::oracle
