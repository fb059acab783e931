#pragma once
// Large host arrays in 2 MiB transparent huge pages where Linux offers them (THP "always" or "madvise", the default
// of Debian and most distributions). A 970,299-row system with 27 nonzeros per row spans about 80,000 4 KiB pages;
// on one CPU core the TLB misses of streaming them cost 8-15% of an SpMV (docs/solver.md, "SpMV on one CPU core"). The
// advice only works before a page is first touched, so such arrays are allocated without initialisation, advised,
// then written. Off the host memory space (CUDA) and off Linux this is a no-op.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <type_traits>

namespace ppl {

// Arrays below this size gain too little to be worth a system call.
constexpr std::size_t huge_page_min_bytes = std::size_t(4) << 20;

// madvise(MADV_HUGEPAGE) on the whole pages inside [data, data + bytes). Advice only: returns whether the kernel
// took it (false below huge_page_min_bytes, off Linux, or where THP is disabled).
bool advise_huge_pages(void* data, std::size_t bytes) noexcept;

template <class View>
bool advise_huge_pages(const View& v) noexcept {
  if constexpr (std::is_same<typename View::memory_space, Kokkos::HostSpace>::value)
    return advise_huge_pages(static_cast<void*>(v.data()), v.span() * sizeof(typename View::value_type));
  else
    return false;
}

namespace huge_pages_detail {
// The first touch of a large view, as a named functor: an extended lambda in a header template instantiated by
// several libraries was launched through a null host stub on CUDA.
template <class T>
struct zero_fill {
  T* data;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { data[i] = T{}; }
};
}  // namespace huge_pages_detail

// A View allocated untouched, advised, then zero-filled by a parallel loop of its execution space (the first touch
// Kokkos' own initialisation would make, so pages land on the NUMA node of the thread that uses them).
template <class View, class... Extents>
View make_large_view(const std::string& label, Extents... extents) {
  View v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), extents...);
  advise_huge_pages(v);
  Kokkos::parallel_for("ppl::make_large_view", Kokkos::RangePolicy<typename View::execution_space>(0, v.span()),
                       huge_pages_detail::zero_fill<typename View::non_const_value_type>{v.data()});
  return v;
}

}  // namespace ppl
