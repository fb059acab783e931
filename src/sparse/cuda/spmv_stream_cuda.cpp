// `stream_cuda`: CSR-Stream (Greathouse & Daga, SC 2014), the `stream` strategy's algorithm as a CUDA kernel. A
// 256-thread block owns R consecutive rows: phase 1 forms the products values[j] * x[cols[j]] of their contiguous
// nonzero range with consecutive threads on consecutive j into shared memory, phase 2 sums each row with 256 / R
// threads and warp shuffles. What the portable kernel cannot say through Kokkos 3.4:
//  - cache hints: the matrix is streamed with __ldcs (evict-first: 1 GB passing through L2 does not push x out of it)
//    and x and the row offsets are read with __ldg (the probe, perf/results/spmv-h200/probe: 3616 GB/s with the hints,
//    3287 with plain loads, on the 27-per-row matrix at 3M rows);
//  - a compile-time row count R, so phase 2's lane count and shuffle widths are constants;
//  - the block's row offsets in __shared__ memory, read once;
//  - its own split of each SM's memory between L1 and shared memory: Kokkos 3.4 makes "prefer shared" the device's
//    default at initialisation (cudaDeviceSetCacheConfig), which gives a kernel without a preference of its own 228
//    KiB of shared memory and the rest, about 24 KiB, of L1. With that split this kernel ran at 2847 GB/s, the same
//    kernel in the probe (no Kokkos) at 3616: the same instructions and occupancy, L1 hit rate 42% against 46%
//    (Nsight Compute, perf/results/spmv-h200/ncu). The kernel asks for the shared memory its 8 blocks per SM need.
// A block whose range exceeds the shared capacity (rows much longer than the mean) sums its rows from global memory
// with the same lanes, so any matrix is handled.
#include <cuda_runtime.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>

#include "../spmv_factories.hpp"
#include "ppl/core/error.hpp"

namespace ppl {
namespace {

using size_type = crs_matrix::size_type;
constexpr int block_threads = 256;
constexpr int unroll = 4;           // loads of each array in flight per thread in phase 1
constexpr int max_capacity = 3072;  // doubles of shared memory per block: 24 KiB, 8 blocks per SM
constexpr unsigned full_mask = 0xffffffffu;

template <int R>
__global__ void __launch_bounds__(block_threads, 8)
    stream_cuda_kernel(const size_type* __restrict__ row_map, const int* __restrict__ cols,
                       const double* __restrict__ vals, const double* __restrict__ x, double* __restrict__ y,
                       const int rows, const int capacity) {
  static_assert(block_threads % R == 0 && R <= 128, "R divides the block and leaves at least 2 lanes per row");
  constexpr int lanes = block_threads / R;
  extern __shared__ double products[];
  __shared__ int offsets[R + 1];
  const int t = threadIdx.x;
  const int r0 = static_cast<int>(blockIdx.x) * R;
  const size_type base = __ldg(row_map + r0);
  if (t <= R) offsets[t] = static_cast<int>(__ldg(row_map + min(r0 + t, rows)) - base);
  __syncthreads();
  const int count = offsets[R];
  const int* c0 = cols + base;
  const double* v0 = vals + base;
  const int local = t / lanes, lane = t % lanes;
  double sum = 0;
  if (count <= capacity) {  // block-uniform
    for (int j = t; j < count; j += block_threads * unroll) {
      // Every load unconditional (past the end: the last entry again), so that all of a thread's loads are in
      // flight together; only the stores are conditional.
      int c[unroll];
      double v[unroll], xv[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        const int k = min(j + u * block_threads, count - 1);
        c[u] = __ldcs(c0 + k);
        v[u] = __ldcs(v0 + k);
      }
#pragma unroll
      for (int u = 0; u < unroll; ++u) xv[u] = __ldg(x + c[u]);
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        if (j + u * block_threads < count) products[j + u * block_threads] = v[u] * xv[u];
    }
    __syncthreads();
    for (int j = offsets[local] + lane; j < offsets[local + 1]; j += lanes) sum += products[j];
  } else {
    for (int j = offsets[local] + lane; j < offsets[local + 1]; j += lanes)
      sum += __ldcs(v0 + j) * __ldg(x + __ldcs(c0 + j));
  }
  // Every thread of the block gets here (rows past the end have empty ranges), so the full mask is valid.
#pragma unroll
  for (int off = lanes / 2; off > 0; off /= 2) sum += __shfl_down_sync(full_mask, sum, off, lanes);
  if (lane == 0 && r0 + local < rows) y[r0 + local] = sum;
}

class spmv_stream_cuda final : public spmv_strategy {
 public:
  explicit spmv_stream_cuda(int rows_per_block) : given_(rows_per_block) {}

