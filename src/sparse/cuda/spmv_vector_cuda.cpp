// `vector_cuda`: the vector mapping written for the GPU. A flat RangePolicy of rows x threads_per_row threads
// (padded to whole warps) so that each aligned group of T lanes of a warp owns one row; the row's sum is reduced
// with warp shuffles. Plain loads: cache hints (__ldcs for the matrix, __ldg for
// x) made it 14% slower on the 27-per-row matrix and 4% on the 81-per-row one (perf/results/spmv-h200/probe).
// threads_per_row defaults to cuda_threads_per_row(mean row length). Runs on the default (CUDA) execution space, on
// the instance's stream. Functor with explicit members (see the
// lambda pitfall in kokkos-cuda.md).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <limits>

#include "../spmv_factories.hpp"

namespace ppl {
namespace {

using size_type = crs_matrix::size_type;

template <int T>
struct vector_cuda_kernel {
  const size_type* row_map;
  const int* entries;
  const double* values;
  const double* x;
  double* y;
  int rows;

  KOKKOS_INLINE_FUNCTION void operator()(const int g) const {
#if defined(__CUDA_ARCH__)
    const int row = g / T, lane = g % T;
    double sum = 0;
    if (row < rows) {
      const size_type begin = row_map[row], end = row_map[row + 1];
#pragma unroll 4
      for (size_type j = begin + lane; j < end; j += T) sum += values[j] * x[entries[j]];
    }
    // Every lane of the warp gets here (the range is whole warps), so the full mask is valid.
#pragma unroll
    for (int offset = T / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset, T);
    if (lane == 0 && row < rows) y[row] = sum;
#else
    (void)g;  // launched on Kokkos::Cuda only
#endif
  }
};

class spmv_vector_cuda final : public spmv_strategy {
 public:
  explicit spmv_vector_cuda(int threads_per_row) : tpr_given_(threads_per_row) {}

  void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override {
    require_default_space(space, "vector_cuda");
    const Kokkos::Cuda cuda = space.visit([](const auto& s) { return Kokkos::Cuda(s); });
    Kokkos::Profiling::pushRegion("ppl::spmv[vector_cuda]");
    const double mean = A.numRows() > 0 ? static_cast<double>(A.nnz()) / A.numRows() : 0.0;
    tpr_ = tpr_given_ > 0 ? tpr_given_ : cuda_threads_per_row(mean);
    switch (tpr_) {
      case 1:
        launch<1>(cuda, A, x, y);
        break;
      case 2:
        launch<2>(cuda, A, x, y);
        break;
      case 4:
        launch<4>(cuda, A, x, y);
        break;
      case 8:
        launch<8>(cuda, A, x, y);
        break;
      case 16:
        launch<16>(cuda, A, x, y);
        break;
      default:
        launch<32>(cuda, A, x, y);
        break;
    }
    Kokkos::Profiling::popRegion();
  }
  std::string describe() const override {
    return "vector_cuda, " +
           (tpr_given_ > 0 ? std::to_string(tpr_given_) : "from the mean row length (" + std::to_string(tpr_) + ")") +
           " threads/row (warp shuffles)";
  }

 private:
  template <int T>
  void launch(const Kokkos::Cuda& cuda, const crs_matrix& A, const_vector_view x, vector_view y) {
    const long long threads = (static_cast<long long>(A.numRows()) * T + 31) / 32 * 32;
    if (threads > std::numeric_limits<int>::max())
      throw error(exit_code::failure, "vector_cuda: " + std::to_string(A.numRows()) + " rows x " + std::to_string(T) +
                                          " threads/row exceed the int range of the launch");
    if (threads == 0) return;
    vector_cuda_kernel<T> k{
        A.graph.row_map.data(), A.graph.entries.data(), A.values.data(), x.data(), y.data(), A.numRows()};
    Kokkos::parallel_for("ppl::spmv[vector_cuda]",
                         Kokkos::RangePolicy<Kokkos::Cuda>(cuda, 0, static_cast<int>(threads)), k);
  }
  int tpr_given_;  // 0: cuda_threads_per_row of each matrix
  int tpr_ = 8;    // of the last apply
};

}  // namespace

std::unique_ptr<spmv_strategy> make_vector_cuda_spmv(const vector_cuda_spmv_params& p) {
  vector_cuda_spmv_params::fields().check(p);
  return std::make_unique<spmv_vector_cuda>(p.threads_per_row);
}

}  // namespace ppl
