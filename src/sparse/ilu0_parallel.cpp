// ILU(0)'s parallel factorisation and Jacobi-sweep triangular solves (ilu0_parallel.hpp). Both run as team kernels
// over blocks of rows, a row per team thread and its entries over vector lanes (the portable SpMV's mapping,
// src/sparse/spmv_vector.cpp), with vector_cuda's lanes-per-row rule on a GPU and one lane on the host.
#include "ilu0_parallel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "ppl/core/huge_pages.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/sparse/kokkos_kernels_compat.hpp"
#include "ppl/sparse/spmv_defaults.hpp"

namespace ppl::ilu0_detail {
namespace {

constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible;
using team_policy = Kokkos::TeamPolicy<sparse_space>;
using member = team_policy::member_type;

// Vector lanes per row for rows of `mean` entries: vector_cuda's rule on a GPU (13 per row: 4, 27: 8), one on the host
// (where lanes are a loop).
int lanes_for(double mean) {
  return host_memory ? 1 : cuda_threads_per_row(mean);
}

// One launch of `f` (operator()(member) over rows [league_rank * rows_per_team, ...)) over `rows` rows.
template <class F>
void launch_rows(const std::string& label, int rows, int lanes, int rows_per_team, const F& f) {
  if (rows == 0) return;
  const int league = (rows + rows_per_team - 1) / rows_per_team;
  int team_size = 1;
  if (!host_memory)
    team_size = std::min(rows_per_team, team_policy(league, 1, lanes).team_size_max(f, Kokkos::ParallelForTag()));
  Kokkos::parallel_for(label, team_policy(league, team_size, lanes), f);
}

KOKKOS_INLINE_FUNCTION int rows_in_team(const member& team, int rows, int rows_per_team) {
  const int first = team.league_rank() * rows_per_team;
  return rows - first < rows_per_team ? rows - first : rows_per_team;
}

// A diagonal of A read where the scaling of the initial guess needs it: a zero one scales by 1 (the sweeps then
// leave l_ij alone until u_jj is nonzero; a pivot still zero after them is the caller's input error).
KOKKOS_INLINE_FUNCTION double scale_of(double d) {
  return d != 0.0 ? d : 1.0;
}

// One sweep of the fixed-point iteration (ilu0_parallel.hpp): every entry of row i of A from the previous sweep's
// L (l_old) and U^T (t_old) into l_new and t_new. Row i of L holds A's strictly lower entries of row i in A's order
// (then the unit diagonal), so A's entry p of row i that is in L sits at l_map(i) + (p - a_map(i)); an entry in U
// sits in U's row i at the same offset from the diagonal, and u_to_ut maps U's positions to U^T's.
struct factor_sweep {
  crs_matrix::row_map_type a_map;
  crs_matrix::index_type a_cols;
  crs_matrix::values_type a_vals;
  row_map_view l_map;
  entries_view l_cols;
  values_view l_old, l_new;
  crs_matrix::row_map_type t_map;  // U^T: row j = column j of U, sorted by row, its diagonal last
  crs_matrix::index_type t_rows;
  values_view t_old, t_new;
  row_map_view u_map;
  Kokkos::View<size_type*, sparse_space> u_to_ut;
  int rows = 0, rows_per_team = 1;

