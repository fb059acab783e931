// The SpMV family's one name -> factory table. CUDA-only entries sit inside #if defined(KOKKOS_ENABLE_CUDA), so an
// OpenMP build lists (and accepts) only what it has.
#include "spmv_factories.hpp"

namespace ppl {

const spmv_registry& spmv_strategies() {
  static const spmv_registry r = [] {
    spmv_registry reg("spmv strategy");
    reg.add({"scalar", "one thread per row (RangePolicy)", "all", make_spmv_scalar});
    reg.add({"kokkos_kernels", "KokkosSparse::spmv, default controls (\"T\" for the transpose)", "all",
             make_spmv_kokkos_kernels});
    return reg;
  }();
  return r;
}

}  // namespace ppl
