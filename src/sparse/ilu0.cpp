// ILU(0): the exact factors through Kokkos Kernels (spiluk_symbolic / spiluk_numeric, fill level 0) or the parallel
// fixed-point factors of ilu0_parallel.cpp; the triangular solves through sptrsv (level-scheduled), ppl's host loop
// (ilu0_host_solve.cpp) or Jacobi sweeps (ilu0_parallel.cpp). What ppl adds around the library (docs/solver.md,
// "ILU(0)"):
// - the pattern check before it (a missing diagonal would silently become a 1e6 pivot, see below);
// - a pivot check after it: Kokkos Kernels (3.4.01 and 4.6.01 alike) replaces an exactly zero pivot by 1e6 and
//   carries on, so the pivots are recomputed here from the factors and a zero one is an input error;
// - a cap on the numeric phase's work map (level rows x matrix rows ints, unbounded on the host in both
//   releases), by splitting large levels into launches of at most `rows_per_launch` rows;
// - the transposed factors for BiCG's M^-T products.
#include "ppl/sparse/ilu0.hpp"

#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_spiluk.hpp>
#include <KokkosSparse_sptrsv.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "ilu0_host_solve.hpp"
#include "ilu0_parallel.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/huge_pages.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/core/parameters.hpp"
#include "ppl/sparse/kokkos_kernels_compat.hpp"

// Kokkos Kernels 4.x promoted spiluk and sptrsv out of Experimental (the old names remain there, deprecated);
// 3.4 has no version macro, 4.x defines KOKKOSKERNELS_VERSION in KokkosKernels_config.h.
#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40000
#define PPL_KK_TRIANGULAR_NS KokkosSparse
#define PPL_KK_SPILUK_CHUNKS 1
#else
#define PPL_KK_TRIANGULAR_NS KokkosSparse::Experimental
#define PPL_KK_SPILUK_CHUNKS 0
#endif

namespace ppl {
namespace {

using ilu0_detail::entries_view;
using ilu0_detail::row_map_view;
using ilu0_detail::size_type;
using ilu0_detail::values_view;
using memory_space = sparse_space::memory_space;
using kernel_handle =
    KokkosKernels::Experimental::KokkosKernelsHandle<size_type, int, double, sparse_space, memory_space, memory_space>;

// The numeric phase's launches: a team per row (TP1) is what a GPU needs; on host memory a plain range of rows (RP,
// Kokkos Kernels 3.4 only: 4.x dropped it) skips the team machinery, one thread per row either way there; it set up
// 4-23% faster on one thread (docs/solver.md, "ILU(0)").
#if PPL_KK_SPILUK_CHUNKS
constexpr auto numeric_algorithm = KokkosSparse::Experimental::SPILUKAlgorithm::SEQLVLSCHD_TP1;
#else
constexpr auto numeric_algorithm = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible
                                       ? KokkosSparse::Experimental::SPILUKAlgorithm::SEQLVLSCHD_RP
                                       : KokkosSparse::Experimental::SPILUKAlgorithm::SEQLVLSCHD_TP1;
#endif

constexpr std::size_t default_work_bytes = std::size_t(256) << 20;
// On host memory a launch factors at most this many rows per thread unless ilu0_options::work_bytes says otherwise:
// more rows only grow the work map, whose fill and first touch cost more than the launches they save
// (docs/solver.md, "ILU(0)").
constexpr int host_rows_per_thread = 16;
// Exactly zero pivots, which Kokkos Kernels turns into 1e6, recompute to a few rounding errors of the row's scale at
// most, far below the tolerance.
constexpr double zero_pivot_tolerance = ilu0_zero_pivot_tolerance;

// The first row (0-based) that has no diagonal entry or whose columns are not strictly increasing
// (std::numeric_limits<int>::max() if none); the caller looks at that row on the host to say which.
struct pattern_check {
  crs_matrix::row_map_type row_map;
  crs_matrix::index_type entries;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& first_bad) const {
    bool diagonal = false, sorted = true;
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      if (entries(k) == i) diagonal = true;
      if (k > row_map(i) && entries(k) <= entries(k - 1)) sorted = false;
    }
    if ((!diagonal || !sorted) && i < first_bad) first_bad = i;
  }
};

