// The bounded placement's kernels (bounded_placement.hpp, docs/ions.md).
#include "bounded_placement.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>

#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/potential/kernels/pair_terms.hpp"
#include "term_range.hpp"

namespace ppl::ions_detail {
namespace {

using policy_type = Kokkos::TeamPolicy<>;
using member = policy_type::member_type;
using scratch_space = Kokkos::DefaultExecutionSpace::scratch_memory_space;
using scratch_ints = Kokkos::View<int*, scratch_space, Kokkos::MemoryUnmanaged>;

constexpr float not_a_candidate = float_infinity;  // as the full pass: never below a best so far
// Blocks per team where a kernel visits every block (the first selection, finish): fewer atomics on the result.
constexpr int blocks_per_team = 8;
// Blocks the first-block kernel brings up to date, lowest bound first, before leaving the search for a candidate
// to the candidates kernel (all live blocks then): only blocks whose every allowed point was excluded by pending
// ions end a try without a candidate.
constexpr int first_tries = 8;

// How a team shares a block's points while it brings the block up to date: each thread owns ni x nj x nk of them.
// On a GPU 128 threads own a quarter column each (4 points along z sharing dx^2 + dy^2, the first sum of r^2);
// on the host one thread owns the block, its rows of 8 points innermost.
constexpr bool host_layout = Kokkos::SpaceAccessibility<Kokkos::DefaultExecutionSpace, Kokkos::HostSpace>::accessible;
struct layout {
  static constexpr int threads = host_layout ? 1 : 128;
  static constexpr int ni = host_layout ? block_edge : 1, nj = host_layout ? block_edge : 1,
                       nk = block_points / threads / (ni * nj);
  // Per thread: blocks the bounds and candidates kernels look at.
  static constexpr int checks = host_layout ? 256 : 1;
  static constexpr int bound_threads = host_layout ? 1 : 256;
};
static_assert(layout::ni * layout::nj * layout::nk * layout::threads == block_points, "a block's points, each once");

// Pending ions go through team scratch in chunks: a thread reads an ion's coordinates, charge and sphere box
// there (half = -1 when the sphere's box misses the block) rather than from global memory.
struct staged_ion {
  float x, y, z, q;
  int ci, cj, ck, half;
};
constexpr int stage_chunk = 64;

policy_type block_policy(int league, std::size_t extra_scratch = 0) {
  policy_type p(league, layout::threads);
  p.set_scratch_size(
      0, Kokkos::PerTeam(Kokkos::View<staged_ion*, scratch_space, Kokkos::MemoryUnmanaged>::shmem_size(stage_chunk) +
                         extra_scratch + 64));  // 64: the second allocation's alignment
  return p;
}

// Whether the exclusion sphere covers every point of the box: its farthest corner, by the sphere's own float64
// test (monotone in each |offset|), with a margin of 1e-12 relative for a differently rounded compiler.
KOKKOS_INLINE_FUNCTION bool covers_box(const exclusion_sphere& e, const int lo[3], const int hi[3]) {
  if (e.half < 0) return false;
  const int c[3] = {e.ci, e.cj, e.ck};
  double far[3];
  for (int a = 0; a < 3; ++a) {
    if (iabs(lo[a] - c[a]) > e.half || iabs(hi[a] - c[a]) > e.half) return false;
    far[a] = dmax(dabs(e.axis(lo[a], c[a])), dabs(e.axis(hi[a], c[a])));
  }
  return far[0] * far[0] + far[1] * far[1] + far[2] * far[2] < e.d2max * (1 - 1e-12);
}

// Whether the box of the sphere (the points within `half` of its centre per axis) meets the block's box.
KOKKOS_INLINE_FUNCTION bool meets_box(const staged_ion& s, const int lo[3], const int hi[3]) {
  return s.half >= 0 && s.ci + s.half >= lo[0] && s.ci - s.half <= hi[0] && s.cj + s.half >= lo[1] &&
         s.cj - s.half <= hi[1] && s.ck + s.half >= lo[2] && s.ck - s.half <= hi[2];
}

template <class Term>
struct block_kernels {
  spatial::lattice_shape shape;
  int nbx = 1, nby = 1, nblocks = 1;
  potential_view map;
  Kokkos::View<std::uint8_t*> mask;
  Kokkos::View<ion_record*> ions;
  Kokkos::View<block_state*> states;
  Kokkos::View<double*> bound;
  Kokkos::View<choice_key*> control;
  Term term;

