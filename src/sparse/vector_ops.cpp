// The Krylov vector kernels (see include/ppl/sparse/vector_ops.hpp). Functors with explicit members (CUDA-safe);
// reductions are fixed-size sums written straight into the device scalar slots without a fence: on the host by
// Kokkos' range reduction, on a GPU by reduce_items below.
//
// Each work item handles a run of elements and evaluates its coefficients (a division, and a square root for a
// guarded one) once for the run, not per element: per element they would cost about as much as the memory traffic
// on a CPU core and a sizeable fraction of it on a GPU. On the host a run is contiguous (256 elements); on a GPU
// an item takes 4 elements strided by the number of items, so the loads of a warp stay coalesced.
#include "ppl/sparse/vector_ops.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>

#include "ppl/core/kokkos_compat.hpp"

namespace ppl::vec {
namespace {

constexpr bool on_host = std::is_same<sparse_space::memory_space, Kokkos::HostSpace>::value;
constexpr int per_item = on_host ? 256 : 4;

// Elements whose loads a full run issues before any of their results is stored. A store through one View may
// alias a later load through another as far as the compiler knows, so a loop that loads, computes and stores
// element by element keeps one element's loads in flight per thread; loading a chunk first keeps `chunk` of them.
// On a GPU that is what a bandwidth-bound kernel needs (Kokkos 3.4 runs a range reduction on at most 256 blocks of
// 256 threads, too few to hide the memory latency one load at a time); on the host it lets the compiler vectorise.
constexpr int chunk = on_host ? 8 : per_item;
static_assert(per_item % chunk == 0, "a run is made of whole chunks");

// Which elements work item w handles: element(w, k) for k < per_item, those < n. full(w): all of them are < n (every
// item but the last few), so the run needs no per-element bound test.
struct runs {
  int n = 0, items = 0;
  explicit runs(std::size_t size) : n(static_cast<int>(size)), items((n + per_item - 1) / per_item) {}
  KOKKOS_INLINE_FUNCTION int element(int w, int k) const { return on_host ? w * per_item + k : w + k * items; }
  KOKKOS_INLINE_FUNCTION bool full(int w) const { return element(w, per_item - 1) < n; }
  template <class Space>
  Kokkos::RangePolicy<Space> policy(const Space& space) const {
    return Kokkos::RangePolicy<Space>(space, 0, items);
  }
};

// Runs item w's elements through load(k, i) (fetch element i into register slot k) and step(k, i) (compute and
// store it) in increasing element order, so sums accumulate in the same order on both paths: a full run chunk by
// chunk, every load of a chunk before its first step; the tail element by element.
template <class Load, class Step>
KOKKOS_FORCEINLINE_FUNCTION void for_run(const runs& e, const int w, const Load& load, const Step& step) {
  if (e.full(w)) {
    for (int c0 = 0; c0 < per_item; c0 += chunk) {
      for (int k = 0; k < chunk; ++k) load(k, e.element(w, c0 + k));
      for (int k = 0; k < chunk; ++k) step(k, e.element(w, c0 + k));
    }
  } else {
    for (int k = 0; k < per_item; ++k) {
      const int i = e.element(w, k);
      if (i >= e.n) break;
      load(0, i);
      step(0, i);
    }
  }
}

// N sums as one fixed-size value: Kokkos (3.4, CUDA) reduces a value of static size with warp shuffles in
// registers, where a run-time-sized array reduction (value_type = double[]) goes
// through shared memory per thread and took most of an iteration's dot time on the H200.
template <int N>
struct sums {
  double v[N];
};

template <int N>
struct sum_reduction {
  using value_type = sums<N>;

