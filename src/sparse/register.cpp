// The SpMV family's one name -> entry table, one registration per strategy. CUDA-only entries (names ending in
// _cuda) are registered in every build with a factory only in CUDA builds (PPL_CUDA_ONLY,
// include/ppl/core/registry.hpp); host-SIMD ones (_avx2) with a factory only in x86-64 host builds on a CPU that has
// the instructions (PPL_AVX2_ONLY). Capability `every_space`: the strategy runs on every space of execution::all().
#include "spmv_factories.hpp"

namespace ppl {

const spmv_registry& spmv_strategies() {
  static const spmv_registry r = [] {
    using entry = spmv_registry::entry;
    const std::vector<std::string> every_space{spmv_every_space};
    spmv_registry reg("spmv strategy");
    reg.add(entry::named("scalar")
                .describe("one thread per row (RangePolicy)")
                .on("all")
                .built_by(from_values<no_parameters>(make_scalar_spmv))
                .capable_of(every_space)
                .declaring(no_parameters::fields().space()));
    reg.add(entry::named("scalar_avx2")
                .describe("one thread per row, AVX2 gathers of x and FMA, 4 nonzeros at a time")
                .on("host")
                .built_by(PPL_AVX2_ONLY(spmv_factory(from_values<no_parameters>(make_scalar_avx2_spmv))))
                .requiring(build_requirement::avx2)
                .capable_of(every_space)
                .declaring(no_parameters::fields().space()));
    reg.add(entry::named("vector")
                .describe("TeamPolicy, threads_per_row (1-32) lanes reduce each row (ThreadVectorRange), rows_per_team")
                .on("all")
                .built_by(from_values<vector_spmv_params>(make_vector_spmv))
                .capable_of(every_space)
                .declaring(vector_spmv_params::fields().space()));
    reg.add(entry::named("auto")
                .describe("the fastest mapping of the build for the matrix (docs/solver.md)")
                .on("all")
                .built_by(from_values<auto_spmv_params>(make_auto_spmv))
                .capable_of(Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible
                                ? every_space
                                : std::vector<std::string>{})
                .declaring(auto_spmv_params::fields().space()));
    reg.add(
        entry::named("stream")
            .describe("CSR-Stream: a team's rows' nonzeros streamed coalesced into team scratch, then summed per row "
                      "(rows_per_team)")
            .on("all")
            .built_by(from_values<stream_spmv_params>(make_stream_spmv))
            .capable_of(every_space)
            .declaring(stream_spmv_params::fields().space()));
    reg.add(entry::named("kokkos_kernels")
                .describe("KokkosSparse::spmv, default controls (\"T\" for the transpose); the default space only")
                .on("all")
                .built_by(from_values<no_parameters>(make_kokkos_kernels_spmv))
                .declaring(no_parameters::fields().space()));
    reg.add(entry::named("vector_cuda")
                .describe("rows x threads_per_row threads (default from the mean row length), warp-shuffle reduction")
                .on("cuda")
                .built_by(PPL_CUDA_ONLY(from_values<vector_cuda_spmv_params>(make_vector_cuda_spmv)))
                .requiring(build_requirement::cuda)
                .declaring(vector_cuda_spmv_params::fields().space()));
    reg.add(entry::named("stream_cuda")
                .describe("CSR-Stream in CUDA: cache-hinted loads, compile-time rows per block, row offsets in shared "
                          "memory (rows_per_team)")
                .on("cuda")
                .built_by(PPL_CUDA_ONLY(from_values<stream_cuda_spmv_params>(make_stream_cuda_spmv)))
                .requiring(build_requirement::cuda)
                .declaring(stream_cuda_spmv_params::fields().space()));
    return reg;
  }();
  return r;
}

}  // namespace ppl