  KOKKOS_INLINE_FUNCTION void box(int b, int lo[3], int hi[3]) const {
    const int g[3] = {b % nbx, (b / nbx) % nby, b / (nbx * nby)}, n[3] = {shape.nx, shape.ny, shape.nz};
    for (int a = 0; a < 3; ++a) lo[a] = g[a] * block_edge, hi[a] = imin(lo[a] + block_edge - 1, n[a] - 1);
  }

  // Block b brought up to date with the first `placed` ions: each point gets the pending ions in placement order
  // (add_ion_term, the full pass's update, bit for bit) and leaves the mask inside their spheres; the block's
  // extremes are taken anew. Returns, on every thread, the lowest key of next_q x v over its allowed points
  // (no_choice without `select`). `stage` is the team's scratch for stage_chunk ions.
  template <class Stage>
  KOKKOS_INLINE_FUNCTION choice_key update(const member& team, const Stage& stage, int b, int placed, bool select,
                                           float next_q) const {
    constexpr int ni = layout::ni, nj = layout::nj, nk = layout::nk;
    int lo[3], hi[3];
    box(b, lo, hi);
    const int applied = states(b).applied;
    const int t = team.team_rank();
    // The thread's points: i in o[0] + [0, ni), j in o[1] + [0, nj), k in o[2] + [0, nk).
    const int o[3] = {lo[0] + (ni == block_edge ? 0 : t % block_edge),
                      lo[1] + (nj == block_edge ? 0 : (t / block_edge) % block_edge),
                      lo[2] + (t / (block_edge * block_edge)) * nk};
    float v[nk][nj][ni], fx[ni], fy[nj], fz[nk];
    std::uint8_t a[nk][nj][ni], was[nk][nj][ni];
    for (int ii = 0; ii < ni; ++ii) fx[ii] = shape.coord(o[0] + ii);
    for (int jj = 0; jj < nj; ++jj) fy[jj] = shape.coord(o[1] + jj);
    for (int kk = 0; kk < nk; ++kk) fz[kk] = shape.coord(o[2] + kk);
    for (int kk = 0; kk < nk; ++kk)
      for (int jj = 0; jj < nj; ++jj)
        for (int ii = 0; ii < ni; ++ii) {
          const int i = o[0] + ii, j = o[1] + jj, k = o[2] + kk;
          const bool in = i <= hi[0] && j <= hi[1] && k <= hi[2];
          const int idx = (k * shape.ny + j) * shape.nx + i;
          v[kk][jj][ii] = in ? map(idx) : 0.0f;
          a[kk][jj][ii] = was[kk][jj][ii] = in ? mask(idx) : 0;  // outside the lattice: never allowed
        }
    for (int n0 = applied; n0 < placed; n0 += stage_chunk) {
      const int m = imin(stage_chunk, placed - n0);
      team.team_barrier();  // the last chunk is read by every thread before it is overwritten
      for (int c = t; c < m; c += team.team_size()) {
        const ion_record& r = ions(n0 + c);
        staged_ion si{r.x, r.y, r.z, r.q, r.sphere.ci, r.sphere.cj, r.sphere.ck, r.sphere.half};
        if (!meets_box(si, lo, hi)) si.half = -1;  // no point of the block in the sphere's box: no test
        stage(c) = si;
      }
      team.team_barrier();
      for (int c = 0; c < m; ++c) {
        const staged_ion s = stage(c);
        for (int kk = 0; kk < nk; ++kk) {
          const float dz = fz[kk] - s.z;
          for (int jj = 0; jj < nj; ++jj) {
            const float dy = fy[jj] - s.y;
            for (int ii = 0; ii < ni; ++ii)
              v[kk][jj][ii] = add_ion_term(term, v[kk][jj][ii], s.q, fx[ii] - s.x, dy, dz);
          }
        }
        if (s.half >= 0) {  // the same for the whole team
          const exclusion_sphere e = ions(n0 + c).sphere;
          for (int kk = 0; kk < nk; ++kk)
            for (int jj = 0; jj < nj; ++jj)
              for (int ii = 0; ii < ni; ++ii)
                if (a[kk][jj][ii] && e.excludes(o[0] + ii, o[1] + jj, o[2] + kk)) a[kk][jj][ii] = 0;
        }
      }
    }
    choice_key best = no_choice;
    std::uint32_t vlo = ~0u, vhi = 0u;  // ordered bits of the extremes; these: none
    for (int kk = 0; kk < nk; ++kk)
      for (int jj = 0; jj < nj; ++jj)
        for (int ii = 0; ii < ni; ++ii) {
          const int i = o[0] + ii, j = o[1] + jj, k = o[2] + kk;
          if (i > hi[0] || j > hi[1] || k > hi[2]) continue;
          const int idx = (k * shape.ny + j) * shape.nx + i;
          const float x = v[kk][jj][ii];
          if (applied < placed) map(idx) = x;
          if (a[kk][jj][ii] != was[kk][jj][ii]) mask(idx) = a[kk][jj][ii];
          if (!a[kk][jj][ii]) continue;
          if (x == x) {
            const std::uint32_t ob = ordered_bits(x);
            vlo = ob < vlo ? ob : vlo;
            vhi = ob > vhi ? ob : vhi;
          }
          const float score = next_q * x;
          if (select && score < not_a_candidate) {
            const choice_key key = make_key(score, idx);
            best = key < best ? key : best;
          }
        }
    // A barrier after each reduction: consecutive reductions of one type share their scratch on CUDA.
    team.team_reduce(Kokkos::Min<choice_key>(best));
    team.team_barrier();
    team.team_reduce(Kokkos::Min<std::uint32_t>(vlo));
    team.team_barrier();
    team.team_reduce(Kokkos::Max<std::uint32_t>(vhi));
    team.team_barrier();
    if (t == 0) {
      block_state& st = states(b);
      st.live = vlo != ~0u;
      st.vmin = st.live ? from_ordered_bits(vlo) : not_a_candidate;
      st.vmax = st.live ? from_ordered_bits(vhi) : -not_a_candidate;
      st.applied = placed;
      st.inexact = 0;
      st.pend_lo = st.pend_hi = st.pend_abs = 0;
    }
    team.team_barrier();  // the state is written before any thread reads it again
    return best;
  }

