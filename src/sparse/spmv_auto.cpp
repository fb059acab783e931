// `auto`: the fastest strategy the build has, chosen at prepare(): on a CUDA build `stream_cuda` or `vector_cuda`
// (cuda_prefers_stream), on a host build `scalar_avx2` or `scalar`, else the portable vector mapping with threads per
// row from the matrix's mean nonzeros per row (rule in auto_threads_per_row, stated and checked against the sweep in
// docs/solver.md).
#include <Kokkos_Core.hpp>
#include <cmath>
#include <string>
#include <type_traits>

#include "spmv_vector.hpp"

namespace ppl {

int auto_threads_per_row(double mean_nnz) {
  // The power of two nearest (in log2) to mean_nnz / 2, clamped to [2, 32]: 27 per row -> 16, 81 -> 32, 7 -> 4.
  if (!(mean_nnz > 4)) return 2;
  const int p = static_cast<int>(std::lround(std::log2(mean_nnz / 2)));
  return p >= 5 ? 32 : (1 << p);
}

// On the H200 with Kokkos 3.4 (perf/results/spmv-h200, spmv-h200/kokkos46) stream_cuda is the fastest at
// 27 and 81 nonzeros per row, 1M and 3M rows. Built against Kokkos 4.6 (spmv-h200/kokkos46) vector_cuda [16] is the
// faster at 81 (0.736 against 0.823 ms at 3M rows; its kernel is compiled differently there, 30 registers against
// 24) and stream_cuda at 27; the rule switches at the geometric mean of the two, 47 (nothing between was measured).
bool cuda_prefers_stream(double mean_nnz) {
#if KOKKOS_VERSION >= 40000
  return mean_nnz < 47;
#else
  (void)mean_nnz;
  return true;
#endif
}

// 27 per row -> 8, 81 -> 16: the fastest on the H200 (perf/results/spmv-h200/probe).
int cuda_threads_per_row(double mean_nnz) {
  int t = 1;
  while (t < 32 && 2 * t * 3 <= mean_nnz) t *= 2;
  return t;
}

namespace {

// The portable vector mapping with the rule's threads per row.
class auto_vector final : public spmv_vector_mapping {
 public:
  explicit auto_vector(int rows_per_team) : spmv_vector_mapping("auto", vector_mapping{2, rows_per_team}) {}
  void set_threads_per_row(int t) { m_.threads_per_row = t; }
};

// The fastest strategy this build has for the matrix: on a CUDA build `stream_cuda` or `vector_cuda` (with its own
// threads-per-row rule) by cuda_prefers_stream; on a host execution space `scalar_avx2` where the CPU has AVX2 and
// FMA (the fastest CPU mapping at 27 and 81 nonzeros per row, 1 and 2 threads: perf/results/spmv-openmp-3), else
// `scalar`, one thread per row (7-18% ahead of the portable vector mapping, whose lanes are a loop on the host, in
// six of the eight cases of perf/results/spmv-openmp-2); on any other device the portable vector mapping with
// auto_threads_per_row. describe() says which and why. Runs on every space its choice runs on: every space on the
// host (scalar, scalar_avx2), the default one on CUDA.
class spmv_auto final : public spmv_strategy {
 public:
  explicit spmv_auto(int rows_per_team) : portable_(rows_per_team) {}
  void prepare(const crs_matrix& A) override {
    const double mean = A.numRows() > 0 ? static_cast<double>(A.nnz()) / A.numRows() : 0.0;
#if defined(KOKKOS_ENABLE_CUDA)
    if (std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value) {
      const bool stream = cuda_prefers_stream(mean);
      auto& chosen = stream ? stream_cuda_ : vector_cuda_;
      if (!chosen) chosen = stream ? make_stream_cuda_spmv() : make_vector_cuda_spmv();
      chosen->prepare(A);
      chosen_ = chosen.get();
      why_ = std::string("CUDA build: the fastest mapping on the H200 for ") +
             (stream ? "this mean row length" : "47 or more nonzeros per row with Kokkos 4");
      return;
    }
#endif
    if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible) {
      // The registry offers scalar_avx2 only on a CPU with AVX2 and FMA (build_requirement::avx2).
      const auto* simd = spmv_strategies().find("scalar_avx2");
      if (!scalar_) scalar_ = simd != nullptr ? simd->factory({}) : make_scalar_spmv();
      scalar_->prepare(A);
      chosen_ = scalar_.get();
      why_ = simd != nullptr ? "host build on an x86-64 CPU with AVX2 and FMA: the fastest mapping on the CPU"
                             : "host build: one thread per row is the fastest portable mapping on the CPU";
      return;
    }
    portable_.set_threads_per_row(auto_threads_per_row(mean));
    chosen_ = &portable_;
    why_ = "portable vector mapping, threads per row from the mean row length";
  }
  void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override {
    if (chosen_ == nullptr) prepare(A);  // a caller that skipped prepare still gets the rule
    chosen_->apply(space, A, x, y);
  }
  std::string describe() const override {
    return chosen_ == nullptr ? "auto (not prepared)" : "auto: " + chosen_->describe() + " (" + why_ + ")";
  }

 private:
  auto_vector portable_;
  std::unique_ptr<spmv_strategy> stream_cuda_, vector_cuda_, scalar_;
  spmv_strategy* chosen_ = nullptr;
  std::string why_;
};

}  // namespace

const parameter_fields<auto_spmv_params>& auto_spmv_params::fields() {
  static const auto f = parameter_fields<auto_spmv_params>().integer_or_auto(
      "rows_per_team", &auto_spmv_params::rows_per_team, 1, 1024,
      "rows per team of the portable vector path (a device without a specialised mapping); auto: as vector's");
  return f;
}

std::unique_ptr<spmv_strategy> make_auto_spmv(const auto_spmv_params& p) {
  auto_spmv_params::fields().check(p);
  return std::make_unique<spmv_auto>(p.rows_per_team);
}

}  // namespace ppl
