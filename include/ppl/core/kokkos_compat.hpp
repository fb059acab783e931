#pragma once
// Kokkos spellings that differ between the releases ppl builds against (3.4.01 and 4.6.01 are built and tested)
// where no spelling valid in both exists. Kokkos 3.7 changed all of these at once: it promoted the math functions
// from Kokkos::Experimental to Kokkos (4.0 removed the old names) and made reductions call a join() with plain
// references (4.0 rejects a volatile-qualified join with a static_assert; 3.4 calls only a volatile one).
#include <Kokkos_Core.hpp>
#include <Kokkos_MathematicalFunctions.hpp>

namespace ppl::kmath {

#if KOKKOS_VERSION >= 30700
using Kokkos::fabs;
using Kokkos::floor;
using Kokkos::fmax;
using Kokkos::isfinite;
using Kokkos::sqrt;
#else
using Kokkos::Experimental::fabs;
using Kokkos::Experimental::floor;
using Kokkos::Experimental::fmax;
using Kokkos::Experimental::isfinite;
using Kokkos::Experimental::sqrt;
#endif

}  // namespace ppl::kmath

// The qualifier of the parameters of a reduction functor's join(), for both conventions:
//   void join(PPL_KOKKOS_JOIN_VOLATILE value_type& dst, const PPL_KOKKOS_JOIN_VOLATILE value_type& src) const;
// (for an array value_type, `PPL_KOKKOS_JOIN_VOLATILE value_type dst`). The body must compile for both.
#if KOKKOS_VERSION >= 30700
#define PPL_KOKKOS_JOIN_VOLATILE
#else
#define PPL_KOKKOS_JOIN_VOLATILE volatile
#endif
