#pragma once
// ILU(0)'s paths without level sets (include/ppl/sparse/ilu0.hpp): the fine-grained parallel factorisation of Chow &
// Patel (2015) and the Jacobi-sweep triangular solves of Anzt, Chow & Dongarra (2015), as portable Kokkos kernels
// (one code path for every backend). Each launch is over all rows at once, so a GPU is filled whatever the
// dependency depth of the matrix, which is what makes sptrsv's and spiluk's level-by-level launches slow there
// (docs/solver.md, "ILU(0)"). Private to src/sparse/.
#include <Kokkos_Core.hpp>

#include "ppl/sparse/csr.hpp"

namespace ppl::ilu0_detail {

using size_type = crs_matrix::size_type;
using row_map_view = Kokkos::View<size_type*, sparse_space>;
using entries_view = Kokkos::View<int*, sparse_space>;
using values_view = Kokkos::View<double*, sparse_space>;

// A CSR factor in the layout of ilu0_factorization: L's unit diagonal last in each row, U's diagonal first.
struct factor_csr {
  row_map_view row_map;
  entries_view entries;
  values_view values;
};

// L and U on A's pattern (columns sorted, a diagonal entry in every row: the caller has checked), without values:
// row i of L holds A's strictly lower entries of row i, then the diagonal; row i of U the diagonal, then A's strictly
// upper entries. The layout spiluk_symbolic gives for fill level 0.
void split_pattern(const crs_matrix& A, factor_csr& L, factor_csr& U);

// L's and U's values by `sweeps` fixed-point sweeps on their patterns (from split_pattern), every entry (i, j) of A
// at once in each:
//   i > j:  l_ij = (a_ij - sum_{k<j} l_ik u_kj) / u_jj        i <= j:  u_ij = a_ij - sum_{k<i} l_ik u_kj
// reading the previous sweep's L and U and writing new ones (Jacobi style). The sums are merge-joins of row i of L
// with column j of U, which is kept as U^T in CSR (its rows sorted) for them. Initial guess: L = tril(A) D^-1 (D the
// diagonal of A, a zero entry taken as 1) and U = triu(A): for a positive diagonal, Chow & Patel's L and U of the
// symmetrically scaled D^-1/2 A D^-1/2 mapped back (the sweeps commute with that scaling), and an entry that
// depends on no other is exact from the start. The sums run in ascending k, subtracting one product at a time, as
// the IKJ elimination does; the dependencies of the entries form a DAG, so the Jacobi-style sweeps reach the exact
// ILU(0) after as many sweeps as its longest chain, and after that stay there bit for bit. A zero u_jj of the
// previous sweep leaves l_ij as it was.
// Returns ||(A - L U) restricted to A's pattern||_F / ||A||_F of the factors returned (one more pass of the
// formulas; 0 at the fixed point), Chow & Patel's measure of how far the sweeps got.
double parallel_factor(const crs_matrix& A, factor_csr& L, factor_csr& U, int sweeps);

// The first row (0-based) of the parallel factors with a non-finite entry or a pivot |u_ii| <= tolerance x the
// 1-norm of A's row i; A.numRows() if none.
int first_bad_parallel_row(const crs_matrix& A, const factor_csr& L, const factor_csr& U, double tolerance);

// Jacobi sweeps on one triangular factor T = D + N (D its diagonal, last in a lower row, first in an upper one):
// x_0 = D^-1 b, x_{k+1} = D^-1 (b - N x_k), `sweeps` times (a unit factor skips D). Each sweep is one launch over
// the rows reading N once, a half SpMV for an ILU(0) factor; the first reads D^-1 b in place of x_0. The result is
// a fixed linear operator of b (no data-dependent stopping), so a Krylov method sees one preconditioner throughout.
class jacobi_triangle {
 public:
  jacobi_triangle() = default;
  // `scratch`: an n-vector the sweeps alternate with x (shared by the factors of one application).
  jacobi_triangle(const factor_csr& T, int n, bool lower, bool unit, int sweeps, vector_view scratch);
  // x ~ T^-1 b on the default execution space; b, x and the scratch vector must be distinct. Does not fence.
  void solve(const_vector_view b, vector_view x) const { solve(b, x, sweeps_); }
  // ||b - T x_s|| / ||b - T x_{s-1}|| (x_{-1} = 0) for s = the sweeps and b a fixed pseudo-random probe: below 1
  // when the last sweep still brought x closer to T^-1 b. On a highly non-normal factor (convection-dominated
  // systems) the truncated Neumann series that the sweeps sum grows before it converges, and the ratio exceeds 1.
  double last_sweep_ratio() const;

 private:
  void solve(const_vector_view b, vector_view x, int sweeps) const;

  factor_csr T_;
  int n_ = 0;
  bool lower_ = true, unit_ = false;
  int sweeps_ = 0;
  int lanes_ = 1, rows_per_team_ = 1;
  vector_view inverse_diagonal_, scratch_;
};

}  // namespace ppl::ilu0_detail
