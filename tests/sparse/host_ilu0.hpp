#pragma once
// Independent float64 host ILU(0): the oracle the Kokkos Kernels factorisation and triangular solves are checked
// against. The textbook IKJ elimination (Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed., algorithm
// 10.4) restricted to the pattern of A, on host_csr with plain loops and a dense row; the fixed-point sweeps of Chow
// & Patel (2015) from the paper's two formulas, entry by entry with lookups in A's rows; and Jacobi sweeps for a
// triangular matrix. Sharing no code with src/sparse and not using Kokkos.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ppl/sparse/csr.hpp"

namespace ppl::test::oracle {

// A = L U on the pattern of A: L strictly lower (unit diagonal implied, not stored), U upper with its diagonal.
struct ilu0_factors {
  host_csr L, U;
  int zero_pivot_row = -1;  // 0-based row of the first exactly zero pivot (-1: none); the factors stop there
};

namespace detail {

// Position of column j in row i of A (sorted), -1 if not stored.
inline std::int64_t find(const host_csr& A, int i, int j) {
  const auto first = A.entries.begin() + A.row_map[i], last = A.entries.begin() + A.row_map[i + 1];
  const auto it = std::lower_bound(first, last, j);
  return it != last && *it == j ? static_cast<std::int64_t>(it - A.entries.begin()) : -1;
}

// L (strictly lower, unit diagonal implied) and U (upper) from values on A's pattern.
inline ilu0_factors split(const host_csr& A, const std::vector<double>& lu) {
  ilu0_factors f;
  for (host_csr* m : {&f.L, &f.U}) {
    m->rows = m->cols = A.rows;
    m->row_map.assign(1, 0);
  }
  for (int i = 0; i < A.rows; ++i) {
    for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) {
      host_csr& m = A.entries[p] < i ? f.L : f.U;
      m.entries.push_back(A.entries[p]);
      m.values.push_back(lu[p]);
    }
    f.L.row_map.push_back(static_cast<std::int64_t>(f.L.entries.size()));
    f.U.row_map.push_back(static_cast<std::int64_t>(f.U.entries.size()));
  }
  return f;
}

}  // namespace detail

inline ilu0_factors ilu0(const host_csr& A) {
  const int n = A.rows;
  // LU in A's pattern: row i is copied, then for each k < i in the pattern (ascending), a_ik /= u_kk and
  // a_ij -= a_ik u_kj for every j > k in both row i's and row k's pattern.
  std::vector<double> lu = A.values;
  std::vector<std::int64_t> diag(n, -1);
  std::vector<std::int64_t> where(n, -1);  // column -> position in the current row
  ilu0_factors f;
  for (int i = 0; i < n; ++i) {
    for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) {
      where[A.entries[p]] = p;
      if (A.entries[p] == i) diag[i] = p;
    }
    if (diag[i] < 0) throw std::invalid_argument("host ilu0: row " + std::to_string(i) + " has no diagonal");
    for (auto p = A.row_map[i]; p < A.row_map[i + 1] && A.entries[p] < i; ++p) {
      const int k = A.entries[p];
      lu[p] /= lu[diag[k]];
      for (auto q = diag[k] + 1; q < A.row_map[k + 1]; ++q)
        if (where[A.entries[q]] >= 0) lu[where[A.entries[q]]] -= lu[p] * lu[q];
    }
    for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) where[A.entries[p]] = -1;
    if (lu[diag[i]] == 0.0 && f.zero_pivot_row < 0) f.zero_pivot_row = i;
  }
  ilu0_factors out = detail::split(A, lu);
  out.zero_pivot_row = f.zero_pivot_row;
  return out;
}

// x = T^-1 b for a triangular CSR matrix T whose rows hold their diagonal (unless `unit`: diagonal 1, and any
// stored diagonal entry is ignored). Forward substitution for lower, backward for upper.
inline std::vector<double> triangular_solve(const host_csr& T, const std::vector<double>& b, bool lower, bool unit) {
  const int n = T.rows;
  std::vector<double> x(n, 0.0);
  for (int s = 0; s < n; ++s) {
    const int i = lower ? s : n - 1 - s;
    double sum = b[i], d = 1.0;
    for (auto p = T.row_map[i]; p < T.row_map[i + 1]; ++p) {
      const int j = T.entries[p];
      if (j == i) {
        if (!unit) d = T.values[p];
      } else {
        sum -= T.values[p] * x[j];
      }
    }
    x[i] = sum / d;
  }
  return x;
}

