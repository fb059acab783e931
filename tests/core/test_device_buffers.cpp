// The device buffer cache (ppl/core/device_buffers.hpp): a released block serves the next request it fits, live
// blocks never share memory, a block more than twice a request is not handed out for it, and what a View over a
// cached block holds survives until the block is released.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "ppl/core/device_buffers.hpp"

namespace {

using ppl::acquire_device_bytes;
using ppl::device_buffer_statistics;

// v(i) = i on the device (a free function: nvcc takes no device lambda inside a test's body).
void fill_iota(Kokkos::View<float*> v) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<>(0, int(v.extent(0))), KOKKOS_LAMBDA(const int i) { v(i) = float(i); });
}

TEST(DeviceBuffers, ReleasedBlocksAreReused) {
  void* first = nullptr;
  {
    const auto a = acquire_device_bytes(100000);
    first = a->data();
    EXPECT_GE(a->bytes(), 100000u);
  }
  const auto before = device_buffer_statistics();
  const auto b = acquire_device_bytes(90000);  // fits the released 100,000-byte block, wasting less than half
  const auto after = device_buffer_statistics();
  EXPECT_EQ(b->data(), first);
  EXPECT_EQ(after.reuses, before.reuses + 1);
  EXPECT_EQ(after.allocations, before.allocations);
  EXPECT_EQ(after.cached_blocks + 1, before.cached_blocks);
}

TEST(DeviceBuffers, LiveBlocksAreDistinctAndSmallRequestsDoNotTakeLargeBlocks) {
  { const auto big = acquire_device_bytes(1 << 20); }  // waits in the cache
  const auto before = device_buffer_statistics();
  const auto a = acquire_device_bytes(1000);
  const auto b = acquire_device_bytes(1000);
  const auto after = device_buffer_statistics();
  EXPECT_NE(a->data(), b->data());
  EXPECT_LT(a->bytes(), std::size_t(1) << 20) << "a 1 MiB block was handed out for 1000 bytes";
  EXPECT_EQ(after.allocations, before.allocations + 2);
}

TEST(DeviceBuffers, ViewsOverABlockKeepTheirValues) {
  auto c = ppl::make_cached_view<float>(1000);
  ASSERT_EQ(c.view.extent(0), 1000u);
  fill_iota(c.view);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.view);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(h(i), float(i));
  const auto other = ppl::make_cached_view<float>(1000);  // a second live block: not the first one's memory
  EXPECT_NE(other.view.data(), c.view.data());
}

}  // namespace
