#pragma once
// Helpers of the Krylov tests: small CSR matrices from dense rows, float64 host references, device <-> host.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ppl/sparse/csr.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "support/portable_random.hpp"
#include "support/ppl_test.hpp"

namespace ppl::test {

inline vector_view to_device_vector(const std::vector<double>& h, const std::string& label = "v") {
  vector_view d(label, h.size());
  auto m = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < h.size(); ++i) m(i) = h[i];
  Kokkos::deep_copy(d, m);
  return d;
}

inline std::vector<double> to_host_vector(const_vector_view d) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  return std::vector<double>(m.data(), m.data() + m.extent(0));
}

// A CSR matrix from dense rows (zeros dropped; an explicit `keep_zero_diagonal` stores a zero diagonal entry).
inline host_csr csr_from_dense(const std::vector<std::vector<double>>& rows, bool keep_zero_diagonal = false) {
  host_csr h;
  h.rows = static_cast<int>(rows.size());
  h.cols = h.rows == 0 ? 0 : static_cast<int>(rows[0].size());
  h.row_map.push_back(0);
  for (int i = 0; i < h.rows; ++i) {
    for (int j = 0; j < h.cols; ++j)
      if (rows[i][j] != 0.0 || (keep_zero_diagonal && i == j)) {
        h.entries.push_back(j);
        h.values.push_back(rows[i][j]);
      }
    h.row_map.push_back(static_cast<std::int64_t>(h.entries.size()));
  }
  return h;
}

inline std::vector<double> host_spmv(const host_csr& A, const std::vector<double>& x) {
  std::vector<double> y(A.rows, 0.0);
  for (int i = 0; i < A.rows; ++i)
    for (auto k = A.row_map[i]; k < A.row_map[i + 1]; ++k) y[i] += A.values[k] * x[A.entries[k]];
  return y;
}

inline double norm2(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
}

// ||b - A x|| / ||b|| in float64 on the host: the independent check of a solver's claim.
inline double host_relative_residual(const host_csr& A, const std::vector<double>& b, const std::vector<double>& x) {
  auto ax = host_spmv(A, x);
  for (std::size_t i = 0; i < ax.size(); ++i) ax[i] = b[i] - ax[i];
  return norm2(ax) / norm2(b);
}

inline std::vector<double> random_vector(std::size_t n, std::mt19937_64& rng, double lo = -1.0, double hi = 1.0) {
  std::vector<double> v(n);
  for (auto& e : v) e = uniform(rng, lo, hi);
  return v;
}

inline std::string shared_matrix(const std::string& name) {
  return ppl_test::data_path("matrices/" + name + ".gz");
}

}  // namespace ppl::test
