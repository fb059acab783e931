#pragma once
// What the ILU(0) tests share (test_ilu0.cpp, test_ilu0_parallel.cpp): seeded random test matrices, a host
// transpose, entry-by-entry factor and vector differences, and the level count of a triangular solve.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "ppl/sparse/csr.hpp"
#include "support/portable_random.hpp"

namespace ppl::test {

// n rows; each row has its diagonal and up to `per_row` random off-diagonal columns, with values in [-1, 1]. The
// diagonal is sign * (dominance * sum |off-diagonal| + 0.5), with dominance drawn in [0.4, 1.2], so some rows are
// not diagonally dominant and the pivots vary. `band` adds the sub- and super-diagonal, which chains the rows
// into many levels.
inline host_csr random_matrix(int n, int per_row, bool band, std::mt19937_64& rng) {
  host_csr A;
  A.rows = A.cols = n;
  A.row_map.push_back(0);
  for (int i = 0; i < n; ++i) {
    std::vector<int> cols{i};
    if (band && i > 0) cols.push_back(i - 1);
    if (band && i + 1 < n) cols.push_back(i + 1);
    for (int k = 0; k < per_row && n > 1; ++k) cols.push_back(static_cast<int>(below(rng, n)));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    double off = 0;
    std::vector<double> vals;
    for (int c : cols) {
      vals.push_back(c == i ? 0.0 : uniform(rng, -1.0, 1.0));
      off += std::fabs(vals.back());
    }
    const double sign = unit(rng) < 0.5 ? -1.0 : 1.0;
    for (std::size_t k = 0; k < cols.size(); ++k)
      if (cols[k] == i) vals[k] = sign * (uniform(rng, 0.4, 1.2) * off + 0.5);
    A.entries.insert(A.entries.end(), cols.begin(), cols.end());
    A.values.insert(A.values.end(), vals.begin(), vals.end());
    A.row_map.push_back(static_cast<std::int64_t>(A.entries.size()));
  }
  return A;
}

inline host_csr transpose(const host_csr& A) {
  host_csr T;
  T.rows = A.cols;
  T.cols = A.rows;
  T.row_map.assign(T.rows + 1, 0);
  for (int c : A.entries) ++T.row_map[c + 1];
  for (int i = 0; i < T.rows; ++i) T.row_map[i + 1] += T.row_map[i];
  T.entries.resize(A.entries.size());
  T.values.resize(A.values.size());
  auto next = T.row_map;
  for (int i = 0; i < A.rows; ++i)  // rows in order, so every row of T comes out sorted
    for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) {
      const auto q = next[A.entries[p]]++;
      T.entries[q] = i;
      T.values[q] = A.values[p];
    }
  return T;
}

// Largest |x - y| / (|y| + 1) over the entries; the patterns must be equal. `skip_diagonal` drops L's stored unit
// diagonal from x (it is checked to be exactly 1).
inline double factor_difference(const host_csr& x, const host_csr& y, bool skip_diagonal) {
  EXPECT_EQ(x.rows, y.rows);
  double worst = 0;
  for (int i = 0; i < x.rows; ++i) {
    std::vector<int> xc;
    std::vector<double> xv;
    for (auto p = x.row_map[i]; p < x.row_map[i + 1]; ++p) {
      if (skip_diagonal && x.entries[p] == i) {
        EXPECT_EQ(x.values[p], 1.0) << "L's diagonal, row " << i;
        EXPECT_EQ(p, x.row_map[i + 1] - 1) << "L's diagonal is not last in row " << i;
        continue;
      }
      xc.push_back(x.entries[p]);
      xv.push_back(x.values[p]);
    }
    const std::vector<int> yc(y.entries.begin() + y.row_map[i], y.entries.begin() + y.row_map[i + 1]);
    if (xc != yc) {
      ADD_FAILURE() << "pattern of row " << i << " differs";
      return INFINITY;
    }
    for (std::size_t k = 0; k < xc.size(); ++k) {
      const double ref = y.values[y.row_map[i] + k];
      worst = std::max(worst, std::fabs(xv[k] - ref) / (std::fabs(ref) + 1.0));
    }
  }
  return worst;
}

inline double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double e : v) m = std::max(m, std::fabs(e));
  return m;
}

inline double max_difference(const std::vector<double>& x, const std::vector<double>& y) {
  double m = 0;
  for (std::size_t i = 0; i < x.size(); ++i) m = std::max(m, std::fabs(x[i] - y[i]));
  return m;
}

// Level sets of a triangular solve: row i's level is one more than the largest level of the rows it reads; the
// count of levels is the longest dependency chain (what sptrsv launches once per level).
inline int solve_levels(const host_csr& T, bool lower) {
  std::vector<int> level(T.rows, 0);
  int count = 0;
  for (int step = 0; step < T.rows; ++step) {
    const int i = lower ? step : T.rows - 1 - step;
    for (auto k = T.row_map[i]; k < T.row_map[i + 1]; ++k)
      if (T.entries[k] != i) level[i] = std::max(level[i], level[T.entries[k]] + 1);
    count = std::max(count, level[i] + 1);
  }
  return count;
}

}  // namespace ppl::test