struct count_lower {
  crs_matrix::row_map_type row_map;
  crs_matrix::index_type entries;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, std::int64_t& n) const {
    for (auto k = row_map(i); k < row_map(i + 1); ++k)
      if (entries(k) < i) ++n;
  }
};

// Recomputes pivot i from the factors, u_ii = a_ii - sum_{k < i} l_ik u_ki (the ILU(0) formula, independent of
// the library's elimination loop). `consistency` false: keeps the first row whose pivot is zero by the tolerance
// above or not finite. True: the first row whose stored pivot differs from the recomputed one beyond rounding (a
// row the library did not factor).
struct pivot_check {
  crs_matrix::row_map_type a_map;
  crs_matrix::index_type a_cols;
  crs_matrix::values_type a_vals;
  row_map_view l_map, u_map;
  entries_view l_cols, u_cols;
  values_view l_vals, u_vals;
  bool consistency;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& first_bad) const {
    double pivot = 0, scale = 0, terms = 0;
    for (auto k = a_map(i); k < a_map(i + 1); ++k) {
      scale += kmath::fabs(a_vals(k));
      if (a_cols(k) == i) pivot = a_vals(k);
    }
    terms = kmath::fabs(pivot);
    // L's row i ends with its unit diagonal; U's rows are sorted and start with the diagonal.
    for (auto k = l_map(i); k + 1 < l_map(i + 1); ++k) {
      const int row = l_cols(k);
      auto lo = u_map(row) + 1, hi = u_map(row + 1);
      while (lo < hi) {
        const auto mid = lo + (hi - lo) / 2;
        if (u_cols(mid) < i)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < u_map(row + 1) && u_cols(lo) == i) {
        pivot -= l_vals(k) * u_vals(lo);
        terms += kmath::fabs(l_vals(k) * u_vals(lo));
      }
    }
    const double stored = u_vals(u_map(i));
    const bool ok = consistency ? kmath::fabs(stored - pivot) <= 1e-10 * terms
                                : kmath::isfinite(stored) && kmath::isfinite(pivot) &&
                                      kmath::fabs(pivot) > zero_pivot_tolerance * scale;
    if (!ok && i < first_bad) first_bad = i;
  }
};

// One triangular factor and its sptrsv handle (level sets built by sptrsv_symbolic).
// Or, `sequential`, the host loop of ilu0_host_solve.cpp over the factor's rows (it reads the views directly, so
// only for host memory); or, `jacobi`, its Jacobi sweeps (ilu0_parallel.cpp).
struct triangle {
  row_map_view row_map;
  entries_view entries;
  values_view values;
  kernel_handle handle;
  bool lower = true;
  ilu0_triangular_solve mode = ilu0_triangular_solve::level_scheduled;
  ilu0_detail::host_triangle<size_type> host;
  ilu0_detail::jacobi_triangle jacobi;