  void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override {
    require_default_space(space, "stream_cuda");
    const Kokkos::Cuda cuda = space.visit([](const auto& s) { return Kokkos::Cuda(s); });
    Kokkos::Profiling::pushRegion("ppl::spmv[stream_cuda]");
    const int rows = A.numRows();
    const double mean = rows > 0 ? static_cast<double>(A.nnz()) / rows : 0.0;
    rows_per_block_ = given_ > 0 ? given_ : stream_rows_per_team(mean, true);
    switch (rows_per_block_) {
      case 8:
        launch<8>(cuda, A, x, y, mean);
        break;
      case 16:
        launch<16>(cuda, A, x, y, mean);
        break;
      case 32:
        launch<32>(cuda, A, x, y, mean);
        break;
      case 64:
        launch<64>(cuda, A, x, y, mean);
        break;
      default:
        launch<128>(cuda, A, x, y, mean);
        break;
    }
    Kokkos::Profiling::popRegion();
  }

  std::string describe() const override {
    return "stream_cuda (CSR-Stream, cache hints), " +
           (given_ > 0 ? std::to_string(given_)
                       : "from the mean row length (" + std::to_string(rows_per_block_) + ")") +
           " rows/block";
  }

 private:
  // The carveout (percent of an SM's shared memory capacity) that holds 8 blocks of `dynamic` bytes each, set on
  // the kernel when `dynamic` changes (one process, one device: ppl runs on Kokkos' device).
  template <int R>
  static void request_shared_memory(std::size_t dynamic) {
    static std::size_t set_for = 0;
    if (dynamic == set_for) return;
    int device = 0, per_sm = 0, reserved = 0;
    cudaFuncAttributes attributes{};
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device);
    if (e == cudaSuccess) e = cudaFuncGetAttributes(&attributes, stream_cuda_kernel<R>);
    if (e == cudaSuccess && per_sm > 0) {
      const double need = 8.0 * (dynamic + attributes.sharedSizeBytes + reserved);
      const int percent = std::min(100, static_cast<int>(std::ceil(100.0 * need / per_sm)));
      e = cudaFuncSetAttribute(stream_cuda_kernel<R>, cudaFuncAttributePreferredSharedMemoryCarveout, percent);
      if (e == cudaSuccess) set_for = dynamic;
    }
    if (e != cudaSuccess) throw error(exit_code::failure, std::string("stream_cuda: ") + cudaGetErrorString(e));
  }

  template <int R>
  void launch(const Kokkos::Cuda& space, const crs_matrix& A, const_vector_view x, vector_view y, double mean) {
    const int rows = A.numRows();
    if (rows == 0) return;
    // 25% above the mean row length, at least 32 per row, at most max_capacity (the rest takes the global path).
    const int capacity = std::min(max_capacity, R * std::max(32, static_cast<int>(std::ceil(1.25 * mean))));
    request_shared_memory<R>(sizeof(double) * capacity);
    const unsigned blocks = static_cast<unsigned>((static_cast<long long>(rows) + R - 1) / R);
    stream_cuda_kernel<R><<<blocks, block_threads, sizeof(double) * capacity, space.cuda_stream()>>>(
        A.graph.row_map.data(), A.graph.entries.data(), A.values.data(), x.data(), y.data(), rows, capacity);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) throw error(exit_code::failure, std::string("stream_cuda: ") + cudaGetErrorString(e));
  }
  int given_;                // 0: stream_rows_per_team of each matrix
  int rows_per_block_ = 64;  // of the last apply
};

}  // namespace

std::unique_ptr<spmv_strategy> make_stream_cuda_spmv(const stream_cuda_spmv_params& p) {
  stream_cuda_spmv_params::fields().check(p);
  return std::make_unique<spmv_stream_cuda>(p.rows_per_team);
}

}  // namespace ppl
