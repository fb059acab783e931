// sorted_transpose (include/ppl/sparse/transpose.hpp). Finite-element matrices, ppl's generated systems among them,
// have symmetric patterns, so the common case needs neither the atomics of a general transpose nor the sort that
// makes its rows reproducible: the values of A^T are gathered into A's own pattern.
#include "ppl/sparse/transpose.hpp"

#include <Kokkos_Core.hpp>

#include "ppl/core/huge_pages.hpp"
#include "ppl/sparse/kokkos_kernels_compat.hpp"

namespace ppl {
namespace {

// For every entry k = (i, j) of A: t(k) = a_ji, found by a binary search for column i in row j. Counts the entries
// that have no mirror (or sit in a row whose columns are not strictly increasing): any such entry means the pattern
// is not symmetric and `t` is not used.
struct gather_mirror {
  crs_matrix::row_map_type row_map;
  crs_matrix::index_type entries;
  crs_matrix::values_type values;
  crs_matrix::values_type::non_const_type t;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, long& missing) const {
    const auto begin = row_map(i), end = row_map(i + 1);
    for (auto k = begin; k < end; ++k) {
      if (k + 1 < end && entries(k + 1) <= entries(k)) {
        ++missing;
        continue;
      }
      const int j = entries(k);
      auto lo = row_map(j), hi = row_map(j + 1);  // search [lo, hi) of row j for column i
      while (lo < hi) {
        const auto mid = lo + (hi - lo) / 2;
        if (entries(mid) < i)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < row_map(j + 1) && entries(lo) == i)
        t(k) = values(lo);
      else
        ++missing;
    }
  }
};

}  // namespace

crs_matrix sorted_transpose(const crs_matrix& A, bool* symmetric_pattern) {
  if (A.numRows() == A.numCols() && A.numRows() > 0) {
    crs_matrix::values_type::non_const_type t(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::A^T values"),
                                              A.nnz());
    advise_huge_pages(t);
    long missing = 0;
    Kokkos::parallel_reduce("ppl::sorted_transpose::gather", Kokkos::RangePolicy<sparse_space>(0, A.numRows()),
                            gather_mirror{A.graph.row_map, A.graph.entries, A.values, t}, missing);
    if (missing == 0) {
      if (symmetric_pattern) *symmetric_pattern = true;
      return crs_matrix("ppl::A^T", A.numRows(), A.numCols(), A.nnz(), t, A.graph.row_map, A.graph.entries);
    }
  }
  if (symmetric_pattern) *symmetric_pattern = false;
  crs_matrix T = kk::transpose_matrix(A);
  // transpose_matrix fills rows through atomics: sort so that the summation order (and the result) is the same on
  // every run.
  kk::sort_crs_matrix(T);
  return T;
}

}  // namespace ppl