  // `unit`: the stored diagonal is 1 (L and L^T). `sweeps` and `scratch`: the Jacobi solve's.
  void symbolic(int n, bool is_lower, bool unit, ilu0_triangular_solve how, int sweeps, const vector_view& scratch) {
    lower = is_lower;
    mode = how;
    if (mode == ilu0_triangular_solve::sequential) {
      prepare_host<>(n, unit);
      return;
    }
    if (mode == ilu0_triangular_solve::jacobi) {
      jacobi = ilu0_detail::jacobi_triangle({row_map, entries, values}, n, lower, unit, sweeps, scratch);
      return;
    }
    handle.create_sptrsv_handle(KokkosSparse::Experimental::SPTRSVAlgorithm::SEQLVLSCHD_TP1, n, lower);
#if PPL_KK_SPILUK_CHUNKS
    PPL_KK_TRIANGULAR_NS::sptrsv_symbolic(&handle, row_map, entries);
#else
    set_solve_levels(n);
#endif
  }
#if !PPL_KK_SPILUK_CHUNKS
  // The level sets sptrsv_symbolic of Kokkos Kernels 3.4 builds, built in O(nnz) instead of its O(levels x rows)
  // scan (3.6 of 5.0 s of set-up at 970,299 rows on one thread, docs/solver.md "ILU(0)"): row i's level is one
  // more than the largest level of the rows it reads (0 if none); rows grouped by level, ascending within a level
  // for L (descending for U), as the library's scan leaves them; then the handle's views as its symbolic phase
  // fills them.
  void set_solve_levels(int n) {
    auto* h = handle.get_sptrsv_handle();
    h->new_init_handle(n);  // the views, as the library's sptrsv_symbolic allocates them first
    const auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_map);
    const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), entries);
    auto level = Kokkos::create_mirror_view(h->get_level_list());
    int nlevels = 0;
    for (int step = 0; step < n; ++step) {
      const int i = lower ? step : n - 1 - step;
      int l = 0;
      for (auto k = rm(i); k < rm(i + 1); ++k)
        if (cols(k) != i) l = std::max(l, static_cast<int>(level(cols(k))) + 1);
      level(i) = l;
      nlevels = std::max(nlevels, l + 1);
    }
    auto per_level = h->get_host_nodes_per_level();
    auto grouped = h->get_host_nodes_grouped_by_level();
    std::vector<int> next(static_cast<std::size_t>(nlevels) + 1, 0);
    for (int l = 0; l < nlevels; ++l) per_level(l) = 0;
    for (int i = 0; i < n; ++i) ++per_level(level(i));
    for (int l = 0; l < nlevels; ++l) next[l + 1] = next[l] + static_cast<int>(per_level(l));
    for (int step = 0; step < n; ++step) {
      const int i = lower ? step : n - 1 - step;
      grouped(next[level(i)]++) = i;
    }
    Kokkos::deep_copy(h->get_level_list(), level);
    Kokkos::deep_copy(h->get_nodes_per_level(), per_level);
    Kokkos::deep_copy(h->get_nodes_grouped_by_level(), grouped);
    h->set_num_levels(nlevels);
    h->set_symbolic_complete();
  }
#endif
  // Templates so that the host branches are not instantiated for device memory (CUDA builds).
  template <class Space = sparse_space>
  void prepare_host(int n, bool unit) {
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible) {
      host.n = n;
      host.lower = lower;
      host.unit = unit;
      host.row_map = row_map.data();
      host.entries = entries.data();
      host.values = values.data();
      ilu0_detail::prepare(host);
    }
  }
  template <class Space = sparse_space>
  void solve(const_vector_view b, vector_view x) {
    if (mode == ilu0_triangular_solve::jacobi) {
      jacobi.solve(b, x);
      return;
    }
    if (mode == ilu0_triangular_solve::level_scheduled) {
      PPL_KK_TRIANGULAR_NS::sptrsv_solve(&handle, row_map, entries, values, b, x);
      return;
    }
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible) {
      sparse_space().fence();  // b may still be written by a kernel of the solver
      ilu0_detail::solve(host, b.data(), x.data());
    }
  }
  int levels() {
    return mode != ilu0_triangular_solve::level_scheduled
               ? 0
               : static_cast<int>(handle.get_sptrsv_handle()->get_num_levels());
  }
  crs_matrix matrix(const std::string& label, int n) const {
    return crs_matrix(label, n, n, static_cast<size_type>(values.extent(0)), values, row_map, entries);
  }
};