  KOKKOS_INLINE_FUNCTION void init(value_type& t) const {
    for (int k = 0; k < N; ++k) t.v[k] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(PPL_KOKKOS_JOIN_VOLATILE value_type& dst,
                                   const PPL_KOKKOS_JOIN_VOLATILE value_type& src) const {
    for (int k = 0; k < N; ++k) dst.v[k] += src.v[k];
  }
};

// The result of an N-sum reduction: slots [slot, slot + N) of the device scalars, as one value.
template <int N>
Kokkos::View<sums<N>, sparse_space::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> result(scalar_view s,
                                                                                                  int slot) {
  static_assert(sizeof(sums<N>) == N * sizeof(double), "slots are consecutive doubles");
  return Kokkos::View<sums<N>, sparse_space::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
      reinterpret_cast<sums<N>*>(s.data() + slot));
}

struct dots3_functor : sum_reduction<3> {
  runs e;
  const_vector_view a, b;
  dots3_functor(runs e_, const_vector_view a_, const_vector_view b_) : e(e_), a(a_), b(b_) {}
  KOKKOS_INLINE_FUNCTION void operator()(const int w, value_type& v) const {
    double ab = 0, aa = 0, bb = 0;
    double av[chunk] = {}, bv[chunk] = {};
    for_run(
        e, w,
        [&](int k, int i) {
          av[k] = a(i);
          bv[k] = b(i);
        },
        [&](int k, int) {
          ab += av[k] * bv[k];
          aa += av[k] * av[k];
          bb += bv[k] * bv[k];
        });
    v.v[0] += ab;
    v.v[1] += aa;
    v.v[2] += bb;
  }
};

struct axpby_functor {
  runs e;
  dev_coef a, b;
  const_vector_view x;
  vector_view y;
  const double* s;
  const_vector_view d;  // empty: no fused Jacobi
  vector_view dy;
  KOKKOS_INLINE_FUNCTION void operator()(const int w) const {
    const double ca = a.eval(s), cb = b.eval(s);
    const bool jacobi = d.data() != nullptr;
    double xv[chunk] = {}, yv[chunk] = {}, dv[chunk] = {};
    for_run(
        e, w,
        [&](int k, int i) {
          xv[k] = x(i);
          // b = 0 must not read y (it may hold garbage, e.g. a fresh allocation's NaN)
          if (cb != 0.0) yv[k] = y(i);
          if (jacobi) dv[k] = d(i);
        },
        [&](int k, int i) {
          const double yi = cb == 0.0 ? ca * xv[k] : ca * xv[k] + cb * yv[k];
          y(i) = yi;
          if (jacobi) dy(i) = dv[k] * yi;
        });
  }
};

struct axpbypcz_functor {
  runs e;
  dev_coef a, b, c;
  const_vector_view x, y;
  vector_view z;
  const double* s;
  const_vector_view d;  // empty: no fused Jacobi
  vector_view dz;
  KOKKOS_INLINE_FUNCTION void operator()(const int w) const {
    const double ca = a.eval(s), cb = b.eval(s), cc = c.eval(s);
    const bool jacobi = d.data() != nullptr;
    double xv[chunk] = {}, yv[chunk] = {}, zv[chunk] = {}, dv[chunk] = {};
    for_run(
        e, w,
        [&](int k, int i) {
          xv[k] = x(i);
          yv[k] = y(i);
          if (cc != 0.0) zv[k] = z(i);
          if (jacobi) dv[k] = d(i);
        },
        [&](int k, int i) {
          const double zi = cc == 0.0 ? ca * xv[k] + cb * yv[k] : ca * xv[k] + cb * yv[k] + cc * zv[k];
          z(i) = zi;
          if (jacobi) dz(i) = dv[k] * zi;
        });
  }
};

// z = d .* (x + b y) + c z: BiCGSTAB's direction update with Jacobi, kept as p_hat = D^-1 p only (p itself is never
// needed again: p_hat' = D^-1 (r + beta (p - omega v)) = D^-1 (r - beta omega v) + beta p_hat). c = 0 does not
// read z.
struct scaled_axpy_pcz_functor {
  runs e;
  dev_coef b, c;
  const_vector_view x, y, d;
  vector_view z;
  const double* s;
  KOKKOS_INLINE_FUNCTION void operator()(const int w) const {
    const double cb = b.eval(s), cc = c.eval(s);
    double xv[chunk] = {}, yv[chunk] = {}, zv[chunk] = {}, dv[chunk] = {};
    for_run(
        e, w,
        [&](int k, int i) {
          xv[k] = x(i);
          yv[k] = y(i);
          dv[k] = d(i);
          if (cc != 0.0) zv[k] = z(i);
        },
        [&](int k, int i) {
          const double u = dv[k] * (xv[k] + cb * yv[k]);
          z(i) = cc == 0.0 ? u : u + cc * zv[k];
        });
  }
};

struct multiply_functor {
  const_vector_view d, x;
  vector_view z;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { z(i) = d(i) * x(i); }
};

struct xr_update_functor : sum_reduction<2> {
  runs e;
  dev_coef a, b, c;
  const_vector_view p, q, t, rh;
  vector_view x, r;
  const double* s;
  explicit xr_update_functor(runs e_) : e(e_) {}
  KOKKOS_INLINE_FUNCTION void operator()(const int w, value_type& v) const {
    const double ca = a.eval(s), cb = b.eval(s), cc = c.eval(s);
    double d0 = 0, d1 = 0;
    double pv[chunk] = {}, qv[chunk] = {}, xv[chunk] = {}, rv[chunk] = {}, tv[chunk] = {}, hv[chunk] = {};
    for_run(
        e, w,
        [&](int k, int i) {
          pv[k] = p(i);
          qv[k] = q(i);
          xv[k] = x(i);
          rv[k] = r(i);
          tv[k] = t(i);
          hv[k] = rh(i);
        },
        [&](int k, int i) {
          x(i) = xv[k] + (ca * pv[k] + cb * qv[k]);
          const double ri = rv[k] + cc * tv[k];
          r(i) = ri;
          d0 += hv[k] * ri;
          d1 += ri * ri;
        });
    v.v[0] += d0;
    v.v[1] += d1;
  }
};

struct bicg_update_functor : sum_reduction<3> {
  runs e;
  dev_coef a;
  const_vector_view p, q, qt;
  vector_view x, r, rt;
  const double* s;
  explicit bicg_update_functor(runs e_) : e(e_) {}
  KOKKOS_INLINE_FUNCTION void operator()(const int w, value_type& v) const {
    const double ca = a.eval(s);
    double d0 = 0, d1 = 0, d2 = 0;
    for (int k = 0; k < per_item; ++k) {
      const int i = e.element(w, k);
      if (i >= e.n) break;
      x(i) += ca * p(i);
      const double ri = r(i) - ca * q(i);
      const double rti = rt(i) - ca * qt(i);
      r(i) = ri;
      rt(i) = rti;
      d0 += ri * rti;
      d1 += ri * ri;
      d2 += rti * rti;
    }
    v.v[0] += d0;
    v.v[1] += d1;
    v.v[2] += d2;
  }
};

struct multi_dots_functor : sum_reduction<multi_dot_block> {
  runs e;
  basis_view V;
  int first, count;  // columns [first, first + count), count <= 8
  const_vector_view w;
  multi_dots_functor(runs e_, basis_view V_, int first_, int count_, const_vector_view w_)
      : e(e_), V(V_), first(first_), count(count_), w(w_) {}
  KOKKOS_INLINE_FUNCTION void operator()(const int item, value_type& v) const {
    double d[multi_dot_block] = {};
    for (int k = 0; k < per_item; ++k) {
      const int i = e.element(item, k);
      if (i >= e.n) break;
      const double wi = w(i);
      for (int c = 0; c < count; ++c) d[c] += V(i, first + c) * wi;
    }
    for (int c = 0; c < multi_dot_block; ++c) v.v[c] += d[c];
  }
};

// y -= V(:, 0..ncols) coef, then the dots of the result with columns [0, count) (count <= multi_dot_block): the
// combine and the first multi_dots block of a Gram-Schmidt pass, reading each row of V once.
struct combine_dots_functor : sum_reduction<multi_dot_block> {
  runs e;
  basis_view V;
  int ncols, count;
  const double* coef;  // s + slot
  vector_view y;
  combine_dots_functor(runs e_, basis_view V_, int ncols_, int count_, const double* coef_, vector_view y_)
      : e(e_), V(V_), ncols(ncols_), count(count_), coef(coef_), y(y_) {}
  KOKKOS_INLINE_FUNCTION void operator()(const int item, value_type& v) const {
    double d[multi_dot_block] = {};
    for (int k = 0; k < per_item; ++k) {
      const int i = e.element(item, k);
      if (i >= e.n) break;
      double sum = 0;
      for (int c = 0; c < ncols; ++c) sum += coef[c] * V(i, c);
      const double yi = y(i) - sum;
      y(i) = yi;
      for (int c = 0; c < count; ++c) d[c] += V(i, c) * yi;
    }
    for (int c = 0; c < multi_dot_block; ++c) v.v[c] += d[c];
  }
};

// y = b y + a V(:, 0..ncols) coef; with Norm also the sum of y_i^2 of the result.
struct no_reduction {};

template <bool Norm>
struct combine_functor : std::conditional<Norm, sum_reduction<1>, no_reduction>::type {
  runs e;
  basis_view V;
  int ncols;
  const double* coef;  // s + slot
  double a, b;
  vector_view y;
  combine_functor(runs e_, basis_view V_, int ncols_, const double* coef_, double a_, double b_, vector_view y_)
      : e(e_), V(V_), ncols(ncols_), coef(coef_), a(a_), b(b_), y(y_) {}
  KOKKOS_INLINE_FUNCTION double update(const int item) const {
    double yy = 0;
    for (int k = 0; k < per_item; ++k) {
      const int i = e.element(item, k);
      if (i >= e.n) break;
      double sum = 0;
      for (int c = 0; c < ncols; ++c) sum += coef[c] * V(i, c);
      const double yi = b == 0.0 ? a * sum : b * y(i) + a * sum;
      y(i) = yi;
      if (Norm) yy += yi * yi;
    }
    return yy;
  }
  template <bool N = Norm, typename std::enable_if<N, int>::type = 0>
  KOKKOS_INLINE_FUNCTION void operator()(const int item, sums<1>& v) const {
    v.v[0] += update(item);
  }
  template <bool N = Norm, typename std::enable_if<!N, int>::type = 0>
  KOKKOS_INLINE_FUNCTION void operator()(const int item) const {
    update(item);
  }
};

// --- reductions on a GPU ---
// Kokkos' own reductions are slow for these bandwidth-bound sums on the H200 (bench_vector_ops,
// perf/results/spmv-h200/probe): a range reduction (Kokkos 3.4) runs at most 256 blocks, 12.5% of the warps an SM can
// hold, so each thread walks a long chain of dependent loads (dots3 at 3M rows: 1.65 TB/s, 40% of copy); a team
// reduction with more teams lets the last block add the teams' partials with one warp, a global-memory round trip
// per 32 teams (dots3 with 4 teams per SM: 1.34 TB/s; with 8: 0.89). Here the teams of one wave (4 per SM, 64
// registers at most) stride over the items, each team writes its sums to a partial slot, and the last team to
// finish, found with an atomic counter, adds the partials with all its threads and writes the result slots.
constexpr int team_threads = 256;
constexpr int max_sums = multi_dot_block;  // the widest reduction (multi_dots' block of columns)
template <class Space>
using reduce_policy = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<team_threads, 4>>;
using reduce_member = reduce_policy<sparse_space>::member_type;

// The partial sums and the finishing counter: one workspace for the process, used by one reduction at a time (the
// kernels of the default execution space instance run in order); the counter is zero between reductions (the last
// team resets it). Released when Kokkos finalizes.
struct reduce_workspace {
  int teams = 0;
  Kokkos::View<double*> partials;  // teams x max_sums
  Kokkos::View<unsigned*> counter;
};
[[maybe_unused]] reduce_workspace& workspace() {
  static std::unique_ptr<reduce_workspace> w;
  if (!w) {
    w = std::make_unique<reduce_workspace>();
    // 4 teams per SM on CUDA, where concurrency() is 2048 threads per SM.
    w->teams = std::max(1, static_cast<int>(sparse_space().concurrency() / (2 * team_threads)));
    w->partials = Kokkos::View<double*>("ppl::vec::partials", static_cast<std::size_t>(w->teams) * max_sums);
    w->counter = Kokkos::View<unsigned*>("ppl::vec::counter", 1);  // zero-initialised
    Kokkos::push_finalize_hook([] { w.reset(); });
  }
  return *w;
}

// Every thread's v becomes the team's sums. One team_reduce per sum, each followed by a barrier: Kokkos 3.4 (CUDA)
// stages a team reduction in one static shared array and has no barrier before writing it, so a team_reduce that
// follows another could overwrite the first one's result before every thread has read it.
template <int N>
KOKKOS_INLINE_FUNCTION void team_sums(const reduce_member& m, sums<N>& v) {
  for (int c = 0; c < N; ++c) {
    m.team_reduce(Kokkos::Sum<double>(v.v[c]));
    m.team_barrier();
  }
}

template <int N, class F>
struct team_reduction {
  F f;
  int items;
  Kokkos::View<double*> partials;
  Kokkos::View<unsigned*> counter;
  double* out;
  KOKKOS_INLINE_FUNCTION void operator()(const reduce_member& m) const {
    sums<N> v;
    f.init(v);
    const int stride = m.league_size() * m.team_size();
    for (int w = m.league_rank() * m.team_size() + m.team_rank(); w < items; w += stride) f(w, v);
    team_sums(m, v);
    unsigned done = 0;
    Kokkos::single(
        Kokkos::PerTeam(m),
        [&](unsigned& d) {
          for (int c = 0; c < N; ++c) partials(m.league_rank() * max_sums + c) = v.v[c];
          Kokkos::memory_fence();  // the partials are visible before the count that tells the last team to read them
          d = Kokkos::atomic_fetch_add(&counter(0), 1u);
        },
        done);
    if (done + 1 != static_cast<unsigned>(m.league_size())) return;  // team-uniform
    Kokkos::memory_fence();
    const volatile double* all = partials.data();  // written by other multiprocessors: past the L1 cache
    for (int c = 0; c < N; ++c) {
      v.v[c] = 0;
      for (int i = m.team_rank(); i < m.league_size(); i += m.team_size()) v.v[c] += all[i * max_sums + c];
    }
    team_sums(m, v);
    Kokkos::single(Kokkos::PerTeam(m), [&]() {
      for (int c = 0; c < N; ++c) out[c] = v.v[c];
      counter(0) = 0;
    });
  }
};

// s[slot .. slot + N) = the sums of f over items [0, items) on `space`: Kokkos' range reduction on the host, the
// team reduction above on a GPU (its default space: a GPU build has no other).
template <int N, class F>
void reduce_items(const execution& space, const char* name, const runs& e, const F& f, scalar_view s, int slot) {
  static_assert(N <= max_sums, "partial slots per team");
  space.visit([&](const auto& ex) {
    if constexpr (on_host) {
      Kokkos::parallel_reduce(name, e.policy(ex), f, result<N>(s, slot));
    } else {
      using S = std::decay_t<decltype(ex)>;
      if (e.items == 0) {
        Kokkos::deep_copy(ex, Kokkos::subview(s, std::make_pair(slot, slot + N)), 0.0);
        return;
      }
      reduce_workspace& w = workspace();
      const int league = std::min(w.teams, (e.items + team_threads - 1) / team_threads);
      Kokkos::parallel_for(name, reduce_policy<S>(ex, league, team_threads),
                           team_reduction<N, F>{f, e.items, w.partials, w.counter, s.data() + slot});
    }
  });
}

// f over items [0, items) on `space`.
template <class F>
void for_items(const execution& space, const char* name, const runs& e, const F& f) {
  space.visit([&](const auto& ex) { Kokkos::parallel_for(name, e.policy(ex), f); });
}

struct dot_functor {
  const_vector_view a, b;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& sum) const { sum += a(i) * b(i); }
};

struct count_nonfinite_functor {
  const_vector_view x;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& n) const {
    if (!kmath::isfinite(x(i))) ++n;
  }
};

}  // namespace

