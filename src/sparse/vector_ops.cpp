// The Krylov vector kernels (see include/ppl/sparse/vector_ops.hpp). Functors with explicit members (CUDA-safe);
// reductions are array reductions written straight into the device scalar slots, which Kokkos does without a
// fence when the result View is device-accessible.
#include "ppl/sparse/vector_ops.hpp"

#include <cmath>

namespace ppl::vec {
namespace {

using policy = Kokkos::RangePolicy<sparse_space>;
using slot_view = Kokkos::View<double*, sparse_space::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

slot_view slots(scalar_view s, int slot, int count) {
  return slot_view(s.data() + slot, count);
}

// Array reduction of `N` sums; Derived::contribute(i, v) adds row i's share.
template <int N>
struct sum_reduction {
  using value_type = double[];
  using size_type = int;
  const size_type value_count = N;

  KOKKOS_INLINE_FUNCTION void init(value_type v) const {
    for (int k = 0; k < N; ++k) v[k] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (int k = 0; k < N; ++k) dst[k] += src[k];
  }
};

struct dots3_functor : sum_reduction<3> {
  const_vector_view a, b;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, value_type v) const {
    const double ai = a(i), bi = b(i);
    v[0] += ai * bi;
    v[1] += ai * ai;
    v[2] += bi * bi;
  }
};

struct axpby_functor {
  dev_coef a, b;
  const_vector_view x;
  vector_view y;
  const double* s;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const double ca = a.eval(s), cb = b.eval(s);
    // b = 0 must not read y (it may hold garbage, e.g. a fresh allocation's NaN)
    y(i) = cb == 0.0 ? ca * x(i) : ca * x(i) + cb * y(i);
  }
};

struct axpbypcz_functor {
  dev_coef a, b, c;
  const_vector_view x, y;
  vector_view z;
  const double* s;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const double ca = a.eval(s), cb = b.eval(s), cc = c.eval(s);
    z(i) = cc == 0.0 ? ca * x(i) + cb * y(i) : ca * x(i) + cb * y(i) + cc * z(i);
  }
};

struct multiply_functor {
  const_vector_view d, x;
  vector_view z;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { z(i) = d(i) * x(i); }
};

struct xr_update_functor : sum_reduction<2> {
  dev_coef a, b, c;
  const_vector_view p, q, t, rh;
  vector_view x, r;
  const double* s;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, value_type v) const {
    const double ca = a.eval(s), cb = b.eval(s), cc = c.eval(s);
    x(i) += ca * p(i) + cb * q(i);
    const double ri = r(i) + cc * t(i);
    r(i) = ri;
    v[0] += rh(i) * ri;
    v[1] += ri * ri;
  }
};

struct bicg_update_functor : sum_reduction<3> {
  dev_coef a;
  const_vector_view p, q, qt;
  vector_view x, r, rt;
  const double* s;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, value_type v) const {
    const double ca = a.eval(s);
    x(i) += ca * p(i);
    const double ri = r(i) - ca * q(i);
    const double rti = rt(i) - ca * qt(i);
    r(i) = ri;
    rt(i) = rti;
    v[0] += ri * rti;
    v[1] += ri * ri;
    v[2] += rti * rti;
  }
};

struct count_nonfinite_functor {
  const_vector_view x;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& n) const {
    if (!Kokkos::Experimental::isfinite(x(i))) ++n;
  }
};

}  // namespace

double eval_on_host(const dev_coef& k, const double* s) {
  auto at = [&](int i) { return i < 0 ? 1.0 : s[i]; };
  const double den = at(k.den0) * at(k.den1);
  const double lim = k.guard > 0 ? k.guard * std::sqrt(std::fabs(at(k.ref0) * at(k.ref1))) : 0.0;
  return std::fabs(den) > lim ? k.scale * at(k.num0) * at(k.num1) / den : 0.0;
}

void dots3(const_vector_view a, const_vector_view b, scalar_view s, int slot) {
  dots3_functor f;
  f.a = a;
  f.b = b;
  Kokkos::parallel_reduce("ppl::vec::dots3", policy(0, a.extent(0)), f, slots(s, slot, 3));
}

void axpby(const dev_coef& a, const_vector_view x, const dev_coef& b, vector_view y, scalar_view s) {
  Kokkos::parallel_for("ppl::vec::axpby", policy(0, y.extent(0)), axpby_functor{a, b, x, y, s.data()});
}

void axpbypcz(const dev_coef& a, const_vector_view x, const dev_coef& b, const_vector_view y, const dev_coef& c,
              vector_view z, scalar_view s) {
  Kokkos::parallel_for("ppl::vec::axpbypcz", policy(0, z.extent(0)), axpbypcz_functor{a, b, c, x, y, z, s.data()});
}

void multiply(const_vector_view d, const_vector_view x, vector_view z) {
  Kokkos::parallel_for("ppl::vec::multiply", policy(0, z.extent(0)), multiply_functor{d, x, z});
}

void xr_update_dots(const dev_coef& a, const_vector_view p, const dev_coef& b, const_vector_view q, vector_view x,
                    const dev_coef& c, const_vector_view t, vector_view r, const_vector_view rh, scalar_view s,
                    int slot) {
  xr_update_functor f;
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
  Kokkos::parallel_reduce("ppl::vec::xr_update_dots", policy(0, x.extent(0)), f, slots(s, slot, 2));
}

void bicg_update_dots(const dev_coef& a, const_vector_view p, const_vector_view q, const_vector_view qt, vector_view x,
                      vector_view r, vector_view rt, scalar_view s, int slot) {
  bicg_update_functor f;
  f.a = a;
  f.p = p;
  f.q = q;
  f.qt = qt;
  f.x = x;
  f.r = r;
  f.rt = rt;
  f.s = s.data();
  Kokkos::parallel_reduce("ppl::vec::bicg_update_dots", policy(0, x.extent(0)), f, slots(s, slot, 3));
}

bool all_finite(const_vector_view x) {
  int bad = 0;
  Kokkos::parallel_reduce("ppl::vec::all_finite", policy(0, x.extent(0)), count_nonfinite_functor{x}, bad);
  return bad == 0;
}

}  // namespace ppl::vec