  KOKKOS_INLINE_FUNCTION Kokkos::View<staged_ion*, scratch_space, Kokkos::MemoryUnmanaged> stage(
      const member& team) const {
    return Kokkos::View<staged_ion*, scratch_space, Kokkos::MemoryUnmanaged>(team.team_scratch(0), stage_chunk);
  }

  // The best key so far (other teams lower it while a kernel runs: any value read is a valid threshold).
  KOKKOS_INLINE_FUNCTION choice_key best_so_far() const {
    return *reinterpret_cast<volatile const choice_key*>(&control(1));
  }
  // The lowest key a point of block b can have: its score is at least the bound (rounded down to a float), its
  // index at least that of the block's first point. A block whose lowest key is not below the best key cannot
  // improve on it, ties included (keys order equal scores by index).
  KOKKOS_INLINE_FUNCTION choice_key lowest_key(int b) const {
    int lo[3], hi[3];
    box(b, lo, hi);
    return make_key(float_below(bound(b)), (lo[2] * shape.ny + lo[1]) * shape.nx + lo[0]);
  }
};

// Every block (blocks_per_team a team) brought up to date with `placed` ions, with or without the key of next_q.
template <class Term>
struct bounded_every_block {
  block_kernels<Term> k;
  int placed;
  bool select;
  float next_q;
  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const auto stage = k.stage(team);
    choice_key best = no_choice;
    const int b0 = team.league_rank() * blocks_per_team;
    for (int b = b0; b < b0 + blocks_per_team && b < k.nblocks; ++b) {
      if (!select && k.states(b).applied == placed) continue;
      const choice_key key = k.update(team, stage, b, placed, select, next_q);
      best = key < best ? key : best;
    }
    if (select && team.team_rank() == 0 && best != no_choice) Kokkos::atomic_fetch_min(&k.control(1), best);
  }
};

// 1. Per block: the ion just placed joins the pending sums, or the block dies inside its sphere; then the lower
// bound of the next ion's score, and the lowest bound's key into control(0).
template <class Term>
struct bounded_bounds {
  block_kernels<Term> k;
  ion_record ion;
  int ion_number, placed;
  float next_q;
  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int first = (team.league_rank() * team.team_size() + team.team_rank()) * layout::checks;
    if (first == 0) {
      k.ions(ion_number) = ion;  // read by the next kernels only
      k.control(2) = 0;
    }
    choice_key key = no_choice;
    for (int b = first; b < first + layout::checks && b < k.nblocks; ++b) {
      if (!k.states(b).live) continue;
      block_state& s = k.states(b);
      int lo[3], hi[3];
      k.box(b, lo, hi);
      if (covers_box(ion.sphere, lo, hi)) {
        s.live = 0;
        continue;
      }
      const int c[3] = {ion.sphere.ci, ion.sphere.cj, ion.sphere.ck};
      const float ic[3] = {ion.x, ion.y, ion.z};
      const value_range t = ion_term_range(k.term, ion.q, box_r2(lo, hi, c, ic, k.shape.h));
      s.pend_lo += t.lo;
      s.pend_hi += t.hi;
      s.pend_abs += dmax(dabs(t.lo), dabs(t.hi));
      s.inexact += !(t.lo == 0 && t.hi == 0);
      const double lb = score_lower_bound(s, next_q);
      k.bound(b) = lb;
      const choice_key own = make_key(float_below(lb), b);
      key = own < key ? own : key;
    }
    team.team_reduce(Kokkos::Min<choice_key>(key));
    if (team.team_rank() == 0 && key != no_choice) Kokkos::atomic_fetch_min(&k.control(0), key);
  }
};

