#pragma once
// Independent float64 host Krylov solvers (BiCGSTAB, BiCG, GMRES(m)): the oracle the library's solvers are checked
// against. Plain loops over host_csr, written from the textbook algorithms and sharing no code with src/sparse (no
// Kokkos, no fused kernels, no residual replacement, no breakdown handling), so a defect in the library cannot hide in
// the reference. Used by tests/sparse/spmv (the generators must be solvable) and tests/sparse/krylov (iteration
// counts).
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

// GMRES(m) (Saad & Schultz 1986; Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed., Algorithm 6.11
// with restarts), right-preconditioned with D^-1 when `jacobi`, modified Gram-Schmidt, Givens rotations, x0 = 0.
// Stops when the least-squares residual |g_{j+1}| is <= rtol ||b|| and returns the Arnoldi steps made, or -1 (no
// convergence in max_iters steps, or a non-finite value). x holds the last iterate.
inline int gmres(const host_csr& A, const std::vector<double>& b, std::vector<double>& x, double rtol, int max_iters,
                 bool jacobi, int m) {
  const std::size_t n = b.size();
  const auto dinv = inverse_diagonal(A, jacobi);
  x.assign(n, 0.0);
  const double bnorm = std::sqrt(dot(b, b));
  int steps = 0;
  while (steps < max_iters) {
    std::vector<double> r = multiply(A, x);
    for (std::size_t i = 0; i < n; ++i) r[i] = b[i] - r[i];
    const double beta = std::sqrt(dot(r, r));
    if (!std::isfinite(beta)) return -1;
    if (beta <= rtol * bnorm) return steps;
    std::vector<std::vector<double>> v(1, r), h(m, std::vector<double>(m + 1, 0.0));
    for (auto& e : v[0]) e /= beta;
    std::vector<double> g(m + 1, 0.0), c(m), s(m);
    g[0] = beta;
    int k = 0;
    bool done = false;
    for (; k < m && steps < max_iters; ++k) {
      ++steps;
      std::vector<double> z(n);
      for (std::size_t i = 0; i < n; ++i) z[i] = dinv[i] * v[k][i];
      std::vector<double> w = multiply(A, z);
      for (int i = 0; i <= k; ++i) {  // modified Gram-Schmidt
        h[k][i] = dot(w, v[i]);
        for (std::size_t l = 0; l < n; ++l) w[l] -= h[k][i] * v[i][l];
      }
      h[k][k + 1] = std::sqrt(dot(w, w));
      for (int i = 0; i < k; ++i) {
        const double a = h[k][i], bb = h[k][i + 1];
        h[k][i] = c[i] * a + s[i] * bb;
        h[k][i + 1] = -s[i] * a + c[i] * bb;
      }
      const double den = std::sqrt(h[k][k] * h[k][k] + h[k][k + 1] * h[k][k + 1]);
      c[k] = h[k][k] / den;
      s[k] = h[k][k + 1] / den;
      h[k][k] = den;
      g[k + 1] = -s[k] * g[k];
      g[k] = c[k] * g[k];
      if (!std::isfinite(g[k + 1])) return -1;
      if (std::fabs(g[k + 1]) <= rtol * bnorm || h[k][k + 1] == 0.0) {
        ++k;
        done = true;
        break;
      }
      for (auto& e : w) e /= h[k][k + 1];
      v.push_back(w);
    }
    std::vector<double> y(k);
    for (int i = k - 1; i >= 0; --i) {
      double t = g[i];
      for (int l = i + 1; l < k; ++l) t -= h[l][i] * y[l];
      y[i] = t / h[i][i];
    }
    for (std::size_t l = 0; l < n; ++l) {
      double u = 0;
      for (int i = 0; i < k; ++i) u += y[i] * v[i][l];
      x[l] += dinv[l] * u;
    }
    if (done) return steps;
  }
  return -1;
}

}  // namespace ppl::test::oracle
