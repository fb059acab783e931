// madvise for transparent huge pages (include/ppl/core/huge_pages.hpp says why).
#include "ppl/core/huge_pages.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ppl {

bool advise_huge_pages(void* data, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (data == nullptr || bytes < huge_page_min_bytes) return false;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<std::uintptr_t>(data);
  // Only whole pages of this array: the pages at either end may hold other allocations.
  const std::uintptr_t begin = (first + page - 1) / page * page, end = (first + bytes) / page * page;
  return end > begin && madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) == 0;
#else
  (void)data;
  (void)bytes;
  return false;
#endif
}

}  // namespace ppl
