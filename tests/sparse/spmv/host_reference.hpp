#pragma once
// Float64 host references for the SpMV tests: random CSR matrices with chosen row lengths (the same for a seed on
// every platform: portable_random.hpp), y = A x and A^T x by
// plain loops, and a row-wise check whose tolerance scales with sum_j |a_ij x_j| (so a wrong index fails).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ppl/sparse/csr.hpp"
#include "support/portable_random.hpp"

namespace ppl::test {

// Rows of exactly the given lengths (distinct sorted random columns in [0, cols)), values in [-1, 1].
inline host_csr random_csr(const std::vector<int>& row_lengths, int cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  host_csr A;
  A.rows = static_cast<int>(row_lengths.size());
  A.cols = cols;
  A.row_map.push_back(0);
  std::vector<int> all(cols);
  for (int c = 0; c < cols; ++c) all[c] = c;
  for (int len : row_lengths) {
    // A row longer than the matrix is wide would read past `all` (silently, outside sanitizer builds).
    if (len < 0 || len > cols) throw std::invalid_argument("random_csr: row length outside 0..cols");
    shuffle(all, rng);
    std::vector<int> pick(all.begin(), all.begin() + len);
    std::sort(pick.begin(), pick.end());
    for (int c : pick) {
      A.entries.push_back(c);
      A.values.push_back(uniform(rng, -1.0, 1.0));
    }
    A.row_map.push_back(static_cast<std::int64_t>(A.entries.size()));
  }
  return A;
}

// The edge cases of the issue (0, 1, 31, 33, 1000 nonzeros) mixed with `random_rows` rows of 0..70 nonzeros.
inline std::vector<int> edge_case_row_lengths(int random_rows, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> rows = {0, 1, 31, 33, 1000};
  for (int i = 0; i < random_rows; ++i) rows.push_back(static_cast<int>(below(rng, 71)));
  shuffle(rows, rng);
  return rows;
}

inline std::vector<double> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> x(n);
  for (auto& v : x) v = uniform(rng, -1.0, 1.0);
  return x;
}

struct host_product {
  std::vector<double> y;      // the product
  std::vector<double> bound;  // sum |a_ij x_j| per output row
  std::vector<int> terms;     // number of terms per output row
};

inline host_product host_spmv(const host_csr& A, const std::vector<double>& x) {
  host_product p{std::vector<double>(A.rows, 0.0), std::vector<double>(A.rows, 0.0), std::vector<int>(A.rows, 0)};
  for (int r = 0; r < A.rows; ++r)
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) {
      p.y[r] += A.values[j] * x[A.entries[j]];
      p.bound[r] += std::abs(A.values[j] * x[A.entries[j]]);
      ++p.terms[r];
    }
  return p;
}

inline host_product host_spmv_transpose(const host_csr& A, const std::vector<double>& x) {
  host_product p{std::vector<double>(A.cols, 0.0), std::vector<double>(A.cols, 0.0), std::vector<int>(A.cols, 0)};
  for (int r = 0; r < A.rows; ++r)
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) {
      p.y[A.entries[j]] += A.values[j] * x[r];
      p.bound[A.entries[j]] += std::abs(A.values[j] * x[r]);
      ++p.terms[A.entries[j]];
    }
  return p;
}

// Rows where |y - ref| > 2 (terms + 1) eps sum|a_ij x_j| (the dot-product error bound with margin): a message
// naming the first few, or "" if none. Rows with no terms must be exactly 0 (y is filled with NaN beforehand by
// the tests, so an unwritten row fails).
inline std::string compare_rows(const std::vector<double>& y, const host_product& ref) {
  std::ostringstream os;
  int bad = 0;
  if (y.size() != ref.y.size()) return "size " + std::to_string(y.size()) + " != " + std::to_string(ref.y.size());
  const double eps = std::numeric_limits<double>::epsilon();
  for (std::size_t r = 0; r < y.size(); ++r) {
    const double tol = 2.0 * (ref.terms[r] + 1) * eps * ref.bound[r];
    const double err = std::abs(y[r] - ref.y[r]);
    if (!(err <= tol)) {
      if (bad < 5)
        os << "row " << r << ": got " << y[r] << ", expected " << ref.y[r] << " (error " << err << ", tolerance " << tol
           << ", " << ref.terms[r] << " terms); ";
      ++bad;
    }
  }
  if (bad > 0) os << bad << " rows wrong";
  return os.str();
}

}  // namespace ppl::test