// 2. One team: the block of the lowest bound brought up to date, its best key into control(1). Should none of its
// points be allowed any more, the next lowest bound's block, up to first_tries blocks.
template <class Term>
struct bounded_first {
  block_kernels<Term> k;
  int placed;
  float next_q;
  KOKKOS_INLINE_FUNCTION int lowest_bound_block(const member& team) const {
    choice_key key = no_choice;
    for (int b = team.team_rank(); b < k.nblocks; b += team.team_size()) {
      const block_state& s = k.states(b);
      if (s.live && s.applied < placed) {
        const choice_key c = make_key(float_below(k.bound(b)), b);
        key = c < key ? c : key;
      }
    }
    team.team_reduce(Kokkos::Min<choice_key>(key));
    team.team_barrier();
    return key == no_choice ? -1 : int(key & 0xffffffffu);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const auto stage = k.stage(team);
    const choice_key lowest = k.control(0);
    team.team_barrier();
    if (team.team_rank() == 0) k.control(0) = no_choice;  // ready for the next ion's bounds
    int b = lowest == no_choice ? -1 : int(lowest & 0xffffffffu);
    choice_key best = no_choice;
    int count = 0;
    for (int tries = 1; b >= 0; ++tries) {
      const choice_key key = k.update(team, stage, b, placed, true, next_q);
      ++count;
      best = key < best ? key : best;
      if (best != no_choice || tries == first_tries) break;
      b = lowest_bound_block(team);
    }
    if (team.team_rank() == 0) {
      k.control(1) = best;
      k.control(2) += count;
    }
  }
};