// Splits every factorisation level with more than `cap` rows into launches of at most `cap` rows; returns the
// largest launch. Rows of one level are independent, so launching them in several groups changes nothing but the
// size of the work map the numeric phase allocates (launch rows x matrix rows ints).
template <class iluk_handle>
int limit_rows_per_launch(iluk_handle& h, int cap) {
  const int nlevels = static_cast<int>(h.get_num_levels());
#if PPL_KK_SPILUK_CHUNKS
  // 4.x chunks levels itself (for CUDA, sized from the free device memory); the host views are the handle's own.
  // Its spiluk_symbolic has already allocated the uncapped map once on the host (replaced here, so it is a peak
  // during the set-up, not a footprint of the factorisation).
  auto nchunks = h.get_level_nchunks();
  auto rows_per_chunk = h.get_level_nrowsperchunk();
  auto level_ptr = h.get_host_level_ptr();
  int largest = 0;
  for (int l = 0; l < nlevels; ++l) {
    const int rows = level_ptr(l + 1) - level_ptr(l);
    const int per = std::min({rows, cap, static_cast<int>(rows_per_chunk(l))});
    nchunks(l) = per > 0 ? (rows + per - 1) / per : 1;
    rows_per_chunk(l) = per > 0 ? (rows + nchunks(l) - 1) / nchunks(l) : 0;
    largest = std::max(largest, static_cast<int>(rows_per_chunk(l)));
  }
  h.set_level_maxrowsperchunk(largest);
  h.alloc_iw(largest, h.get_nrows());
  return largest;
#else
  // 3.4 sizes the work map from the largest level at every spiluk_numeric: split the levels themselves (the level
  // pointer has room for one level per row).
  auto level_ptr_d = h.get_level_ptr();
  auto level_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), level_ptr_d);
  std::vector<int> split{0};
  int largest = 0;
  for (int l = 0; l < nlevels; ++l) {
    const int begin = level_ptr(l), end = level_ptr(l + 1);
    const int launches = std::max(1, (end - begin + cap - 1) / cap);
    const int per = (end - begin + launches - 1) / launches;
    for (int start = begin + per; start < end; start += per) split.push_back(start);
    split.push_back(end);
    largest = std::max(largest, std::min(per, end - begin));
  }
  for (std::size_t l = 0; l < split.size(); ++l) level_ptr(l) = split[l];
  Kokkos::deep_copy(level_ptr_d, level_ptr);
  h.set_num_levels(split.size() - 1);
  h.set_level_maxrows(largest);
  return largest;
#endif
}

[[noreturn]] void throw_row_error(int row, const std::string& what) {
  throw input_error("ilu0 preconditioner: row " + std::to_string(row + 1) + " (1-based) " + what);
}

// Host look at one row of A: its column indices.
std::vector<int> host_row_columns(const crs_matrix& A, int row) {
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                Kokkos::subview(A.graph.row_map, std::make_pair(row, row + 2)));
  const auto range = std::pair<std::size_t, std::size_t>(rm(0), rm(1));
  auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(A.graph.entries, range));
  return std::vector<int>(c.data(), c.data() + c.extent(0));
}

// The rows of the longest dependency chain of A's strictly lower pattern (the level sets of L's solve and of the
// exact factorisation), for the host's solve rule when the parallel factorisation ran without spiluk's level count.
template <class Space = sparse_space>
int host_lower_levels(const crs_matrix& A) {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible) {
    const int n = A.numRows();
    std::vector<int> level(static_cast<std::size_t>(n), 0);
    int count = 0;
    for (int i = 0; i < n; ++i) {
      for (auto k = A.graph.row_map(i); k < A.graph.row_map(i + 1) && A.graph.entries(k) < i; ++k)
        level[i] = std::max(level[i], level[A.graph.entries(k)] + 1);
      count = std::max(count, level[i] + 1);
    }
    return count;
  } else {
    (void)A;
    return 0;
  }
}

}  // namespace

bool ilu0_level_scheduling_pays(int threads, int rows, int levels) {
  return threads >= 8 && static_cast<long long>(rows) >= 32LL * threads * std::max(levels, 1);
}

struct ilu0_factorization::impl {
  int n = 0;
  int solve_sweeps = 0;
  ilu0_triangular_solve solve = ilu0_triangular_solve::sequential;
  triangle L, U;
  std::unique_ptr<triangle> Lt, Ut;  // L^T (upper) and U^T (lower), built on the first apply_transpose
  vector_view work, scratch;         // scratch: the Jacobi sweeps' second vector
  ilu0_stats stats;