  // a_ij - sum_{k<min(i,j)} l_ik u_kj for A's entry p = (i, j) from the old values: row i of L (strictly lower
  // part [l_begin, l_diag)) against column j of U without its diagonal, both ascending, one product at a time.
  KOKKOS_INLINE_FUNCTION double reduced(int i, size_type p, size_type l_begin, size_type l_diag) const {
    const int j = a_cols(p);
    const int m = i < j ? i : j;
    double s = a_vals(p);
    size_type x = l_begin, y = t_map(j);
    const size_type y_end = t_map(j + 1) - 1;
    while (x < l_diag && y < y_end) {
      const int kx = l_cols(x), ky = t_rows(y);
      if (kx >= m || ky >= m) break;
      if (kx == ky) {
        s -= l_old(x) * t_old(y);
        ++x;
        ++y;
      } else if (kx < ky) {
        ++x;
      } else {
        ++y;
      }
    }
    return s;
  }
  KOKKOS_INLINE_FUNCTION double pivot(int j) const { return t_old(t_map(j + 1) - 1); }
  KOKKOS_INLINE_FUNCTION size_type in_ut(int i, size_type p, size_type a_diag) const {
    return u_to_ut(u_map(i) + (p - a_diag));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int first = team.league_rank() * rows_per_team;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows_in_team(team, rows, rows_per_team)), [&](const int r) {
      const int i = first + r;
      const size_type l_begin = l_map(i), l_diag = l_map(i + 1) - 1;
      const size_type a_begin = a_map(i), a_diag = a_begin + (l_diag - l_begin);
      const int len = static_cast<int>(a_map(i + 1) - a_begin);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, len), [&](const int e) {
        const size_type p = a_begin + e;
        const int j = a_cols(p);
        const double s = reduced(i, p, l_begin, l_diag);
        if (j < i) {
          const double d = pivot(j);
          const size_type at = l_begin + e;
          l_new(at) = d != 0.0 ? s / d : l_old(at);
        } else {
          t_new(in_ut(i, p, a_diag)) = s;
        }
      });
    });
  }
};

// sum over A's pattern of (A - L U)_ij^2 for the factors in l_old and t_old: the sweep's formulas with their own
// entry moved to the other side, (A - L U)_ij = a_ij - sum_{k<j} l_ik u_kj - l_ij u_jj (i > j) or ... - u_ij.
struct factor_residual {
  factor_sweep f;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& r2) const {
    const size_type l_begin = f.l_map(i), l_diag = f.l_map(i + 1) - 1;
    const size_type a_begin = f.a_map(i), a_diag = a_begin + (l_diag - l_begin);
    for (size_type p = a_begin; p < f.a_map(i + 1); ++p) {
      const int j = f.a_cols(p);
      const double s = f.reduced(i, p, l_begin, l_diag);
      const double r = j < i ? s - f.l_old(l_begin + (p - a_begin)) * f.pivot(j) : s - f.t_old(f.in_ut(i, p, a_diag));
      r2 += r * r;
    }
  }
};

// x_new = D^-1 (b - N x_old) over the rows of a triangular factor (ilu0_parallel.hpp); First: x_old = D^-1 b, read
// from b and the inverse diagonal in place. Unit: D = I.
template <bool Unit, bool First>
struct jacobi_sweep {
  row_map_view row_map;
  entries_view entries;
  values_view values;
  vector_view dinv;
  const_vector_view b, x_old;
  vector_view x_new;
  int rows = 0, rows_per_team = 1;
  bool lower = true;

  KOKKOS_INLINE_FUNCTION double old(int c) const {
    if constexpr (!First)
      return x_old(c);
    else if constexpr (Unit)
      return b(c);
    else
      return dinv(c) * b(c);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int first = team.league_rank() * rows_per_team;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows_in_team(team, rows, rows_per_team)), [&](const int r) {
      const int i = first + r;
      // The off-diagonal entries: all but the last of a lower row, all but the first of an upper one.
      const size_type begin = row_map(i) + (lower ? 0 : 1);
      const int len = static_cast<int>(row_map(i + 1) - row_map(i)) - 1;
      double sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, len),
          [&](const int k, double& acc) { acc += values(begin + k) * old(entries(begin + k)); }, sum);
      Kokkos::single(Kokkos::PerThread(team), [&]() {
        const double rest = b(i) - sum;
        x_new(i) = Unit ? rest : dinv(i) * rest;
      });
    });
  }
};

// The first row (0-based) of the parallel factors with a non-finite entry, or whose pivot is zero by
// ilu0_zero_pivot_tolerance against the 1-norm of A's row, or is not finite.
struct factor_check {
  crs_matrix::row_map_type a_map;
  crs_matrix::values_type a_vals;
  row_map_view l_map, u_map;
  values_view l_vals, u_vals;
  double tolerance;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& first_bad) const {
    double scale = 0;
    for (auto k = a_map(i); k < a_map(i + 1); ++k) scale += kmath::fabs(a_vals(k));
    bool ok = kmath::fabs(u_vals(u_map(i))) > tolerance * scale;
    for (auto k = l_map(i); k < l_map(i + 1); ++k) ok = ok && kmath::isfinite(l_vals(k));
    for (auto k = u_map(i); k < u_map(i + 1); ++k) ok = ok && kmath::isfinite(u_vals(k));
    if (!ok && i < first_bad) first_bad = i;
  }
};

