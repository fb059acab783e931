#pragma once
// Independent float64 host ILU(0): the oracle the Kokkos Kernels factorisation and triangular solves are checked
// against. The textbook IKJ elimination (Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed., algorithm
// 10.4) restricted to the pattern of A, on host_csr with plain loops and a dense row, sharing no code with
// src/sparse and not using Kokkos.
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
  for (host_csr* m : {&f.L, &f.U}) {
    m->rows = m->cols = n;
    m->row_map.assign(1, 0);
  }
  for (int i = 0; i < n; ++i) {
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

}  // namespace ppl::test::oracle