// Chow & Patel's fine-grained ILU(0), `sweeps` synchronous sweeps (every entry from the previous sweep's values):
//   i > j: l_ij = (a_ij - sum_{k<j} l_ik u_kj) / u_jj,   i <= j: u_ij = a_ij - sum_{k<i} l_ik u_kj,
// from l_ij = a_ij / a_jj (a zero a_jj taken as 1) and u_ij = a_ij; a zero u_jj keeps l_ij. The products are
// subtracted one at a time in ascending k (the IKJ order), each (k, j) looked up in row k.
inline ilu0_factors parallel_ilu0(const host_csr& A, int sweeps) {
  const int n = A.rows;
  std::vector<std::int64_t> diag(n);
  for (int i = 0; i < n; ++i) {
    diag[i] = detail::find(A, i, i);
    if (diag[i] < 0) throw std::invalid_argument("host parallel ilu0: row " + std::to_string(i) + " has no diagonal");
  }
  std::vector<double> old(A.values.size()), next(A.values.size());
  for (int i = 0; i < n; ++i)
    for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) {
      const int j = A.entries[p];
      const double d = A.values[diag[j]];
      old[p] = j < i ? A.values[p] / (d != 0.0 ? d : 1.0) : A.values[p];
    }
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 0; i < n; ++i)
      for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) {
        const int j = A.entries[p], m = std::min(i, j);
        double v = A.values[p];
        for (auto q = A.row_map[i]; q < A.row_map[i + 1] && A.entries[q] < m; ++q) {
          const auto kj = detail::find(A, A.entries[q], j);
          if (kj >= 0) v -= old[q] * old[kj];
        }
        if (j < i)
          next[p] = old[diag[j]] != 0.0 ? v / old[diag[j]] : old[p];
        else
          next[p] = v;
      }
    old.swap(next);
  }
  return detail::split(A, old);
}

// Sweeps after which parallel_ilu0 stops changing: an entry is final at sweep 0 when its initial value is already
// the formula's (u_ij with no product, l_ij with none and u_jj final at 0), else one sweep after the last of what it
// reads (the products' l_ik, u_kj and, for l_ij, u_jj). The longest such chain in A's pattern.
inline int parallel_ilu0_depth(const host_csr& A) {
  std::vector<int> depth(A.values.size(), 0);
  int deepest = 0;
  for (int i = 0; i < A.rows; ++i)
    for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) {
      const int j = A.entries[p], m = std::min(i, j);
      bool reads = false;
      int d = 0;
      for (auto q = A.row_map[i]; q < A.row_map[i + 1] && A.entries[q] < m; ++q) {
        const auto kj = detail::find(A, A.entries[q], j);
        if (kj < 0) continue;
        reads = true;
        d = std::max({d, depth[q], depth[kj]});
      }
      if (j < i) {
        const int dj = depth[detail::find(A, j, j)];
        reads = reads || dj > 0;
        d = std::max(d, dj);
      }
      depth[p] = reads ? d + 1 : 0;
      deepest = std::max(deepest, depth[p]);
    }
  return deepest;
}

// Jacobi sweeps for T x = b, T triangular with its diagonal stored (unless `unit`: D = I, a stored diagonal ignored):
// x = D^-1 b, then `sweeps` times x_i <- (b_i - sum_{j != i} t_ij x_j) / t_ii from the previous x.
inline std::vector<double> jacobi_triangular_solve(const host_csr& T, const std::vector<double>& b, bool unit,
                                                   int sweeps) {
  const int n = T.rows;
  std::vector<double> d(n, 1.0), x(n), next(n);
  if (!unit)
    for (int i = 0; i < n; ++i)
      for (auto p = T.row_map[i]; p < T.row_map[i + 1]; ++p)
        if (T.entries[p] == i) d[i] = T.values[p];
  for (int i = 0; i < n; ++i) x[i] = b[i] / d[i];
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 0; i < n; ++i) {
      double sum = b[i];
      for (auto p = T.row_map[i]; p < T.row_map[i + 1]; ++p)
        if (T.entries[p] != i) sum -= T.values[p] * x[T.entries[p]];
      next[i] = sum / d[i];
    }
    x.swap(next);
  }
  return x;
}

}  // namespace ppl::test::oracle