// 3. Per block: a candidate when its lowest possible key is below the best key so far; a team's candidates are
// then brought up to date one after the other, their keys joining control(1).
template <class Term>
struct bounded_candidates {
  block_kernels<Term> k;
  int placed;
  float next_q;
  static constexpr int per_team = layout::threads * layout::checks;
  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const auto stage = k.stage(team);
    scratch_ints list(team.team_scratch(0), per_team + 1);
    if (team.team_rank() == 0) list(0) = 0;
    team.team_barrier();
    const int first = team.league_rank() * per_team + team.team_rank() * layout::checks;
    const choice_key best0 = k.best_so_far();
    for (int b = first; b < first + layout::checks && b < k.nblocks; ++b) {
      const block_state& s = k.states(b);
      if (s.live && s.applied < placed && k.lowest_key(b) < best0) list(1 + Kokkos::atomic_fetch_add(&list(0), 1)) = b;
    }
    team.team_barrier();
    const int n = list(0);
    int count = 0;
    for (int m = 0; m < n; ++m) {
      const int c = list(1 + m);
      // The best key may have dropped since (other teams): one thread reads it, so the team agrees.
      choice_key best = 0;
      if (team.team_rank() == 0) best = k.best_so_far();
      team.team_broadcast(best, 0);
      if (!(k.lowest_key(c) < best)) continue;
      const choice_key key = k.update(team, stage, c, placed, true, next_q);
      ++count;
      if (team.team_rank() == 0 && key != no_choice) Kokkos::atomic_fetch_min(&k.control(1), key);
    }
    if (team.team_rank() == 0 && count) Kokkos::atomic_fetch_add(&k.control(2), choice_key(count));
  }
};

template <class F>
void with_term(const interaction& pair, F&& f) {
  if (pair.is_cutoff())
    kernels::with_cutoff_term(pair, f);
  else
    f(kernels::coulomb_term{});
}

}  // namespace

bounded_placement::bounded_placement(ion_placer& placer, potential_view map)
    : grid_(placer.grid()), pair_(placer.pair()), map_(map), allowed_(placer.allowed()) {
  const auto shape = grid_.shape();
  if (std::int64_t(map.extent(0)) != shape.size())
    throw error(exit_code::failure, "bounded placement: the map does not have the lattice's size");
  const int n[3] = {shape.nx, shape.ny, shape.nz};
  for (int a = 0; a < 3; ++a) nb_[a] = (n[a] + block_edge - 1) / block_edge;
  states_ =
      Kokkos::View<block_state*>(Kokkos::view_alloc(std::string("ppl::ions::bounded::states")), std::size_t(blocks()));
  bound_ = Kokkos::View<double*>(Kokkos::view_alloc(std::string("ppl::ions::bounded::bound")), std::size_t(blocks()));
  ions_ = Kokkos::View<ion_record*>(Kokkos::view_alloc(std::string("ppl::ions::bounded::ions")), 256);
  control_ = Kokkos::View<choice_key*>(Kokkos::view_alloc(std::string("ppl::ions::bounded::control")), 4);
  Kokkos::deep_copy(control_, no_choice);
}

namespace {

template <class Term>
block_kernels<Term> make_kernels(const lattice& g, const int nb[3], potential_view map,
                                 Kokkos::View<std::uint8_t*> mask, Kokkos::View<ion_record*> ions,
                                 Kokkos::View<block_state*> states, Kokkos::View<double*> bound,
                                 Kokkos::View<choice_key*> control, const Term& term) {
  block_kernels<Term> k;
  k.shape = g.shape();
  k.nbx = nb[0], k.nby = nb[1], k.nblocks = nb[0] * nb[1] * nb[2];
  k.map = map, k.mask = mask, k.ions = ions, k.states = states, k.bound = bound, k.control = control;
  k.term = term;
  return k;
}

}  // namespace

ion_choice bounded_placement::read_result() {
  auto host = Kokkos::create_mirror_view(Kokkos::HostSpace(), Kokkos::subview(control_, std::make_pair(1, 3)));
  Kokkos::deep_copy(host, Kokkos::subview(control_, std::make_pair(1, 3)));
  last_blocks_ = std::int64_t(host(1));
  return to_choice(host(0));
}

