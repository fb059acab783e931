// sorted_transpose (include/ppl/sparse/transpose.hpp) against a host transpose built in row order (so its rows are
// sorted): exactly equal, for symmetric patterns (the generated systems, 2dcyl1, ani4: the gather into A's own
// pattern) and others (random rows, a row whose columns are out of order: Kokkos Kernels' transpose and a sort),
// and bit for bit the matrix that the previous path (KK transpose + sort) built, so BiCG's products are unchanged.
#include <gtest/gtest.h>

#include <string>

#include "host_reference.hpp"
#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/kokkos_kernels_compat.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "ppl/sparse/transpose.hpp"
#include "support/ppl_test.hpp"

namespace ppl {
namespace {

host_csr host_transpose(const host_csr& A) {
  host_csr T;
  T.rows = A.cols;
  T.cols = A.rows;
  T.row_map.assign(A.cols + 1, 0);
  for (int c : A.entries) ++T.row_map[c + 1];
  for (int c = 0; c < A.cols; ++c) T.row_map[c + 1] += T.row_map[c];
  T.entries.resize(A.entries.size());
  T.values.resize(A.values.size());
  auto next = T.row_map;
  for (int r = 0; r < A.rows; ++r)
    for (auto k = A.row_map[r]; k < A.row_map[r + 1]; ++k) {
      const auto p = next[A.entries[k]]++;
      T.entries[p] = r;
      T.values[p] = A.values[k];
    }
  return T;
}

void expect_equal(const host_csr& got, const host_csr& want, const std::string& what) {
  EXPECT_EQ(got.rows, want.rows) << what;
  EXPECT_EQ(got.cols, want.cols) << what;
  EXPECT_EQ(got.row_map, want.row_map) << what;
  EXPECT_EQ(got.entries, want.entries) << what;
  EXPECT_EQ(got.values, want.values) << what;
}

TEST(sorted_transpose, symmetric_patterns_share_the_graph_and_match_the_previous_path) {
  std::vector<std::pair<std::string, crs_matrix>> cases = {{"cd27", make_convection_diffusion({9, 1, 10.0, 1.0}).A},
                                                           {"cd81", make_convection_diffusion({5, 3, 1.0, 2.0}).A}};
  for (const std::string f : {"2dcyl1", "ani4"})
    cases.push_back({f, read_matrix_market(ppl_test::data_path("matrices/" + f + ".mtx.gz"))});
  for (const auto& [name, A] : cases) {
    bool symmetric = false;
    const crs_matrix T = sorted_transpose(A, &symmetric);
    EXPECT_TRUE(symmetric) << name;
    EXPECT_EQ(T.graph.row_map.data(), A.graph.row_map.data()) << name;  // shared, not copied
    EXPECT_EQ(T.graph.entries.data(), A.graph.entries.data()) << name;
    const host_csr h = to_host(A);
    expect_equal(to_host(T), host_transpose(h), name);
    crs_matrix before = kk::transpose_matrix(A);
    kk::sort_crs_matrix(before);
    expect_equal(to_host(T), to_host(before), name + " vs KK transpose + sort");
  }
}

TEST(sorted_transpose, other_patterns_take_the_general_path) {
  const host_csr random = test::random_csr(test::edge_case_row_lengths(200, 5), 1200, 6);
  bool symmetric = true;
  expect_equal(to_host(sorted_transpose(to_device(random), &symmetric)), host_transpose(random), "random");
  EXPECT_FALSE(symmetric);
  // Rectangular.
  const host_csr wide = test::random_csr({3, 0, 7, 1}, 9, 7);
  expect_equal(to_host(sorted_transpose(to_device(wide), &symmetric)), host_transpose(wide), "4 x 9");
  EXPECT_FALSE(symmetric);
  // A symmetric pattern with one row's columns out of order: the binary search cannot be trusted, so the general
  // path runs (and sorts the rows of the result).
  host_csr h = to_host(make_convection_diffusion({4, 1, 1.0, 1.0}).A);
  std::swap(h.entries[h.row_map[5]], h.entries[h.row_map[5] + 1]);
  std::swap(h.values[h.row_map[5]], h.values[h.row_map[5] + 1]);
  expect_equal(to_host(sorted_transpose(to_device(h), &symmetric)), host_transpose(h), "unsorted row");
  EXPECT_FALSE(symmetric);
}

}  // namespace
}  // namespace ppl