double eval_on_host(const dev_coef& k, const double* s) {
  return k.eval(s);  // the device rule, compiled for the host
}

void dots3(const execution& space, const_vector_view a, const_vector_view b, scalar_view s, int slot) {
  const runs e(a.extent(0));
  reduce_items<3>(space, "ppl::vec::dots3", e, dots3_functor(e, a, b), s, slot);
}

void axpby(const execution& space, const dev_coef& a, const_vector_view x, const dev_coef& b, vector_view y,
           scalar_view s, const_vector_view d, vector_view dy) {
  const runs e(y.extent(0));
  for_items(space, "ppl::vec::axpby", e, axpby_functor{e, a, b, x, y, s.data(), d, dy});
}

void axpbypcz(const execution& space, const dev_coef& a, const_vector_view x, const dev_coef& b, const_vector_view y,
              const dev_coef& c, vector_view z, scalar_view s, const_vector_view d, vector_view dz) {
  const runs e(z.extent(0));
  for_items(space, "ppl::vec::axpbypcz", e, axpbypcz_functor{e, a, b, c, x, y, z, s.data(), d, dz});
}

void scaled_axpy_pcz(const execution& space, const_vector_view d, const_vector_view x, const dev_coef& b,
                     const_vector_view y, const dev_coef& c, vector_view z, scalar_view s) {
  const runs e(z.extent(0));
  for_items(space, "ppl::vec::scaled_axpy_pcz", e, scaled_axpy_pcz_functor{e, b, c, x, y, d, z, s.data()});
}