  void exact_factors(const crs_matrix& A, const ilu0_options& o);
  int parallel_factors(const crs_matrix& A, int sweeps);
  void prepare_solves(ilu0_triangular_solve how, int sweeps);
};

// The triangular solves of L and U, `how` (resolved), with `sweeps` Jacobi sweeps where they are Jacobi's.
void ilu0_factorization::impl::prepare_solves(ilu0_triangular_solve how, int sweeps) {
  solve = how;
  const bool jacobi = how == ilu0_triangular_solve::jacobi;
  solve_sweeps = jacobi ? sweeps : 0;
  stats.solve = how;
  stats.sequential_solves = how == ilu0_triangular_solve::sequential;
  stats.solve_sweeps = solve_sweeps;
  if (jacobi && scratch.extent(0) != static_cast<std::size_t>(n)) {
    scratch = vector_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("ppl::ilu0::scratch")), n);
    advise_huge_pages(scratch);
  }
  if (!jacobi) scratch = vector_view();
  L.symbolic(n, true, true, how, solve_sweeps, scratch);
  U.symbolic(n, false, false, how, solve_sweeps, scratch);
}

// spiluk_symbolic and spiluk_numeric (fill level 0), with the work map's cap and the pivot checks.
void ilu0_factorization::impl::exact_factors(const crs_matrix& A, const ilu0_options& o) {
  Kokkos::Timer step;
  constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  const auto policy = Kokkos::RangePolicy<sparse_space>(0, n);
  std::int64_t lower = 0;
  Kokkos::parallel_reduce("ppl::ilu0::count_lower", policy, count_lower{A.graph.row_map, A.graph.entries}, lower);
  const auto nnz_L = static_cast<size_type>(lower + n);
  const auto nnz_U = static_cast<size_type>(A.nnz() - lower);

  kernel_handle kh;
  kh.create_spiluk_handle(numeric_algorithm, n, nnz_L, nnz_U);
  auto* ih = kh.get_spiluk_handle();
  L.row_map = make_large_view<row_map_view>("ppl::ilu0::L_row_map", n + 1);
  L.entries = make_large_view<entries_view>("ppl::ilu0::L_entries", nnz_L);
  U.row_map = make_large_view<row_map_view>("ppl::ilu0::U_row_map", n + 1);
  U.entries = make_large_view<entries_view>("ppl::ilu0::U_entries", nnz_U);
  auto a_map = A.graph.row_map;
  auto a_cols = A.graph.entries;
  auto a_vals = A.values;
  PPL_KK_TRIANGULAR_NS::spiluk_symbolic(&kh, 0, a_map, a_cols, L.row_map, L.entries, U.row_map, U.entries);
  if (ih->get_nnzL() != nnz_L || ih->get_nnzU() != nnz_U) {
    std::ostringstream os;
    os << "ilu0: spiluk_symbolic made " << ih->get_nnzL() << " + " << ih->get_nnzU() << " entries for L + U, "
       << "expected " << nnz_L << " + " << nnz_U << " (the pattern of A)";
    throw error(exit_code::failure, os.str());
  }
  stats.factor_levels = static_cast<int>(ih->get_num_levels());
  stats.largest_level = static_cast<int>(ih->get_level_maxrows());
  const std::size_t budget = o.work_bytes ? o.work_bytes : default_work_bytes;
  int cap = static_cast<int>(
      std::clamp<std::size_t>(budget / (sizeof(int) * std::max<std::size_t>(n, 1)), 1, std::max(n, 1)));
  if (host_memory && !o.work_bytes) cap = std::min(cap, host_rows_per_thread * sparse_space().concurrency());
  stats.rows_per_launch = limit_rows_per_launch(*ih, cap);
  Kokkos::fence();
  stats.symbolic += step.seconds();

  step.reset();
  L.values = make_large_view<values_view>("ppl::ilu0::L_values", nnz_L);
  U.values = make_large_view<values_view>("ppl::ilu0::U_values", nnz_U);
  PPL_KK_TRIANGULAR_NS::spiluk_numeric(&kh, 0, a_map, a_cols, a_vals, L.row_map, L.entries, L.values, U.row_map,
                                       U.entries, U.values);
  pivot_check check{a_map, a_cols, a_vals, L.row_map, U.row_map, L.entries, U.entries, L.values, U.values, false};
  int first_bad = std::numeric_limits<int>::max();
  Kokkos::parallel_reduce("ppl::ilu0::pivot_check", policy, check, Kokkos::Min<int>(first_bad));
  int inconsistent = std::numeric_limits<int>::max();
  if (first_bad == std::numeric_limits<int>::max()) {
    check.consistency = true;
    Kokkos::parallel_reduce("ppl::ilu0::pivot_consistency", policy, check, Kokkos::Min<int>(inconsistent));
  }
  Kokkos::fence();
  stats.numeric = step.seconds();
  if (inconsistent != std::numeric_limits<int>::max())
    throw error(exit_code::failure, "ilu0: the pivot Kokkos Kernels stored for row " +
                                        std::to_string(inconsistent + 1) +
                                        " (1-based) differs from the one its factors give");
  if (first_bad != std::numeric_limits<int>::max()) {
    auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), U.row_map);
    double pivot = 0;
    Kokkos::deep_copy(pivot, Kokkos::subview(U.values, static_cast<std::size_t>(u(first_bad))));
    std::ostringstream os;
    if (std::isfinite(pivot))
      os << "has a zero pivot in the ILU(0) factorisation; ILU(0) needs nonzero pivots (use preconditioner: "
            "jacobi or none, or reorder the matrix)";
    else
      os << "has a non-finite pivot (" << pivot << ") in the ILU(0) factorisation: it overflowed";
    throw_row_error(first_bad, os.str());
  }
}

