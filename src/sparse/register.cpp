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
                .with_description("one thread per row (RangePolicy)")
                .with_backends("all")
                .with_factory(from_values<no_parameters>(make_scalar_spmv))
                .with_capabilities(every_space)
                .with_parameters(no_parameters::fields().space()));
    reg.add(entry::named("scalar_avx2")
                .with_description("one thread per row, AVX2 gathers of x and FMA, 4 nonzeros at a time")
                .with_backends("host")
                .with_factory(PPL_AVX2_ONLY(spmv_factory(from_values<no_parameters>(make_scalar_avx2_spmv))))
                .with_needs(build_requirement::avx2)
                .with_capabilities(every_space)
                .with_parameters(no_parameters::fields().space()));
    reg.add(entry::named("vector")
                .with_description("TeamPolicy, threads_per_row (1-32) lanes reduce each row (ThreadVectorRange), rows_per_team")
                .with_backends("all")
                .with_factory(from_values<vector_spmv_params>(make_vector_spmv))
                .with_capabilities(every_space)
                .with_parameters(vector_spmv_params::fields().space()));
    reg.add(entry::named("auto")
                .with_description("the fastest mapping of the build for the matrix (docs/solver.md)")
                .with_backends("all")
                .with_factory(from_values<auto_spmv_params>(make_auto_spmv))
                .with_capabilities(Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible
                                ? every_space
                                : std::vector<std::string>{})
                .with_parameters(auto_spmv_params::fields().space()));
    reg.add(
        entry::named("stream")
            .with_description("CSR-Stream: a team's rows' nonzeros streamed coalesced into team scratch, then summed per row "
                      "(rows_per_team)")
            .with_backends("all")
            .with_factory(from_values<stream_spmv_params>(make_stream_spmv))
            .with_capabilities(every_space)
            .with_parameters(stream_spmv_params::fields().space()));
    reg.add(entry::named("kokkos_kernels")
                .with_description("KokkosSparse::spmv, default controls (\"T\" for the transpose); the default space only")
                .with_backends("all")
                .with_factory(from_values<no_parameters>(make_kokkos_kernels_spmv))
                .with_parameters(no_parameters::fields().space()));
    reg.add(entry::named("vector_cuda")
                .with_description("rows x threads_per_row threads (default from the mean row length), warp-shuffle reduction")
                .with_backends("cuda")
                .with_factory(PPL_CUDA_ONLY(from_values<vector_cuda_spmv_params>(make_vector_cuda_spmv)))
                .with_needs(build_requirement::cuda)
                .with_parameters(vector_cuda_spmv_params::fields().space()));
    reg.add(entry::named("stream_cuda")
                .with_description("CSR-Stream in CUDA: cache-hinted loads, compile-time rows per block, row offsets in shared "
                          "memory (rows_per_team)")
                .with_backends("cuda")
                .with_factory(PPL_CUDA_ONLY(from_values<stream_cuda_spmv_params>(make_stream_cuda_spmv)))
                .with_needs(build_requirement::cuda)
                .with_parameters(stream_cuda_spmv_params::fields().space()));
    return reg;
  }();
  return r;
}

}  // namespace ppl
