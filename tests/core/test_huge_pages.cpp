// make_large_view and advise_huge_pages (include/ppl/core/huge_pages.hpp): the advice must not change what a View
// holds, and make_large_view must give the zeros Kokkos' own initialisation would.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <vector>

#include "ppl/core/huge_pages.hpp"

namespace {

template <class View>
std::vector<double> host_copy(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + h.span());
}

TEST(huge_pages, large_views_start_at_zero_rank_1_and_2) {
  // Filled with garbage first: a fresh allocation of the same size may reuse those pages.
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t n = (std::size_t(6) << 20) / sizeof(double) + 3;  // above the advice threshold, not page-sized
    auto v = ppl::make_large_view<Kokkos::View<double*>>("test::v", n);
    ASSERT_EQ(v.extent(0), n);
    for (double x : host_copy(v)) ASSERT_EQ(x, 0.0);
    Kokkos::deep_copy(v, 7.0);
  }
  auto m = ppl::make_large_view<Kokkos::View<double**, Kokkos::LayoutLeft>>("test::m", 1001, 7);
  ASSERT_EQ(m.extent(0), 1001u);
  ASSERT_EQ(m.extent(1), 7u);
  for (double x : host_copy(m)) ASSERT_EQ(x, 0.0);
  auto small = ppl::make_large_view<Kokkos::View<double*>>("test::small", 3);
  for (double x : host_copy(small)) ASSERT_EQ(x, 0.0);
}

TEST(huge_pages, advice_keeps_contents_and_skips_what_it_cannot_use) {
  std::vector<double> small(100, 1.5);
  EXPECT_FALSE(ppl::advise_huge_pages(small.data(), small.size() * sizeof(double)));  // below the threshold
  EXPECT_FALSE(ppl::advise_huge_pages(nullptr, std::size_t(64) << 20));
  std::vector<double> big((std::size_t(8) << 20) / sizeof(double), 2.5);
  ppl::advise_huge_pages(big.data() + 1, (big.size() - 1) * sizeof(double));  // unaligned start: rounded inwards
  for (double x : big) ASSERT_EQ(x, 2.5);
  for (double x : small) ASSERT_EQ(x, 1.5);
}

}  // namespace