void multiply(const execution& space, const_vector_view d, const_vector_view x, vector_view z) {
  space.visit([&](const auto& ex) {
    using S = std::decay_t<decltype(ex)>;
    Kokkos::parallel_for("ppl::vec::multiply", Kokkos::RangePolicy<S>(ex, 0, z.extent(0)), multiply_functor{d, x, z});
  });
}

void xr_update_dots(const execution& space, const dev_coef& a, const_vector_view p, const dev_coef& b,
                    const_vector_view q, vector_view x, const dev_coef& c, const_vector_view t, vector_view r,
                    const_vector_view rh, scalar_view s, int slot) {
  xr_update_functor f(runs(x.extent(0)));
  f.a = a;
  f.b = b;
  f.c = c;
  f.p = p;
  f.q = q;
  f.t = t;
  f.rh = rh;
  f.x = x;
  f.r = r;
  f.s = s.data();
  reduce_items<2>(space, "ppl::vec::xr_update_dots", f.e, f, s, slot);
}

void bicg_update_dots(const execution& space, const dev_coef& a, const_vector_view p, const_vector_view q,
                      const_vector_view qt, vector_view x, vector_view r, vector_view rt, scalar_view s, int slot) {
  bicg_update_functor f(runs(x.extent(0)));
  f.a = a;
  f.p = p;
  f.q = q;
  f.qt = qt;
  f.x = x;
  f.r = r;
  f.rt = rt;
  f.s = s.data();
  reduce_items<3>(space, "ppl::vec::bicg_update_dots", f.e, f, s, slot);
}

