// `scalar_avx2`: one thread per row like `scalar`, each row's products done four at a time with AVX2 gathers of x
// and fused multiply-adds, the row's last 1-3 nonzeros by masked loads and a masked gather.
//
// Why: on a CPU core the scalar loop is bound by its one-at-a-time loads and the chain of dependent adds, not by
// memory bandwidth: at 27 nonzeros per row it streams 10-11 GB/s where the same core reads 13-20 GB/s
// (docs/solver.md, "SpMV on one CPU core"). Four lanes of gather + FMA take 15-44% off (perf/results/spmv-openmp-3).
//
// Host-SIMD specialisation, as cuda/ holds CUDA ones: the Kokkos kernel is a RangePolicy over blocks of rows on the
// host execution space; each block runs in a function compiled for AVX2 + FMA by a target attribute (the rest of the
// build stays generic x86-64), and the registry offers the strategy only where the CPU has both (PPL_AVX2_ONLY). A
// block, not a row, per call: a function of another target is not inlined into Kokkos' generic loop, and one call
// per row would cost more than it saves. Blocks are scheduled dynamically (Kokkos starts from the static split and
// lets idle threads take blocks from busy ones): on the 16 threads of the H200 machine's CPU a static split left
// Kokkos Kernels' dynamically scheduled spmv 15-29% ahead (perf/results/spmv-h200-host).
#include "ppl/core/registry.hpp"

#if defined(PPL_HAS_X86_SIMD)
#include <immintrin.h>

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>

#include "../spmv_factories.hpp"

namespace ppl {
namespace {

using size_type = crs_matrix::size_type;

// Rows per call of the AVX2 block function (and per Kokkos work item).
constexpr int rows_per_block = 256;

__attribute__((target("avx2,fma"))) void avx2_rows(int first, int last, const size_type* row_map, const int* entries,
                                                   const double* values, const double* x, double* y) {
  const __m256i lane = _mm256_set_epi64x(3, 2, 1, 0);
  const __m256d all_lanes = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  // Picks the low 32 bits of each 64-bit mask lane: the mask for the four 32-bit column indices.
  const __m256i low_words = _mm256_set_epi32(7, 7, 7, 7, 6, 4, 2, 0);
  for (int row = first; row < last; ++row) {
    const size_type begin = row_map[row], end = row_map[row + 1];
    __m256d sum = _mm256_setzero_pd();
    size_type j = begin;
    for (; j + 4 <= end; j += 4) {
      const __m128i cols = _mm_loadu_si128(reinterpret_cast<const __m128i*>(entries + j));
      // The masked form with every lane on: the same instruction as _mm256_i32gather_pd, whose GCC 12 header
      // draws a false "may be used uninitialized".
      const __m256d xs = _mm256_mask_i32gather_pd(_mm256_setzero_pd(), x, cols, all_lanes, 8);
      sum = _mm256_fmadd_pd(_mm256_loadu_pd(values + j), xs, sum);
    }
    if (j < end) {  // 1-3 left: masked loads never touch the lanes they skip (no read past the arrays)
      const __m256i keep = _mm256_cmpgt_epi64(_mm256_set1_epi64x(static_cast<long long>(end - j)), lane);
      const __m128i keep32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(keep, low_words));
      const __m128i cols = _mm_maskload_epi32(entries + j, keep32);
      const __m256d xs = _mm256_mask_i32gather_pd(_mm256_setzero_pd(), x, cols, _mm256_castsi256_pd(keep), 8);
      sum = _mm256_fmadd_pd(_mm256_maskload_pd(values + j, keep), xs, sum);
    }
    const __m128d pair = _mm_add_pd(_mm256_castpd256_pd128(sum), _mm256_extractf128_pd(sum, 1));
    y[row] = _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)));
  }
}

struct avx2_blocks {
  const size_type* row_map;
  const int* entries;
  const double* values;
  const double* x;
  double* y;
  int rows;

  void operator()(const int block) const {
    const int first = block * rows_per_block;
    avx2_rows(first, first + rows_per_block < rows ? first + rows_per_block : rows, row_map, entries, values, x, y);
  }
};

class spmv_scalar_avx2 final : public spmv_strategy {
 public:
  void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override {
    static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible,
                  "a host-SIMD kernel runs on a host execution space");
    Kokkos::Profiling::pushRegion("ppl::spmv[scalar_avx2]");
    const int rows = A.numRows();
    const avx2_blocks k{A.graph.row_map.data(), A.graph.entries.data(), A.values.data(), x.data(), y.data(), rows};
    space.visit([&](const auto& s) {
      using policy = Kokkos::RangePolicy<std::decay_t<decltype(s)>, Kokkos::Schedule<Kokkos::Dynamic>>;
      Kokkos::parallel_for("ppl::spmv[scalar_avx2]", policy(s, 0, (rows + rows_per_block - 1) / rows_per_block), k);
    });
    Kokkos::Profiling::popRegion();
  }
  std::string describe() const override { return "scalar_avx2, 1 thread/row, 4-lane AVX2 gathers + FMA"; }
};

}  // namespace

std::unique_ptr<spmv_strategy> make_scalar_avx2_spmv(const no_parameters&) {
  return std::make_unique<spmv_scalar_avx2>();
}

}  // namespace ppl
#endif