// The functors below are launched from constructors, private members and host lambdas, where CUDA allows no
// extended lambda.

// 1 / t_ii, the diagonal last in a lower row and first in an upper one.
struct inverse_diagonal_of {
  row_map_view row_map;
  values_view values;
  vector_view dinv;
  bool lower;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    dinv(i) = 1.0 / values(lower ? row_map(i + 1) - 1 : row_map(i));
  }
};

// x = D^-1 b.
struct diagonal_solve {
  vector_view dinv;
  const_vector_view b;
  vector_view x;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { x(i) = dinv(i) * b(i); }
};

// ||b - T x||^2 by rows, the stored diagonal included (1 in a unit factor).
struct probe_residual {
  row_map_view row_map;
  entries_view entries;
  values_view values;
  vector_view b, x;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& sum) const {
    double r = b(i);
    for (auto k = row_map(i); k < row_map(i + 1); ++k) r -= values(k) * x(entries(k));
    sum += r * r;
  }
};

}  // namespace

void split_pattern(const crs_matrix& A, factor_csr& L, factor_csr& U) {
  const int n = A.numRows();
  auto a_map = A.graph.row_map;
  auto a_cols = A.graph.entries;
  auto l_map = make_large_view<row_map_view>("ppl::ilu0::L_row_map", n + 1);
  auto u_map = make_large_view<row_map_view>("ppl::ilu0::U_row_map", n + 1);
  const auto rows = Kokkos::RangePolicy<sparse_space>(0, n);
  // Row i's strictly lower count, as offsets of L (one more: the diagonal) and of U (the rest of the row).
  Kokkos::parallel_scan(
      "ppl::ilu0::pattern_offsets", rows, KOKKOS_LAMBDA(const int i, size_type& lower, const bool final) {
        size_type below = 0;
        for (auto k = a_map(i); k < a_map(i + 1) && a_cols(k) < i; ++k) ++below;
        lower += below;
        if (final) {
          l_map(i + 1) = lower + static_cast<size_type>(i) + 1;
          u_map(i + 1) = a_map(i + 1) - lower;
        }
      });
  size_type nnz_L = 0, nnz_U = 0;
  Kokkos::deep_copy(nnz_L, Kokkos::subview(l_map, n));
  Kokkos::deep_copy(nnz_U, Kokkos::subview(u_map, n));
  auto l_cols = make_large_view<entries_view>("ppl::ilu0::L_entries", nnz_L);
  auto u_cols = make_large_view<entries_view>("ppl::ilu0::U_entries", nnz_U);
  Kokkos::parallel_for(
      "ppl::ilu0::split_pattern", rows, KOKKOS_LAMBDA(const int i) {
        const size_type below = l_map(i + 1) - l_map(i) - 1;
        for (size_type k = 0; k < below; ++k) l_cols(l_map(i) + k) = a_cols(a_map(i) + k);
        l_cols(l_map(i + 1) - 1) = i;
        for (size_type k = a_map(i) + below; k < a_map(i + 1); ++k)
          u_cols(u_map(i) + (k - a_map(i) - below)) = a_cols(k);
      });
  L = {l_map, l_cols, {}};
  U = {u_map, u_cols, {}};
}

