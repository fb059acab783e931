// The spellings of ppl/core/kokkos_compat.hpp behave the same on every supported Kokkos.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <limits>

#include "ppl/core/kokkos_compat.hpp"

namespace {

// A max reduction through a user join(): Kokkos 3.4 silently falls back to `+=` when it does not recognise the
// join's signature, which would turn the maximum into a sum.
struct max_abs_functor {
  using value_type = double;
  Kokkos::View<const double*> x;
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = 0.0; }
  KOKKOS_INLINE_FUNCTION void join(PPL_KOKKOS_JOIN_VOLATILE value_type& dst,
                                   const PPL_KOKKOS_JOIN_VOLATILE value_type& src) const {
    dst = ppl::kmath::fmax(dst, src);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i, value_type& v) const {
    v = ppl::kmath::fmax(v, ppl::kmath::fabs(x(i)));
  }
};

struct nonfinite_functor {
  Kokkos::View<const double*> x;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& n) const {
    if (!ppl::kmath::isfinite(x(i))) ++n;
  }
};

}  // namespace

TEST(kokkos_compat, user_join_is_called) {
  const int n = 1000;
  Kokkos::View<double*> x("x", n);
  auto h = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n; ++i) h(i) = (i % 2 ? -1.0 : 1.0) * (i % 97);
  Kokkos::deep_copy(x, h);
  double m = -1;
  Kokkos::parallel_reduce("test::max_abs", n, max_abs_functor{x}, m);
  EXPECT_EQ(m, 96.0);
}

TEST(kokkos_compat, math_functions) {
  Kokkos::View<double*> x("x", 4);
  auto h = Kokkos::create_mirror_view(x);
  h(0) = 1.0;
  h(1) = std::numeric_limits<double>::infinity();
  h(2) = std::numeric_limits<double>::quiet_NaN();
  h(3) = -2.0;
  Kokkos::deep_copy(x, h);
  int bad = 0;
  Kokkos::parallel_reduce("test::nonfinite", 4, nonfinite_functor{x}, bad);
  EXPECT_EQ(bad, 2);
  EXPECT_EQ(ppl::kmath::sqrt(ppl::kmath::fabs(-16.0)), 4.0);
}