// The patterns split from A's on the device, the fixed-point sweeps, and a check of what they reached: the sweeps
// make no pivot of their own to test, so the stored pivots and every entry are checked. Returns the first bad row
// (n if none) for the caller to report or to fall back from.
int ilu0_factorization::impl::parallel_factors(const crs_matrix& A, int sweeps) {
  Kokkos::Timer step;
  ilu0_detail::factor_csr l, u;
  ilu0_detail::split_pattern(A, l, u);
  Kokkos::fence();
  stats.symbolic += step.seconds();
  step.reset();
  stats.factor_residual = ilu0_detail::parallel_factor(A, l, u, sweeps);
  const int bad = ilu0_detail::first_bad_parallel_row(A, l, u, zero_pivot_tolerance);
  Kokkos::fence();
  stats.numeric = step.seconds();
  L.row_map = l.row_map;
  L.entries = l.entries;
  L.values = l.values;
  U.row_map = u.row_map;
  U.entries = u.entries;
  U.values = u.values;
  return bad;
}

[[noreturn]] void throw_parallel_pivot(int row, int sweeps) {
  throw_row_error(row, "has a zero or non-finite pivot or entry after " + std::to_string(sweeps) +
                           " sweeps of the parallel ILU(0) factorisation (use more factor_sweeps, or "
                           "factorization: exact)");
}