ion_choice bounded_placement::select(float q) {
  if (placed_ != 0) throw error(exit_code::failure, "bounded placement: select() comes before the first ion");
  Kokkos::deep_copy(control_, no_choice);
  const int league = int((blocks() + blocks_per_team - 1) / blocks_per_team);
  with_term(pair_, [&](auto term) {
    const auto k = make_kernels(grid_, nb_, map_, allowed_, ions_, states_, bound_, control_, term);
    Kokkos::parallel_for("ppl::ions::bounded::select", block_policy(league),
                         bounded_every_block<decltype(term)>{k, 0, true, q});
  });
  const ion_choice c = read_result();
  last_blocks_ = blocks();
  return c;
}

ion_choice bounded_placement::add_ion(int index, float q, double exclusion, const float* next_q) {
  const auto shape = grid_.shape();
  if (index < 0 || index >= shape.size()) throw error(exit_code::failure, "bounded placement: no such point");
  const int k = placed_;
  if (std::size_t(k) >= ions_.extent(0)) Kokkos::resize(ions_, 2 * ions_.extent(0));
  ion_record rec;
  rec.sphere = make_sphere(shape, grid_.spacing, index, exclusion);
  rec.x = shape.coord(rec.sphere.ci), rec.y = shape.coord(rec.sphere.cj), rec.z = shape.coord(rec.sphere.ck);
  rec.q = q;
  placed_ = k + 1;
  if (!next_q) {
    auto ions = ions_;
    Kokkos::parallel_for(
        "ppl::ions::bounded::record", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(int) { ions(k) = rec; });
    finish();
    return {};
  }
  const float nq = *next_q;
  const int placed = placed_, nblocks = int(blocks());
  with_term(pair_, [&](auto term) {
    using T = decltype(term);
    const auto kr = make_kernels(grid_, nb_, map_, allowed_, ions_, states_, bound_, control_, term);
    const int per_bound_team = layout::bound_threads * layout::checks;
    Kokkos::parallel_for("ppl::ions::bounded::bounds",
                         policy_type((nblocks + per_bound_team - 1) / per_bound_team, layout::bound_threads),
                         bounded_bounds<T>{kr, rec, k, placed, nq});
    Kokkos::parallel_for("ppl::ions::bounded::first", block_policy(1), bounded_first<T>{kr, placed, nq});
    constexpr int per_team = bounded_candidates<T>::per_team;
    Kokkos::parallel_for("ppl::ions::bounded::candidates",
                         block_policy((nblocks + per_team - 1) / per_team, scratch_ints::shmem_size(per_team + 1)),
                         bounded_candidates<T>{kr, placed, nq});
  });
  return read_result();
}

void bounded_placement::finish() {
  Kokkos::fence();
  const auto t0 = std::chrono::steady_clock::now();
  auto states = states_;
  const int placed = placed_;
  std::int64_t stale = 0;
  Kokkos::parallel_reduce(
      "ppl::ions::bounded::count_stale", Kokkos::RangePolicy<>(0, int(blocks())),
      KOKKOS_LAMBDA(int b, std::int64_t& sum) { sum += states(b).applied < placed; }, stale);
  const int league = int((blocks() + blocks_per_team - 1) / blocks_per_team);
  with_term(pair_, [&](auto term) {
    const auto k = make_kernels(grid_, nb_, map_, allowed_, ions_, states_, bound_, control_, term);
    Kokkos::parallel_for("ppl::ions::bounded::finish", block_policy(league),
                         bounded_every_block<decltype(term)>{k, placed_, false, 0.0f});
  });
  Kokkos::fence();
  last_blocks_ = stale;
  finish_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<block_state> bounded_placement::states() const {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), states_);
  return std::vector<block_state>(host.data(), host.data() + host.extent(0));
}

}  // namespace ppl::ions_detail