namespace {
// multi_dots of the blocks of columns from `first` on.
void multi_dots_from(const execution& space, const basis_view& V, int first, int ncols, const_vector_view w,
                     scalar_view s, int slot) {
  const runs e(w.extent(0));
  for (; first < ncols; first += multi_dot_block) {
    const int count = ncols - first < multi_dot_block ? ncols - first : multi_dot_block;
    reduce_items<multi_dot_block>(space, "ppl::vec::multi_dots", e, multi_dots_functor(e, V, first, count, w), s,
                                  slot + first);
  }
}
}  // namespace

void multi_dots(const execution& space, const basis_view& V, int ncols, const_vector_view w, scalar_view s, int slot) {
  multi_dots_from(space, V, 0, ncols, w, s, slot);
}

void combine(const execution& space, const basis_view& V, int ncols, scalar_view s, int slot, double a, double b,
             vector_view y, int norm_slot) {
  const runs e(y.extent(0));
  if (norm_slot >= 0)
    reduce_items<1>(space, "ppl::vec::combine_norm", e, combine_functor<true>(e, V, ncols, s.data() + slot, a, b, y), s,
                    norm_slot);
  else
    for_items(space, "ppl::vec::combine", e, combine_functor<false>(e, V, ncols, s.data() + slot, a, b, y));
}

