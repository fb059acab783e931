#pragma once
// ILU(0): the incomplete LU factorisation A ~ L U on the sparsity pattern of A (no fill-in), through Kokkos Kernels:
// KokkosSparse::Experimental::spiluk_symbolic / spiluk_numeric with fill level 0 for the factors and
// KokkosSparse::Experimental::sptrsv (level-scheduled) or ppl's sequential host loop for the two triangular solves.
// docs/solver.md ("ILU(0)") describes what the library does and what ppl adds around it (the checks, the memory
// cap, the transposes, the host solves).
#include <cstddef>
#include <cstdint>
#include <memory>

#include "ppl/sparse/csr.hpp"

namespace ppl {

// A pivot u_ii counts as zero when |u_ii| <= this x the 1-norm of A's row i (PETSc's default zero-pivot tolerance
// is also 100 machine epsilons, PCFactorSetZeroPivot). ilu0_check uses it too.
inline constexpr double ilu0_zero_pivot_tolerance = 100.0 * 2.220446049250313e-16;

// The configuration-time check of the `ilu0` preconditioner (its registry entry's check) on a host matrix (columns
// sorted, no duplicates: what the Matrix Market reader builds): a stored diagonal entry in every row and nonzero
// pivots, by the same elimination as Kokkos Kernels' numeric phase (rows in order, each eliminated by its earlier
// rows in ascending column order, restricted to A's pattern), so that `ppl validate` rejects what a run would.
// Throws ppl::input_error naming the first bad row, 1-based.
void ilu0_check(const host_csr& A);

// How the triangular solves run. `level_scheduled`: KokkosSparse sptrsv, one launch per level set (a level's rows
// in parallel). `sequential`: one host loop over the rows on the calling thread (host memory only; ilu0_host_solve
// in src/sparse). `automatic`: level-scheduled on a GPU; on host memory level-scheduled only where
// ilu0_level_scheduling_pays, else sequential.
enum class ilu0_triangular_solve { automatic, level_scheduled, sequential };

// On a host: whether `threads` threads solve faster level by level than one thread row by row, for a factor of
// `rows` rows in `levels` level sets: at least 8 threads and 32 rows per level per thread (the rule fits the
// measurements in docs/solver.md, "ILU(0)": 1 to 16 threads, 1,784 to 970,299 rows).
bool ilu0_level_scheduling_pays(int threads, int rows, int levels);

struct ilu0_options {
  // Kokkos Kernels' numeric phase keeps a dense map of `rows` ints per row factored concurrently; a level with
  // more rows than this budget allows is factored in several launches. 0: 256 MiB, and on host memory at most 16
  // rows per thread in a launch (a larger map costs more to fill than the launches it saves).
  std::size_t work_bytes = 0;
  ilu0_triangular_solve solve = ilu0_triangular_solve::automatic;
};

// What the set-up built and how long each step took (seconds; each step ends in a fence).
struct ilu0_stats {
  double symbolic = 0;             // spiluk_symbolic (on the host in both Kokkos Kernels releases) + the pattern checks
  double numeric = 0;              // spiluk_numeric + the pivot check
  double solve_symbolic = 0;       // sptrsv_symbolic of L and U (their level sets)
  double setup = 0;                // all of the above, with allocations
  std::int64_t nnz_L = 0;          // stored entries of L, its unit diagonal included
  std::int64_t nnz_U = 0;          // stored entries of U, its diagonal included
  int factor_levels = 0;           // level sets of the numeric factorisation (before splitting)
  int largest_level = 0;           // rows of the largest of those levels
  int rows_per_launch = 0;         // the most rows one numeric launch factors (the work_bytes cap)
  bool sequential_solves = false;  // the triangular solves run as one host loop
  int L_levels = 0;                // level sets of the level-scheduled triangular solves (0 when sequential)
  int U_levels = 0;
};

class ilu0_factorization {
 public:
  // Factors A (square, every row with a stored diagonal entry; columns sorted, no duplicates, as ppl's readers and
  // generators build it). Throws ppl::input_error naming the first (1-based) row without a diagonal entry, or
  // with a zero or non-finite pivot.
  explicit ilu0_factorization(const crs_matrix& A, const ilu0_options& o = {});
  ~ilu0_factorization();
  ilu0_factorization(ilu0_factorization&&) noexcept;
  ilu0_factorization& operator=(ilu0_factorization&&) noexcept;

  // z = (L U)^-1 r: the lower solve, then the upper one. r and z must not alias. Does not fence. Const as the
  // preconditioner seam asks, though it writes the factorisation's own work vector (one solve at a time).
  void apply(const_vector_view r, vector_view z) const;
  // z = (L U)^-T r = L^-T U^-T r (BiCG's shadow system). The transposed factors and their solve levels are built
  // on the first call (charged to that call).
  void apply_transpose(const_vector_view r, vector_view z) const;

  int rows() const;
  // The factors (device matrices): L is unit lower triangular with its diagonal stored last in each row, U upper
  // triangular with its diagonal first; both with sorted columns.
  crs_matrix lower() const;
  crs_matrix upper() const;
  const ilu0_stats& stats() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace ppl