double parallel_factor(const crs_matrix& A, factor_csr& L, factor_csr& U, int sweeps) {
  const int n = A.numRows();
  const auto nnz_L = L.entries.extent(0), nnz_U = U.entries.extent(0);
  auto a_map = A.graph.row_map;
  auto a_cols = A.graph.entries;
  auto a_vals = A.values;
  auto l_map = L.row_map;
  auto u_map = U.row_map;
  const auto rows = Kokkos::RangePolicy<sparse_space>(0, n);

  // U^T in CSR through Kokkos Kernels' transpose and sort, carrying each entry's position in U as its value (exact:
  // positions stay below 2^53); then u_to_ut(q) = the position in U^T of U's entry q.
  values_view positions(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("ppl::ilu0::U_positions")), nnz_U);
  Kokkos::parallel_for(
      "ppl::ilu0::U_positions", Kokkos::RangePolicy<sparse_space>(0, nnz_U),
      KOKKOS_LAMBDA(const size_type q) { positions(q) = static_cast<double>(q); });
  auto Ut = kk::transpose_matrix(
      crs_matrix("ppl::ilu0::U_pattern", n, n, static_cast<size_type>(nnz_U), positions, u_map, U.entries));
  kk::sort_crs_matrix(Ut);
  Kokkos::View<size_type*, sparse_space> u_to_ut(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("ppl::ilu0::U_to_Ut")), nnz_U);
  auto ut_vals = Ut.values;
  Kokkos::parallel_for(
      "ppl::ilu0::U_to_Ut", Kokkos::RangePolicy<sparse_space>(0, nnz_U),
      KOKKOS_LAMBDA(const size_type t) { u_to_ut(static_cast<size_type>(ut_vals(t))) = t; });
  positions = values_view();  // the sweeps need U^T's pattern and the map, not the positions
  ut_vals = values_view();
  Ut.values = crs_matrix::values_type();

  // Two copies of each factor's values: one sweep reads one and writes the other.
  values_view l_a = make_large_view<values_view>("ppl::ilu0::L_values", nnz_L);
  values_view l_b = make_large_view<values_view>("ppl::ilu0::L_values_next", nnz_L);
  values_view t_a = make_large_view<values_view>("ppl::ilu0::Ut_values", nnz_U);
  values_view t_b = make_large_view<values_view>("ppl::ilu0::Ut_values_next", nnz_U);
  Kokkos::parallel_for(
      "ppl::ilu0::initial_guess", rows, KOKKOS_LAMBDA(const int i) {
        const size_type below = l_map(i + 1) - l_map(i) - 1;
        for (size_type k = 0; k < below; ++k) {
          const size_type p = a_map(i) + k;
          const int j = a_cols(p);
          const size_type j_diag = a_map(j) + (l_map(j + 1) - l_map(j) - 1);
          l_a(l_map(i) + k) = a_vals(p) / scale_of(a_vals(j_diag));
        }
        l_a(l_map(i + 1) - 1) = 1.0;
        l_b(l_map(i + 1) - 1) = 1.0;
        for (size_type p = a_map(i) + below; p < a_map(i + 1); ++p)
          t_a(u_to_ut(u_map(i) + (p - a_map(i) - below))) = a_vals(p);
      });

  const int lanes = lanes_for(n > 0 ? static_cast<double>(A.nnz()) / n : 0.0);
  const int rows_per_team = vector_rows_per_team(lanes, !host_memory);
  auto sweep = [&] {
    return factor_sweep{a_map, a_cols, a_vals,  l_map, L.entries,    l_a, l_b, Ut.graph.row_map, Ut.graph.entries, t_a,
                        t_b,   u_map,  u_to_ut, n,     rows_per_team};
  };
  for (int s = 0; s < sweeps; ++s) {
    launch_rows("ppl::ilu0::parallel_sweep", n, lanes, rows_per_team, sweep());
    std::swap(l_a, l_b);
    std::swap(t_a, t_b);
  }
  double r2 = 0, a2 = 0;
  Kokkos::parallel_reduce("ppl::ilu0::parallel_residual", rows, factor_residual{sweep()}, r2);
  Kokkos::parallel_reduce(
      "ppl::ilu0::norm_of_A", Kokkos::RangePolicy<sparse_space>(0, A.nnz()),
      KOKKOS_LAMBDA(const size_type p, double& sum) { sum += a_vals(p) * a_vals(p); }, a2);

  L.values = l_a;
  U.values = t_b;  // reused for U's own order; the last sweep's values are in t_a
  auto u_vals = U.values;
  Kokkos::parallel_for(
      "ppl::ilu0::U_from_Ut", Kokkos::RangePolicy<sparse_space>(0, nnz_U),
      KOKKOS_LAMBDA(const size_type q) { u_vals(q) = t_a(u_to_ut(q)); });
  return a2 > 0 ? std::sqrt(r2 / a2) : std::sqrt(r2);
}

