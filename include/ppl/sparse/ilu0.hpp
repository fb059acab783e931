#pragma once
// ILU(0): the incomplete LU factorisation A ~ L U on the sparsity pattern of A (no fill-in). Two ways to the
// factors: Kokkos Kernels' spiluk (fill level 0, `exact`: the elimination, level by level) or the fine-grained
// fixed-point sweeps of Chow & Patel (`parallel`: every entry of L and U at once, src/sparse/ilu0_parallel.cpp). Three
// ways to the triangular solves: KokkosSparse::Experimental::sptrsv (level-scheduled), ppl's sequential host loop,
// or Jacobi sweeps (Anzt, Chow & Dongarra: a fixed number of SpMV-like passes, an approximate solve). docs/solver.md
// ("ILU(0)") describes what the library does and what ppl adds around it (the checks, the memory cap, the
// transposes, the host solves, the parallel paths).
#include <cstddef>
#include <cstdint>
#include <memory>

#include "ppl/sparse/csr.hpp"

namespace ppl {

// A pivot u_ii counts as zero when |u_ii| <= this x the 1-norm of A's row i (PETSc's default zero-pivot tolerance
// is also 100 machine epsilons, PCFactorSetZeroPivot). ilu0_check uses it too.
inline constexpr double ilu0_zero_pivot_tolerance = 100.0 * 2.220446049250313e-16;

// `automatic` factorisation on a GPU keeps the parallel factors when ||(A - L U) on A's pattern||_F <= this x
// ||A||_F after the sweeps, else factors exactly. 3 sweeps left 7e-4 to 5e-2 on the systems where the parallel
// factors precondition as well as the exact ones, and 0.9 to 5e3 where BiCGSTAB diverged with them (docs/solver.md,
// "ILU(0)").
inline constexpr double ilu0_parallel_residual_limit = 0.1;

// The configuration-time check of the `ilu0` preconditioner (its registry entry's check) on a host matrix (columns
// sorted, no duplicates: what the Matrix Market reader builds): a stored diagonal entry in every row and nonzero
// pivots, by the same elimination as Kokkos Kernels' numeric phase (rows in order, each eliminated by its earlier
// rows in ascending column order, restricted to A's pattern), so that `ppl validate` rejects what a run would.
// Throws ppl::input_error naming the first bad row, 1-based.
void ilu0_check(const host_csr& A);

// How the factors are computed. `exact`: Kokkos Kernels' spiluk, the elimination in level order. `parallel`:
// `factor_sweeps` fixed-point sweeps that update every entry of L and U from the previous sweep's values (Chow &
// Patel 2015; read old, write new, so the factors are the same bit for bit on every backend and thread count),
// started from L and U of the diagonally scaled A; enough sweeps reproduce `exact` (docs/solver.md, "ILU(0)").
// `automatic`: on a GPU parallel, unless the sweeps left a residual above ilu0_parallel_residual_limit (or a zero
// pivot), which then factors exactly; exact on host memory.
enum class ilu0_factorization_method { automatic, exact, parallel };

// How the triangular solves run. `level_scheduled`: KokkosSparse sptrsv, one launch per level set (a level's rows
// in parallel). `sequential`: one host loop over the rows on the calling thread (host memory only; ilu0_host_solve
// in src/sparse). `jacobi`: `solve_sweeps` Jacobi sweeps x <- D^-1 (b - (T - D) x) from x = D^-1 b, one SpMV-like
// launch over the factor's off-diagonal entries each (an approximate solve: exact once the sweeps reach the
// factor's level count). `automatic`: on a GPU Jacobi sweeps, unless their last sweep raises the residual of a
// probe solve in L or U (jacobi_triangle::last_sweep_ratio >= 1), which then solves level-scheduled; on host
// memory level-scheduled only where ilu0_level_scheduling_pays, else sequential.
enum class ilu0_triangular_solve { automatic, level_scheduled, sequential, jacobi };

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
  ilu0_factorization_method factorization = ilu0_factorization_method::automatic;
  int factor_sweeps = 3;  // `parallel` factorisation: sweeps after the initial guess, >= 0
  int solve_sweeps = 2;   // `jacobi` solves: sweeps per triangular factor after x = D^-1 b, >= 0
  // Resolve `automatic` by the GPU's rules (parallel factors and Jacobi solves, each checked and fallen back from)
  // on host memory too: how the tests and benchmarks of a host build exercise what a GPU build chooses.
  bool automatic_as_gpu = false;
};

// What the set-up built and how long each step took (seconds; each step ends in a fence).
struct ilu0_stats {
  // What ran (the automatic choices resolved).
  ilu0_factorization_method factorization = ilu0_factorization_method::exact;
  ilu0_triangular_solve solve = ilu0_triangular_solve::sequential;
  int factor_sweeps = 0;  // parallel factorisation: its sweeps (0 for exact)
  int solve_sweeps = 0;   // Jacobi solves: sweeps per factor (0 otherwise)
  // The checks of `automatic` (-1 where not made): ||A - L U||_pattern / ||A|| of the parallel factors, and each
  // factor's last_sweep_ratio of the Jacobi solves; and whether they sent it to exact factors or level sets.
  double factor_residual = -1;
  double jacobi_ratio_L = -1, jacobi_ratio_U = -1;
  bool factorization_fell_back = false, solve_fell_back = false;
  double symbolic = 0;             // exact: spiluk_symbolic (on the host in both Kokkos Kernels releases) + the pattern
                                   // checks; parallel: the patterns of L, U and U^T, on the device
  double numeric = 0;              // exact: spiluk_numeric + the pivot check; parallel: the sweeps + the pivot check
  double solve_symbolic = 0;       // sptrsv_symbolic of L and U (their level sets); Jacobi: the inverse diagonal
  double setup = 0;                // all of the above, with allocations
  std::int64_t nnz_L = 0;          // stored entries of L, its unit diagonal included
  std::int64_t nnz_U = 0;          // stored entries of U, its diagonal included
  int factor_levels = 0;           // exact: level sets of the numeric factorisation (before splitting)
  int largest_level = 0;           // exact: rows of the largest of those levels
  int rows_per_launch = 0;         // exact: the most rows one numeric launch factors (the work_bytes cap)
  bool sequential_solves = false;  // the triangular solves run as one host loop
  int L_levels = 0;                // level sets of the level-scheduled triangular solves (0 when sequential)
  int U_levels = 0;
};

class ilu0_factorization {
 public:
  // Factors A (square, every row with a stored diagonal entry; columns sorted, no duplicates, as ppl's readers and
  // generators build it). Throws ppl::input_error naming the first (1-based) row without a diagonal entry, or
  // with a zero or non-finite pivot (the parallel factorisation: after its sweeps, or with a non-finite entry),
  // and parameter_error for negative sweeps or sequential solves without host memory.
  explicit ilu0_factorization(const crs_matrix& A, const ilu0_options& o = {});
  ~ilu0_factorization();
  ilu0_factorization(ilu0_factorization&&) noexcept;
  ilu0_factorization& operator=(ilu0_factorization&&) noexcept;

  // z = (L U)^-1 r: the lower solve, then the upper one. r and z must not alias. Does not fence. Const as the
  // preconditioner seam asks, though it writes the factorisation's own work vector (one solve at a time).
  void apply(const_vector_view r, vector_view z) const;
  // z = (L U)^-T r = L^-T U^-T r (BiCG's shadow system). The transposed factors and their solve levels are built
  // on the first call (charged to that call). With Jacobi solves it is the exact transpose of apply's operator:
  // k sweeps on T^T are the transpose of k sweeps on T.
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