void combine_then_dots(const execution& space, const basis_view& V, int ncols, scalar_view s, int slot, vector_view y,
                       int dot_slot) {
  const runs e(y.extent(0));
  const int count = ncols < multi_dot_block ? ncols : multi_dot_block;
  reduce_items<multi_dot_block>(space, "ppl::vec::combine_then_dots", e,
                                combine_dots_functor(e, V, ncols, count, s.data() + slot, y), s, dot_slot);
  multi_dots_from(space, V, multi_dot_block, ncols, y, s, dot_slot);
}

bool all_finite(const execution& space, const_vector_view x) {
  int bad = 0;
  space.visit([&](const auto& ex) {
    using S = std::decay_t<decltype(ex)>;
    Kokkos::parallel_reduce("ppl::vec::all_finite", Kokkos::RangePolicy<S>(ex, 0, x.extent(0)),
                            count_nonfinite_functor{x}, bad);
  });
  return bad == 0;
}

double dot(const execution& space, const_vector_view a, const_vector_view b) {
  double sum = 0;
  space.visit([&](const auto& ex) {
    using S = std::decay_t<decltype(ex)>;
    Kokkos::parallel_reduce("ppl::vec::dot", Kokkos::RangePolicy<S>(ex, 0, a.extent(0)), dot_functor{a, b}, sum);
  });
  return sum;
}

void copy(const execution& space, vector_view dst, const_vector_view src) {
  space.visit([&](const auto& ex) { Kokkos::deep_copy(ex, dst, src); });
}

void fill(const execution& space, vector_view v, double value) {
  space.visit([&](const auto& ex) { Kokkos::deep_copy(ex, v, value); });
}

}  // namespace ppl::vec
