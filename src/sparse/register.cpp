// The SpMV family's one name -> factory table. CUDA-only entries (names ending in _cuda) are registered in every
// build with a factory only in CUDA builds (PPL_CUDA_ONLY, include/ppl/core/registry.hpp); host-SIMD ones (_avx2)
// with a factory only in x86-64 host builds on a CPU that has the instructions (PPL_AVX2_ONLY).
#include "spmv_factories.hpp"

namespace ppl {

const spmv_registry& spmv_strategies() {
  static const spmv_registry r = [] {
    spmv_registry reg("spmv strategy");
    reg.add({"scalar", "one thread per row (RangePolicy)", "all", make_spmv_scalar});
    reg.add({"scalar_avx2", "one thread per row, AVX2 gathers of x and FMA, 4 nonzeros at a time", "host",
             PPL_AVX2_ONLY(make_spmv_scalar_avx2), build_requirement::avx2});
    reg.add({"vector", "TeamPolicy, threads_per_row (1-32) lanes reduce each row (ThreadVectorRange), rows_per_team",
             "all", make_spmv_vector});
    reg.add(
        {"auto", "vector with threads_per_row from the mean nonzeros per row (docs/solver.md)", "all", make_spmv_auto});
    reg.add({"stream",
             "CSR-Stream: a team's rows' nonzeros streamed coalesced into team scratch, then summed per row "
             "(rows_per_team)",
             "all", make_spmv_stream});
    reg.add({"kokkos_kernels", "KokkosSparse::spmv, default controls (\"T\" for the transpose)", "all",
             make_spmv_kokkos_kernels});
    reg.add({"vector_cuda", "rows x threads_per_row threads (default from the mean row length), warp-shuffle reduction",
             "cuda", PPL_CUDA_ONLY(make_spmv_vector_cuda), build_requirement::cuda});
    reg.add({"stream_cuda",
             "CSR-Stream in CUDA: cache-hinted loads, compile-time rows per block, row offsets in shared memory "
             "(rows_per_team)",
             "cuda", PPL_CUDA_ONLY(make_spmv_stream_cuda), build_requirement::cuda});
    return reg;
  }();
  return r;
}

}  // namespace ppl