ilu0_factorization::ilu0_factorization(const crs_matrix& A, const ilu0_options& o) : p_(std::make_unique<impl>()) {
  Kokkos::Profiling::pushRegion("ppl::ilu0::setup");
  try {
    const Kokkos::Timer total;
    Kokkos::Timer step;
    const int n = A.numRows();
    if (A.numCols() != n)
      throw input_error("ilu0 preconditioner: the matrix is not square (" + std::to_string(n) + " x " +
                        std::to_string(A.numCols()) + ")");
    if (o.factor_sweeps < 0) throw parameter_error("factor_sweeps", "must be >= 0");
    if (o.solve_sweeps < 0) throw parameter_error("solve_sweeps", "must be >= 0");
    constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    if (o.solve == ilu0_triangular_solve::sequential && !host_memory)
      throw parameter_error("triangular_solve", "= sequential needs host memory (this build's default space is " +
                                                    std::string(sparse_space::name()) + ")");
    p_->n = n;
    auto& st = p_->stats;
    const bool host_rules = host_memory && !o.automatic_as_gpu;
    st.factorization = o.factorization != ilu0_factorization_method::automatic ? o.factorization
                       : host_rules                                            ? ilu0_factorization_method::exact
                                                                               : ilu0_factorization_method::parallel;
    const bool parallel = st.factorization == ilu0_factorization_method::parallel;

    int first_bad = std::numeric_limits<int>::max();
    Kokkos::parallel_reduce("ppl::ilu0::pattern_check", Kokkos::RangePolicy<sparse_space>(0, n),
                            pattern_check{A.graph.row_map, A.graph.entries}, Kokkos::Min<int>(first_bad));
    if (first_bad != std::numeric_limits<int>::max()) {
      const auto cols = host_row_columns(A, first_bad);
      if (std::find(cols.begin(), cols.end(), first_bad) == cols.end())
        throw_row_error(first_bad,
                        "has no diagonal entry; ILU(0) needs one in every row (use preconditioner: none, or store "
                        "the diagonal)");
      throw_row_error(first_bad, "has unsorted or duplicate column indices");
    }
    st.symbolic = step.seconds();
    if (parallel) {
      const int bad = p_->parallel_factors(A, o.factor_sweeps);
      st.factor_sweeps = o.factor_sweeps;
      // `automatic` keeps the sweeps' factors only where they got close to A (Chow & Patel's residual), else
      // factors exactly: on convection-dominated systems the sweeps diverge (docs/solver.md, "ILU(0)").
      const bool converged = bad == n && st.factor_residual <= ilu0_parallel_residual_limit;
      if (o.factorization == ilu0_factorization_method::automatic && !converged) {
        st.factorization = ilu0_factorization_method::exact;
        st.factorization_fell_back = true;
        st.factor_sweeps = 0;
        for (triangle* t : {&p_->L, &p_->U}) {  // the sweeps' factors go before spiluk allocates its own
          t->row_map = row_map_view();
          t->entries = entries_view();
          t->values = values_view();
        }
        p_->exact_factors(A, o);
      } else if (bad < n) {
        throw_parallel_pivot(bad, o.factor_sweeps);
      }
    } else {
      p_->exact_factors(A, o);
    }

    step.reset();
    auto solve = o.solve;
    if (solve == ilu0_triangular_solve::automatic) {
      // The host rule needs the factor's level count: spiluk's, or counted here (only where it can pay).
      const int threads = sparse_space().concurrency();
      const bool exact = st.factorization == ilu0_factorization_method::exact;
      const int levels = exact ? st.factor_levels : threads >= 8 ? host_lower_levels<>(A) : 0;
      solve = !host_rules                                      ? ilu0_triangular_solve::jacobi
              : ilu0_level_scheduling_pays(threads, n, levels) ? ilu0_triangular_solve::level_scheduled
                                                               : ilu0_triangular_solve::sequential;
    }
    p_->work = vector_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("ppl::ilu0::work")), n);
    advise_huge_pages(p_->work);
    p_->prepare_solves(solve, o.solve_sweeps);
    if (solve == ilu0_triangular_solve::jacobi) {
      st.jacobi_ratio_L = p_->L.jacobi.last_sweep_ratio();
      st.jacobi_ratio_U = p_->U.jacobi.last_sweep_ratio();
      // `automatic` keeps the Jacobi solves only where their last sweep still helps in both factors, else solves
      // level by level: the sweeps' series grows on highly non-normal factors.
      if (o.solve == ilu0_triangular_solve::automatic && !(st.jacobi_ratio_L < 1.0 && st.jacobi_ratio_U < 1.0)) {
        st.solve_fell_back = true;
        p_->prepare_solves(ilu0_triangular_solve::level_scheduled, 0);
      }
    }
    Kokkos::fence();
    st.solve_symbolic = step.seconds();
    st.nnz_L = static_cast<std::int64_t>(p_->L.entries.extent(0));
    st.nnz_U = static_cast<std::int64_t>(p_->U.entries.extent(0));
    st.L_levels = p_->L.levels();
    st.U_levels = p_->U.levels();
    st.setup = total.seconds();
  } catch (...) {
    Kokkos::Profiling::popRegion();
    throw;
  }
  Kokkos::Profiling::popRegion();
}

