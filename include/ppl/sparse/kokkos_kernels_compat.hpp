#pragma once
// Kokkos Kernels spellings that differ between the releases ppl builds against (3.4.01 and 4.6.01 are built and
// tested). The sparse utilities that 3.4 kept in KokkosKernels_SparseUtils.hpp (namespace KokkosKernels::Impl) are
// split in 4.x: the CRS sort is public in KokkosSparse_SortCrs.hpp (KokkosSparse), the transpose stays an
// implementation detail in KokkosSparse_Utils.hpp (KokkosSparse::Impl). Detected by header, as 3.4 has no
// version macro.
#if __has_include(<KokkosSparse_SortCrs.hpp>)
#include <KokkosSparse_SortCrs.hpp>
#include <KokkosSparse_Utils.hpp>
#define PPL_KOKKOS_KERNELS_SPARSE_UTILS_SPLIT 1
#else
#include <KokkosKernels_SparseUtils.hpp>
#define PPL_KOKKOS_KERNELS_SPARSE_UTILS_SPLIT 0
#endif

namespace ppl::kk {

// The transpose of a CrsMatrix (a new matrix; the order of the entries within a row is unspecified).
template <class CrsMatrix>
CrsMatrix transpose_matrix(const CrsMatrix& A) {
#if PPL_KOKKOS_KERNELS_SPARSE_UTILS_SPLIT
  return KokkosSparse::Impl::transpose_matrix(A);
#else
  return KokkosKernels::Impl::transpose_matrix(A);
#endif
}

// Sorts the entries of every row of A by column, in place.
template <class CrsMatrix>
void sort_crs_matrix(const CrsMatrix& A) {
#if PPL_KOKKOS_KERNELS_SPARSE_UTILS_SPLIT
  KokkosSparse::sort_crs_matrix(A);
#else
  KokkosKernels::Impl::sort_crs_matrix(A);
#endif
}

}  // namespace ppl::kk