int first_bad_parallel_row(const crs_matrix& A, const factor_csr& L, const factor_csr& U, double tolerance) {
  int first_bad = std::numeric_limits<int>::max();  // the reducer's identity: no bad row
  Kokkos::parallel_reduce("ppl::ilu0::parallel_check", Kokkos::RangePolicy<sparse_space>(0, A.numRows()),
                          factor_check{A.graph.row_map, A.values, L.row_map, U.row_map, L.values, U.values, tolerance},
                          Kokkos::Min<int>(first_bad));
  return std::min(first_bad, A.numRows());
}

jacobi_triangle::jacobi_triangle(const factor_csr& T, int n, bool lower, bool unit, int sweeps, vector_view scratch)
    : T_(T), n_(n), lower_(lower), unit_(unit), sweeps_(sweeps), scratch_(std::move(scratch)) {
  const double off_diagonal = n > 0 ? static_cast<double>(T.entries.extent(0)) / n - 1.0 : 0.0;
  lanes_ = lanes_for(off_diagonal);
  rows_per_team_ = vector_rows_per_team(lanes_, !host_memory);
  if (unit) return;
  inverse_diagonal_ = vector_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("ppl::ilu0::dinv")), n);
  advise_huge_pages(inverse_diagonal_);
  Kokkos::parallel_for("ppl::ilu0::inverse_diagonal", Kokkos::RangePolicy<sparse_space>(0, n),
                       inverse_diagonal_of{T.row_map, T.values, inverse_diagonal_, lower});
}

void jacobi_triangle::solve(const_vector_view b, vector_view x, int sweeps) const {
  auto dinv = inverse_diagonal_;
  if (sweeps == 0) {
    if (unit_) {
      Kokkos::deep_copy(sparse_space(), x, b);
    } else {
      Kokkos::parallel_for("ppl::ilu0::jacobi_diagonal", Kokkos::RangePolicy<sparse_space>(0, n_),
                           diagonal_solve{dinv, b, x});
    }
    return;
  }
  // Sweep k of s writes x when s - k is even, else the scratch vector, so the last one lands in x.
  auto target = [&](int k) { return (sweeps - k) % 2 == 0 ? x : scratch_; };
  auto run = [&](auto first_sweep, const const_vector_view& from, const vector_view& to) {
    constexpr bool first = decltype(first_sweep)::value;
    auto go = [&](auto unit_tag) {
      constexpr bool unit = decltype(unit_tag)::value;
      launch_rows(
          "ppl::ilu0::jacobi_sweep", n_, lanes_, rows_per_team_,
          jacobi_sweep<unit, first>{T_.row_map, T_.entries, T_.values, dinv, b, from, to, n_, rows_per_team_, lower_});
    };
    if (unit_)
      go(std::true_type{});
    else
      go(std::false_type{});
  };
  run(std::true_type{}, b, target(1));
  for (int k = 2; k <= sweeps; ++k) run(std::false_type{}, target(k - 1), target(k));
}

double jacobi_triangle::last_sweep_ratio() const {
  vector_view b(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("ppl::ilu0::probe")), n_);
  vector_view x(std::string("ppl::ilu0::probe_x"), n_);
  const auto rows = Kokkos::RangePolicy<sparse_space>(0, n_);
  Kokkos::parallel_for(
      "ppl::ilu0::probe", rows, KOKKOS_LAMBDA(const int i) {
        // splitmix64 of the row: a fixed vector in [-1, 1) with no structure a factor could align with.
        std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        b(i) = static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
      });
  auto residual = [&]() {
    double r2 = 0;
    Kokkos::parallel_reduce("ppl::ilu0::probe_residual", rows, probe_residual{T_.row_map, T_.entries, T_.values, b, x},
                            r2);
    return std::sqrt(r2);
  };
  double before = residual();  // x = 0
  if (sweeps_ > 0) {
    solve(b, x, sweeps_ - 1);
    before = residual();
  }
  solve(b, x, sweeps_);
  const double after = residual();
  return before > 0 ? after / before : 0.0;
}

}  // namespace ppl::ilu0_detail