void ilu0_check(const host_csr& A) {
  const int n = A.rows;
  std::vector<std::int64_t> diag(n, -1), where(n, -1);
  std::vector<double> lu = A.values;
  for (int r = 0; r < n; ++r) {
    double norm1 = 0;
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) {
      where[A.entries[j]] = j;
      norm1 += std::fabs(A.values[j]);
      if (A.entries[j] == r) diag[r] = j;
    }
    if (diag[r] < 0)
      throw input_error("row " + std::to_string(r + 1) +
                        " (1-based) has no diagonal entry; preconditioner: ilu0 needs one in every row (use "
                        "preconditioner: none)");
    for (auto j = A.row_map[r]; j < diag[r]; ++j) {
      const int k = A.entries[j];
      lu[j] /= lu[diag[k]];
      for (auto q = diag[k] + 1; q < A.row_map[k + 1]; ++q)
        if (where[A.entries[q]] >= 0) lu[where[A.entries[q]]] -= lu[j] * lu[q];
    }
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) where[A.entries[j]] = -1;
    const double pivot = lu[diag[r]];
    if (!std::isfinite(pivot) || std::fabs(pivot) <= ilu0_zero_pivot_tolerance * norm1)
      throw input_error("row " + std::to_string(r + 1) + " (1-based) has a " +
                        (std::isfinite(pivot) ? "zero" : "non-finite") +
                        " pivot in the ILU(0) factorisation; preconditioner: ilu0 needs nonzero pivots (use "
                        "preconditioner: jacobi or none)");
  }
}

ilu0_factorization::~ilu0_factorization() = default;
ilu0_factorization::ilu0_factorization(ilu0_factorization&&) noexcept = default;
ilu0_factorization& ilu0_factorization::operator=(ilu0_factorization&&) noexcept = default;

void ilu0_factorization::apply(const_vector_view r, vector_view z) const {
  p_->L.solve(r, p_->work);
  p_->U.solve(p_->work, z);
}

void ilu0_factorization::apply_transpose(const_vector_view r, vector_view z) const {
  if (!p_->Lt) {
    // (L U)^T = U^T L^T: U^T is lower with its diagonal last once sorted, L^T upper with its unit diagonal first.
    auto make = [&](const triangle& t, bool lower_result, bool unit) {
      auto T = kk::transpose_matrix(t.matrix("ppl::ilu0::transpose", p_->n));
      kk::sort_crs_matrix(T);
      auto out = std::make_unique<triangle>();
      out->row_map = make_large_view<row_map_view>("ppl::ilu0::T_row_map", p_->n + 1);
      Kokkos::deep_copy(out->row_map, T.graph.row_map);
      out->entries = T.graph.entries;
      out->values = T.values;
      out->symbolic(p_->n, lower_result, unit, p_->solve, p_->solve_sweeps, p_->scratch);
      return out;
    };
    p_->Ut = make(p_->U, true, false);
    p_->Lt = make(p_->L, false, true);
  }
  p_->Ut->solve(r, p_->work);
  p_->Lt->solve(p_->work, z);
}

int ilu0_factorization::rows() const {
  return p_->n;
}
crs_matrix ilu0_factorization::lower() const {
  return p_->L.matrix("ppl::ilu0::L", p_->n);
}
crs_matrix ilu0_factorization::upper() const {
  return p_->U.matrix("ppl::ilu0::U", p_->n);
}
const ilu0_stats& ilu0_factorization::stats() const {
  return p_->stats;
}

}  // namespace ppl
