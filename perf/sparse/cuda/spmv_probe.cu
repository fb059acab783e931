// spmv_probe: a standalone CUDA probe (CUDA runtime only, no Kokkos) for finding the CSR SpMV mapping that reaches
// the 3.0 TB/s effective-bandwidth target on the 27-per-row Q1 matrix (3M rows) on the H200. For each matrix it
// measures, in the same run, the device-to-device copy and read-only ceilings, then times a set of kernel designs
// (the current vector<T> mapping, its unhinted form, warp-per-segment, CSR-Stream, two rows per lane group, and
// 128-bit loads with an L2 evict_last policy for x), verifies every result against a float64 host loop and
// reports median/min/max times, effective GB/s (1 GB = 1e9 bytes), registers and occupancy.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o spmv_probe spmv_probe.cu
//   spmv_probe [--matrix 27|81|both] [--n N] [--reps R] [--csv FILE]
//
// Matrix: n^3 mesh nodes, node = i + n*(j + n*k); a row couples to the existing nodes of its 3x3x3 neighbourhood
// (columns ascending), 1 unknown per node ("27/row") or 3 ("81/row": row 3*node+c, columns 3*nbr+c' for all c').
// Values are hashed into [-1, 1] with the diagonal set to the row length (dominant). --n applies to every
// selected matrix; the defaults (145 for 27/row, 100 for 81/row) give about 3M rows each.
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------------------------------
// Error handling: every runtime call goes through check(); the stage names what was running when it failed.

std::string g_stage = "startup";

void check(cudaError_t e, const char* call, const char* file, int line) {
  if (e == cudaSuccess) return;
  std::fflush(stdout);
  std::fprintf(stderr, "\nCUDA ERROR during '%s': %s returned %s (%s) at %s:%d\n", g_stage.c_str(), call,
               cudaGetErrorName(e), cudaGetErrorString(e), file, line);
  std::exit(2);
}
#define CHECK_CUDA(call) check((call), #call, __FILE__, __LINE__)

[[noreturn]] void fail(const std::string& what) {
  std::fflush(stdout);
  std::fprintf(stderr, "\nERROR: %s\n", what.c_str());
  std::exit(2);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Splits [0, n) into one contiguous chunk per hardware thread (the host work is 1-3 GB, so it must be parallel).
template <typename F>
void parallel_chunks(long long n, F f) {
  const long long nt = std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (long long t = 0; t < nt; ++t) {
    const long long b = n * t / nt, e = n * (t + 1) / nt;
    if (b < e) pool.emplace_back(f, b, e);
  }
  for (auto& th : pool) th.join();
}

// ---------------------------------------------------------------------------------------------------------------
// Host matrix.

std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double unit_hash(std::uint64_t key) {  // deterministic, in [-1, 1)
  return static_cast<double>(splitmix64(key) >> 11) * 0x1.0p-52 - 1.0;
}

struct host_csr {
  int rows = 0;
  long long nnz = 0;
  int max_row_len = 0;
  std::vector<int> rowptr;
  std::unique_ptr<int[]> cols;  // uninitialised on purpose: the parallel fill is the first touch
  std::unique_ptr<double[]> vals;
};

int axis_count(int i, int n) {
  return 1 + (i > 0) + (i < n - 1);
}

host_csr build_matrix(int n, int comps) {
  const long long rows_ll = static_cast<long long>(n) * n * n * comps;
  const long long per_axis = 3LL * n - 2, nnz_ll = per_axis * per_axis * per_axis * comps * comps;
  // The kernels index with int and step up to 2*256*4 entries past a valid index: keep that headroom.
  if (n < 2 || rows_ll > INT_MAX / 64 || nnz_ll > INT_MAX - 4096)
    fail("n = " + std::to_string(n) + " gives " + std::to_string(rows_ll) + " rows and " + std::to_string(nnz_ll) +
         " nonzeros; need n >= 2 and nnz < 2^31 - 4096");
  host_csr a;
  a.rows = static_cast<int>(rows_ll);
  a.nnz = nnz_ll;
  a.rowptr.resize(static_cast<size_t>(a.rows) + 1);
  a.rowptr[0] = 0;
  for (int r = 0; r < a.rows; ++r) {
    const int node = r / comps, i = node % n, j = (node / n) % n, k = node / (n * n);
    const int len = axis_count(i, n) * axis_count(j, n) * axis_count(k, n) * comps;
    a.max_row_len = std::max(a.max_row_len, len);
    a.rowptr[r + 1] = a.rowptr[r] + len;
  }
  if (a.rowptr[a.rows] != a.nnz) fail("internal: row offsets do not sum to the expected nonzero count");
  a.cols.reset(new int[a.nnz]);
  a.vals.reset(new double[a.nnz]);
  int* cols = a.cols.get();
  double* vals = a.vals.get();
  const int* rowptr = a.rowptr.data();
  parallel_chunks(a.rows, [=](long long rb, long long re) {
    for (int r = static_cast<int>(rb); r < re; ++r) {
      const int node = r / comps, i = node % n, j = (node / n) % n, k = node / (n * n);
      const double diag = static_cast<double>(rowptr[r + 1] - rowptr[r]);
      int pos = rowptr[r];
      for (int dk = -1; dk <= 1; ++dk) {
        if (k + dk < 0 || k + dk >= n) continue;
        for (int dj = -1; dj <= 1; ++dj) {
          if (j + dj < 0 || j + dj >= n) continue;
          for (int di = -1; di <= 1; ++di) {
            if (i + di < 0 || i + di >= n) continue;
            const int col_node = (i + di) + n * ((j + dj) + n * (k + dk));
            for (int c2 = 0; c2 < comps; ++c2) {
              const int col = col_node * comps + c2;
              cols[pos] = col;
              vals[pos] = col == r ? diag : unit_hash((static_cast<std::uint64_t>(r) << 32) | unsigned(col));
              ++pos;
            }
          }
        }
      }
    }
  });
  return a;
}

std::vector<double> make_x(int rows) {
  std::vector<double> x(static_cast<size_t>(rows));
  parallel_chunks(rows, [&](long long b, long long e) {
    for (long long i = b; i < e; ++i) x[i] = unit_hash(0xabcdef0000000000ull + static_cast<std::uint64_t>(i));
  });
  return x;
}

std::vector<double> reference_spmv(const host_csr& a, const std::vector<double>& x) {
  std::vector<double> y(static_cast<size_t>(a.rows));
  parallel_chunks(a.rows, [&](long long b, long long e) {
    for (long long r = b; r < e; ++r) {
      double s = 0;
      for (int j = a.rowptr[r]; j < a.rowptr[r + 1]; ++j) s += a.vals[j] * x[a.cols[j]];
      y[r] = s;
    }
  });
  return y;
}

// max |y - y_ref| / max |y_ref|; any non-finite entry (e.g. a row never written: y starts as NaN) gives +inf.
double max_rel_error(const std::vector<double>& y, const std::vector<double>& ref) {
  double worst = 0, scale = 0;
  bool bad = false;
  for (size_t r = 0; r < y.size(); ++r) {
    if (!std::isfinite(y[r])) bad = true;
    worst = std::max(worst, std::fabs(y[r] - ref[r]));
    scale = std::max(scale, std::fabs(ref[r]));
  }
  if (bad) return INFINITY;
  return scale > 0 ? worst / scale : worst;
}

// ---------------------------------------------------------------------------------------------------------------
// Device helpers.

template <typename T>
struct device_array {
  T* p = nullptr;
  size_t n = 0;
  explicit device_array(size_t count, const char* what) : n(count) {
    const cudaError_t e = cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T));
    if (e != cudaSuccess) {
      size_t free_b = 0, total_b = 0;
      cudaGetLastError();  // clear the sticky-free allocation error before asking for the free memory
      cudaMemGetInfo(&free_b, &total_b);
      fail(std::string("cudaMalloc of ") + what + " (" + std::to_string(count * sizeof(T) >> 20) +
           " MiB) failed: " + cudaGetErrorString(e) + "; free " + std::to_string(free_b >> 20) + " of " +
           std::to_string(total_b >> 20) + " MiB");
    }
  }
  ~device_array() {
    if (p != nullptr) {
      const cudaError_t e = cudaFree(p);
      if (e != cudaSuccess) std::fprintf(stderr, "warning: cudaFree failed: %s\n", cudaGetErrorString(e));
    }
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
};

constexpr unsigned full_mask = 0xffffffffu;

struct csr_view {
  int rows;
  const int* rowptr;
  const int* cols;
  const double* vals;
};

// How a kernel loads: `hinted` is the current design (__ldcs for the streamed matrix, __ldg for x), `plain` uses
// ordinary loads, `x_last` streams the matrix with __ldcs and reads x with an L2 evict_last cache policy so that
// the 24 MB x stays resident in the 50 MB L2 while ~1 GB of matrix streams past it.
enum class loads { hinted, plain, x_last };

template <loads M>
__device__ __forceinline__ std::uint64_t x_policy() {
  std::uint64_t pol = 0;
  if constexpr (M == loads::x_last) asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
  return pol;
}

template <loads M>
__device__ __forceinline__ double load_x(const double* p, std::uint64_t pol) {
  if constexpr (M == loads::plain) {
    (void)pol;
    return *p;
  } else if constexpr (M == loads::hinted) {
    (void)pol;
    return __ldg(p);
  } else {
    double v;
    asm("ld.global.nc.L2::cache_hint.f64 %0, [%1], %2;" : "=d"(v) : "l"(p), "l"(pol));
    return v;
  }
}

template <loads M, typename T>
__device__ __forceinline__ T load_stream(const T* p) {
  if constexpr (M == loads::plain)
    return *p;
  else
    return __ldcs(p);
}

template <loads M>
__device__ __forceinline__ int load_offset(const int* p) {
  if constexpr (M == loads::plain)
    return *p;
  else
    return __ldg(p);
}

// ---------------------------------------------------------------------------------------------------------------
// Ceiling kernels.

__global__ void fill_kernel(double* a, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    a[i] = 1.0 + 1e-9 * double(i & 1023);
}

// Grid-stride sum with 16-byte loads, 4 in flight per thread; one partial per warp is stored so nothing is elided.
__global__ void read_kernel(const double2* a, size_t n2, double* out) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (; i + 3 * stride < n2; i += 4 * stride) {
    const double2 v0 = a[i], v1 = a[i + stride], v2 = a[i + 2 * stride], v3 = a[i + 3 * stride];
    s0 += v0.x + v0.y;
    s1 += v1.x + v1.y;
    s2 += v2.x + v2.y;
    s3 += v3.x + v3.y;
  }
  for (; i < n2; i += stride) s0 += a[i].x + a[i].y;
  double s = (s0 + s1) + (s2 + s3);
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(full_mask, s, off);
  if ((threadIdx.x & 31) == 0) out[(blockIdx.x * size_t(blockDim.x) + threadIdx.x) / 32] = s;
}

// ---------------------------------------------------------------------------------------------------------------
// SpMV kernels. All take (csr_view, x, y) so that the driver can treat them uniformly.

// (a, b, f1) The current design: flat grid, T lanes per row, strided over the row, shuffle-reduced.
template <int T, loads M>
__global__ void spmv_vector(csr_view m, const double* x, double* y) {
  const std::uint64_t pol = x_policy<M>();
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = static_cast<int>(g / T), lane = static_cast<int>(g % T);
  double sum = 0;
  if (row < m.rows) {
    const int begin = load_offset<M>(m.rowptr + row), end = load_offset<M>(m.rowptr + row + 1);
#pragma unroll 4
    for (int j = begin + lane; j < end; j += T)
      sum += load_stream<M>(m.vals + j) * load_x<M>(x + load_stream<M>(m.cols + j), pol);
  }
  // No early exit above: every lane of the warp reaches the full-mask shuffle.
#pragma unroll
  for (int off = T / 2; off > 0; off >>= 1) sum += __shfl_down_sync(full_mask, sum, off, T);
  if (lane == 0 && row < m.rows) y[row] = sum;
}

// (e) Two consecutive rows per lane group; both rows' loads are issued before the adds (twice the loads in flight).
// Lanes past a row's end reload a valid entry of the pair's range and zero its product: no branch around loads.
template <int T, loads M>
__global__ void spmv_vector2(csr_view m, const double* x, double* y) {
  const std::uint64_t pol = x_policy<M>();
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  const int ra = static_cast<int>(g / T) * 2, lane = static_cast<int>(g % T);
  int p0 = 0, p1 = 0, p2 = 0;
  if (ra < m.rows) {
    p0 = load_offset<M>(m.rowptr + ra);
    p1 = load_offset<M>(m.rowptr + ra + 1);
    p2 = ra + 1 < m.rows ? load_offset<M>(m.rowptr + ra + 2) : p1;
  }
  double sa = 0, sb = 0;
  for (int ja = p0 + lane, jb = p1 + lane; ja < p1 || jb < p2; ja += T, jb += T) {
    const int ia = min(ja, p2 - 1), ib = min(jb, p2 - 1);  // p2 > p0 inside the loop
    const int ca = load_stream<M>(m.cols + ia), cb = load_stream<M>(m.cols + ib);
    const double va = load_stream<M>(m.vals + ia), vb = load_stream<M>(m.vals + ib);
    const double xa = load_x<M>(x + ca, pol), xb = load_x<M>(x + cb, pol);
    sa += ja < p1 ? va * xa : 0.0;
    sb += jb < p2 ? vb * xb : 0.0;
  }
#pragma unroll
  for (int off = T / 2; off > 0; off >>= 1) {
    sa += __shfl_down_sync(full_mask, sa, off, T);
    sb += __shfl_down_sync(full_mask, sb, off, T);
  }
  if (lane == 0 && ra < m.rows) {
    y[ra] = sa;
    if (ra + 1 < m.rows) y[ra + 1] = sb;
  }
}

// Lanes 0..G load the G+1 row offsets of a warp's segment in one coalesced load and broadcast them.
template <int G>
__device__ __forceinline__ void segment_bounds(const csr_view& m, int r0, int lane, int (&b)[G + 1]) {
  int mine = 0;
  if (lane <= G) mine = __ldg(m.rowptr + min(r0 + lane, m.rows));
#pragma unroll
  for (int i = 0; i <= G; ++i) b[i] = __shfl_sync(full_mask, mine, i);
}

// Adds product p of entry j to the accumulator of its row, with selects (no dynamic register indexing).
template <int G>
__device__ __forceinline__ void add_to_row(double (&acc)[G], const int (&b)[G + 1], int j, double p) {
  if constexpr (G == 1) {
    acc[0] += p;
  } else {
#pragma unroll
    for (int i = 0; i < G; ++i) acc[i] += (j >= b[i] && j < b[i + 1]) ? p : 0.0;
  }
}

__host__ __device__ constexpr int log2_of(int v) {
  return v <= 1 ? 0 : 1 + log2_of(v / 2);
}

// Reduces the G per-lane accumulators across the warp and writes rows r0..r0+G-1.
// Plain: G full xor-butterflies (5G shuffles). Transpose: each butterfly step halves the live accumulators
// (lane bit 16 keeps the upper half of the rows, bit 8 the upper quarter, ...), G-1 + 5-log2(G) shuffles; the
// row of lane l ends up as l >> (5 - log2 G).
template <int G, bool transpose>
__device__ __forceinline__ void reduce_and_store(double (&acc)[G], int lane, int r0, int rows, double* y) {
  if constexpr (!transpose) {
#pragma unroll
    for (int i = 0; i < G; ++i)
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) acc[i] += __shfl_xor_sync(full_mask, acc[i], off);
    double mine = acc[0];
#pragma unroll
    for (int i = 1; i < G; ++i) mine = lane == i ? acc[i] : mine;
    if (lane < G && r0 + lane < rows) y[r0 + lane] = mine;
  } else {
    constexpr int lg = log2_of(G);
    static_assert((1 << lg) == G && G <= 32, "G must be a power of two <= 32");
#pragma unroll
    for (int s = 0; s < lg; ++s) {
      const int half = G >> (s + 1), bit = 16 >> s;
      const bool upper = (lane & bit) != 0;
#pragma unroll
      for (int i = 0; i < half; ++i) {
        const double keep = upper ? acc[i + half] : acc[i];
        const double send = upper ? acc[i] : acc[i + half];
        acc[i] = keep + __shfl_xor_sync(full_mask, send, bit);
      }
    }
#pragma unroll
    for (int off = 16 >> lg; off > 0; off >>= 1) acc[0] += __shfl_xor_sync(full_mask, acc[0], off);
    const int row = r0 + (lane >> (5 - lg));
    if ((lane & ((32 >> lg) - 1)) == 0 && row < rows) y[row] = acc[0];
  }
}

// (c) One warp per G consecutive rows: the segment's nonzeros are read fully coalesced by all 32 lanes, U strides
// per iteration (so U loads of each stream are in flight even for short segments); strides past the segment end
// reload its last entry and drop the product, which keeps the loads unconditional (no branch between them).
template <int G, bool transpose>
__global__ void spmv_warp_segment(csr_view m, const double* x, double* y) {
  constexpr int U = 4;
  const int lane = threadIdx.x & 31;
  const int r0 = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5) * G;
  if (r0 >= m.rows) return;  // warp-uniform
  int b[G + 1];
  segment_bounds<G>(m, r0, lane, b);
  const int last = b[G] - 1;
  double acc[G] = {};
  for (int j = b[0] + lane; j <= last; j += 32 * U) {
    int c[U];
    double v[U], xv[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      c[u] = __ldcs(m.cols + min(j + 32 * u, last));
      v[u] = __ldcs(m.vals + min(j + 32 * u, last));
    }
#pragma unroll
    for (int u = 0; u < U; ++u) xv[u] = __ldg(x + c[u]);
#pragma unroll
    for (int u = 0; u < U; ++u) add_to_row<G>(acc, b, j + 32 * u, j + 32 * u <= last ? v[u] * xv[u] : 0.0);
  }
  reduce_and_store<G, transpose>(acc, lane, r0, m.rows, y);
}

// (f2) warp_segment with 128-bit value loads and 64-bit column loads: pairs (a+2p, a+2p+1) from the first even
// index a of the segment (cudaMalloc bases are 256-byte aligned, so even indices are 16/8-byte aligned); an odd
// head entry goes to lane 0 and an odd tail entry to lane 1 as scalar loads whose x load is deferred past the loop.
template <int G, loads M>
__global__ void spmv_segment_vec(csr_view m, const double* x, double* y) {
  constexpr int U = 2;  // pairs per lane per iteration: 4 products in flight
  const std::uint64_t pol = x_policy<M>();
  const int lane = threadIdx.x & 31;
  const int r0 = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5) * G;
  if (r0 >= m.rows) return;  // warp-uniform
  int b[G + 1];
  segment_bounds<G>(m, r0, lane, b);
  const int sb = b[0], se = b[G];
  const bool head = (sb & 1) && sb < se;
  const int a = head ? sb + 1 : sb;
  const int np = (se - a) >> 1;
  const bool tail = ((se - a) & 1) != 0;
  int je = -1;
  if (lane == 0 && head) je = sb;
  if (lane == 1 && tail) je = se - 1;
  const int ce = je >= 0 ? __ldcs(m.cols + je) : 0;
  const double ve = je >= 0 ? __ldcs(m.vals + je) : 0.0;
  const double2* v2 = reinterpret_cast<const double2*>(m.vals + a);
  const int2* c2 = reinterpret_cast<const int2*>(m.cols + a);
  double acc[G] = {};
  for (int p = lane; p < np; p += 32 * U) {
    int2 c[U];
    double2 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {  // pairs past the end reload the last pair; their products are dropped below
      c[u] = __ldcs(c2 + min(p + 32 * u, np - 1));
      v[u] = __ldcs(v2 + min(p + 32 * u, np - 1));
    }
    double x0[U], x1[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      x0[u] = load_x<M>(x + c[u].x, pol);
      x1[u] = load_x<M>(x + c[u].y, pol);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int j = a + 2 * (p + 32 * u);
      const bool ok = p + 32 * u < np;
      add_to_row<G>(acc, b, j, ok ? v[u].x * x0[u] : 0.0);
      add_to_row<G>(acc, b, j + 1, ok ? v[u].y * x1[u] : 0.0);
    }
  }
  if (je >= 0) add_to_row<G>(acc, b, je, ve * load_x<M>(x + ce, pol));
  reduce_and_store<G, true>(acc, lane, r0, m.rows, y);
}

// (d) CSR-Stream (Greathouse & Daga 2014): a 256-thread block owns R rows; phase 1 forms all products of the
// block's contiguous nonzero range coalesced into shared memory, phase 2 reduces each row with 256/R threads.
// Dynamic shared memory holds R * CAP doubles (CAP = the assumed longest row, checked on the host; a block whose
// range would not fit skips its rows, which leaves them NaN and fails verification instead of corrupting memory).
// M = plain: ordinary loads, as the portable Kokkos kernel issues them (the bisection between the two).
template <int R, int CAP, loads M = loads::hinted>
__global__ void __launch_bounds__(256) spmv_stream(csr_view m, const double* x, double* y) {
  static_assert(256 % R == 0 && R < 256, "R must divide 256");
  constexpr int TP = 256 / R, U = 4;
  extern __shared__ double products[];
  __shared__ int offsets[R + 1];
  const int t = threadIdx.x, r0 = static_cast<int>(blockIdx.x) * R;
  if (t <= R) offsets[t] = load_offset<M>(m.rowptr + min(r0 + t, m.rows));
  __syncthreads();
  const int base = offsets[0], count = offsets[R] - base;
  if (count > R * CAP) return;  // block-uniform
  for (int j = t; j < count; j += 256 * U) {
    int c[U];
    double v[U], xv[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {  // strides past the end reload the last entry (unconditional loads); not stored
      c[u] = load_stream<M>(m.cols + base + min(j + 256 * u, count - 1));
      v[u] = load_stream<M>(m.vals + base + min(j + 256 * u, count - 1));
    }
#pragma unroll
    for (int u = 0; u < U; ++u) xv[u] = load_x<M>(x + c[u], 0);
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (j + 256 * u < count) products[j + 256 * u] = v[u] * xv[u];
  }
  __syncthreads();
  const int local = t / TP, lane = t % TP;
  const int end = offsets[local + 1] - base;
  double sum = 0;
  for (int j = offsets[local] - base + lane; j < end; j += TP) sum += products[j];
#pragma unroll
  for (int off = TP / 2; off > 0; off >>= 1) sum += __shfl_down_sync(full_mask, sum, off, TP);
  if (lane == 0 && r0 + local < m.rows) y[r0 + local] = sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Driver.

using spmv_kernel = void (*)(csr_view, const double*, double*);

struct variant {
  std::string name;
  spmv_kernel kernel = nullptr;
  int block = 256;
  long long grid = 0;
  size_t smem = 0;
  std::string skip;  // non-empty: not run, with the reason
};

variant make_variant(std::string name, spmv_kernel kernel, int block, long long grid, size_t smem = 0) {
  variant v;
  v.name = std::move(name);
  v.kernel = kernel;
  v.block = block;
  v.grid = grid;
  v.smem = smem;
  return v;
}

long long ceil_div(long long a, long long b) {
  return (a + b - 1) / b;
}

template <int T, loads M>
variant vector_variant(int rows, int block, const char* suffix = "") {
  return make_variant("vector<" + std::to_string(T) + ">" + suffix, spmv_vector<T, M>, block,
                      ceil_div(static_cast<long long>(rows) * T, block));
}
template <int T>
variant vector2_variant(int rows) {
  return make_variant("vector2<" + std::to_string(T) + ">", spmv_vector2<T, loads::hinted>, 256,
                      ceil_div(ceil_div(rows, 2) * T, 256));
}
template <int G, bool transpose>
variant segment_variant(int rows) {
  return make_variant("warp_segment<" + std::to_string(G) + ">" + (transpose ? " tr" : ""),
                      spmv_warp_segment<G, transpose>, 256, ceil_div(ceil_div(rows, G) * 32, 256));
}
template <int G, loads M>
variant segment_vec_variant(int rows) {
  return make_variant("seg_vec128<" + std::to_string(G) + "> tr" + (M == loads::x_last ? " x_last" : ""),
                      spmv_segment_vec<G, M>, 256, ceil_div(ceil_div(rows, G) * 32, 256));
}
template <int R, int CAP, loads M = loads::hinted>
variant stream_variant(const host_csr& a) {
  variant v =
      make_variant("stream<" + std::to_string(R) + ">" + (M == loads::plain ? " plain" : ""), spmv_stream<R, CAP, M>,
                   256, ceil_div(a.rows, R), static_cast<size_t>(R) * CAP * sizeof(double));
  if (a.max_row_len > CAP)
    v.skip = "longest row " + std::to_string(a.max_row_len) + " > assumed " + std::to_string(CAP);
  return v;
}

std::vector<variant> variants_for(const host_csr& a, int comps) {
  const int rows = a.rows;
  std::vector<variant> v;
  const int blocks[] = {128, 256, 512};
  if (comps == 1) {
    for (int b : blocks) v.push_back(vector_variant<4, loads::hinted>(rows, b));
    for (int b : blocks) v.push_back(vector_variant<8, loads::hinted>(rows, b));
    for (int b : blocks) v.push_back(vector_variant<16, loads::hinted>(rows, b));
    v.push_back(vector_variant<8, loads::plain>(rows, 256, " plain"));
    v.push_back(segment_variant<2, false>(rows));
    v.push_back(segment_variant<4, false>(rows));
    v.push_back(segment_variant<8, false>(rows));
    v.push_back(segment_variant<2, true>(rows));
    v.push_back(segment_variant<4, true>(rows));
    v.push_back(segment_variant<8, true>(rows));
    v.push_back(stream_variant<64, 32>(a));
    v.push_back(stream_variant<128, 32>(a));
    v.push_back(stream_variant<64, 32, loads::plain>(a));
    v.push_back(vector2_variant<8>(rows));
    v.push_back(vector_variant<8, loads::x_last>(rows, 256, " x_last"));
    v.push_back(segment_vec_variant<4, loads::hinted>(rows));
    v.push_back(segment_vec_variant<8, loads::hinted>(rows));
    v.push_back(segment_vec_variant<4, loads::x_last>(rows));
    v.push_back(segment_vec_variant<8, loads::x_last>(rows));
  } else {
    for (int b : blocks) v.push_back(vector_variant<8, loads::hinted>(rows, b));
    for (int b : blocks) v.push_back(vector_variant<16, loads::hinted>(rows, b));
    for (int b : blocks) v.push_back(vector_variant<32, loads::hinted>(rows, b));
    v.push_back(vector_variant<16, loads::plain>(rows, 256, " plain"));
    v.push_back(segment_variant<1, false>(rows));
    v.push_back(segment_variant<2, false>(rows));
    v.push_back(segment_variant<2, true>(rows));
    v.push_back(stream_variant<32, 96>(a));
    v.push_back(vector2_variant<16>(rows));
    v.push_back(vector_variant<16, loads::x_last>(rows, 256, " x_last"));
    v.push_back(segment_vec_variant<1, loads::hinted>(rows));
    v.push_back(segment_vec_variant<2, loads::hinted>(rows));
    v.push_back(segment_vec_variant<2, loads::x_last>(rows));
  }
  for (auto& x : v)
    if (x.skip.empty() && (x.grid > INT_MAX || x.grid * x.block > INT_MAX))
      x.skip = "launch of " + std::to_string(x.grid) + " blocks exceeds the int range of the kernel's indices";
  return v;
}

struct timing {
  double median = 0, min = 0, max = 0;
};

// 3 warm-up calls, then `reps` calls each bracketed by its own event pair.
template <typename F>
timing time_calls(F call, cudaStream_t s, int reps) {
  for (int w = 0; w < 3; ++w) {
    call();
    CHECK_CUDA(cudaGetLastError());
  }
  std::vector<cudaEvent_t> start(reps), stop(reps);
  for (int r = 0; r < reps; ++r) {
    CHECK_CUDA(cudaEventCreate(&start[r]));
    CHECK_CUDA(cudaEventCreate(&stop[r]));
  }
  for (int r = 0; r < reps; ++r) {
    CHECK_CUDA(cudaEventRecord(start[r], s));
    call();
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaEventRecord(stop[r], s));
  }
  CHECK_CUDA(cudaStreamSynchronize(s));
  std::vector<double> ms(reps);
  for (int r = 0; r < reps; ++r) {
    float t = 0;
    CHECK_CUDA(cudaEventElapsedTime(&t, start[r], stop[r]));
    ms[r] = t;
    CHECK_CUDA(cudaEventDestroy(start[r]));
    CHECK_CUDA(cudaEventDestroy(stop[r]));
  }
  std::sort(ms.begin(), ms.end());
  timing out;
  out.min = ms.front();
  out.max = ms.back();
  out.median = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
  return out;
}

double gbps(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

struct options {
  bool run27 = true, run81 = true;
  int n = 0;  // 0: per-matrix default
  int reps = 30;
  std::string csv;
};

[[noreturn]] void usage(const char* prog, const std::string& why) {
  if (!why.empty()) std::fprintf(stderr, "error: %s\n", why.c_str());
  std::fprintf(stderr, "usage: %s [--matrix 27|81|both] [--n N] [--reps R] [--csv FILE]\n", prog);
  std::exit(why.empty() ? 0 : 1);
}

int parse_int(const char* prog, const std::string& flag, const char* s, int lo, int hi) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi)
    usage(prog,
          flag + " needs an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + s + "'");
  return static_cast<int>(v);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") usage(argv[0], "");
    if (i + 1 >= argc) usage(argv[0], "missing value after " + a);
    const char* v = argv[++i];
    if (a == "--matrix") {
      const std::string m = v;
      if (m == "27")
        o.run81 = false;
      else if (m == "81")
        o.run27 = false;
      else if (m != "both")
        usage(argv[0], "--matrix must be 27, 81 or both");
    } else if (a == "--n") {
      o.n = parse_int(argv[0], a, v, 2, 1200);
    } else if (a == "--reps") {
      o.reps = parse_int(argv[0], a, v, 1, 100000);
    } else if (a == "--csv") {
      o.csv = v;
    } else {
      usage(argv[0], "unknown option " + a);
    }
  }
  return o;
}

struct context {
  cudaDeviceProp prop{};
  cudaStream_t stream = nullptr;
  int reps = 30;
  FILE* csv = nullptr;
  int failures = 0;
};

struct ceilings {
  double copy_gbps = 0, read_gbps = 0;
};

void csv_line(context& c, const char* matrix, const host_csr& a, const std::string& name, int block, const timing& t,
              double eff, const ceilings& ce, double err, int regs, int blocks_per_sm) {
  if (c.csv == nullptr) return;
  std::fprintf(c.csv, "%s,%d,%lld,%s,%d,%.6f,%.6f,%.6f,%.2f,%.4f,%.4f,%.3e,%d,%d\n", matrix, a.rows, a.nnz,
               name.c_str(), block, t.median, t.min, t.max, eff, ce.copy_gbps > 0 ? eff / ce.copy_gbps : 0.0,
               ce.read_gbps > 0 ? eff / ce.read_gbps : 0.0, err, regs, blocks_per_sm);
  std::fflush(c.csv);
}

ceilings measure_ceilings(context& c, const char* matrix, const host_csr& a) {
  constexpr size_t bytes = size_t(2) << 30;  // 2 GiB
  const size_t n = bytes / sizeof(double);
  ceilings out;
  g_stage = std::string(matrix) + ": ceilings";
  device_array<double> src(n, "ceiling source (2 GiB)"), dst(n, "ceiling destination (2 GiB)");
  fill_kernel<<<4 * c.prop.multiProcessorCount, 256, 0, c.stream>>>(src.p, n);
  CHECK_CUDA(cudaGetLastError());

  const timing tc = time_calls(
      [&] { CHECK_CUDA(cudaMemcpyAsync(dst.p, src.p, bytes, cudaMemcpyDeviceToDevice, c.stream)); }, c.stream, c.reps);
  out.copy_gbps = gbps(2.0 * bytes, tc.median);

  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_kernel, 256, 0));
  const int grid = std::max(1, per_sm) * c.prop.multiProcessorCount;
  cudaFuncAttributes attr{};
  CHECK_CUDA(cudaFuncGetAttributes(&attr, read_kernel));
  device_array<double> partial(static_cast<size_t>(grid) * 256 / 32, "read partial sums");
  const timing tr = time_calls(
      [&] { read_kernel<<<grid, 256, 0, c.stream>>>(reinterpret_cast<const double2*>(src.p), n / 2, partial.p); },
      c.stream, c.reps);
  out.read_gbps = gbps(double(bytes), tr.median);
  CHECK_CUDA(cudaStreamSynchronize(c.stream));

  std::printf("  %-26s %5s %9.4f %8.4f %8.4f %9.1f  (device-to-device memcpy of 2 GiB, read+write bytes)\n", "copy",
              "-", tc.median, tc.min, tc.max, out.copy_gbps);
  std::printf("  %-26s %5d %9.4f %8.4f %8.4f %9.1f  (sum of 2 GiB, 16-byte loads, %d blocks, %d regs)\n", "read", 256,
              tr.median, tr.min, tr.max, out.read_gbps, grid, attr.numRegs);
  csv_line(c, matrix, a, "copy", 0, tc, out.copy_gbps, out, 0.0, 0, 0);
  csv_line(c, matrix, a, "read", 256, tr, out.read_gbps, out, 0.0, attr.numRegs, per_sm);
  return out;
}

struct best_result {
  std::string name;
  double gbps = 0;
};

void run_matrix(context& c, int comps, int n) {
  const char* matrix = comps == 1 ? "27/row" : "81/row";
  g_stage = std::string(matrix) + ": host build";
  auto t0 = std::chrono::steady_clock::now();
  const host_csr a = build_matrix(n, comps);
  const double t_build = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const std::vector<double> x = make_x(a.rows);
  const std::vector<double> y_ref = reference_spmv(a, x);
  const double t_ref = seconds_since(t0);
  const double bytes = 12.0 * a.nnz + 4.0 * (a.rows + 1.0) + 8.0 * a.rows + 8.0 * a.rows;
  std::printf("\n=== matrix %s: n = %d, rows = %d, nnz = %lld (%.2f/row, longest %d), %.3f GB per SpMV\n", matrix, n,
              a.rows, a.nnz, double(a.nnz) / a.rows, a.max_row_len, bytes / 1e9);
  std::printf("    host build %.2f s, x + float64 reference %.2f s\n", t_build, t_ref);
  std::printf("  %-26s %5s %9s %8s %8s %9s %6s %6s %11s %5s %6s %5s\n", "variant", "block", "median_ms", "min_ms",
              "max_ms", "eff_GB/s", "%copy", "%read", "max_rel_err", "regs", "blk/SM", "occ%");
  std::fflush(stdout);

  const ceilings ce = measure_ceilings(c, matrix, a);
  std::fflush(stdout);

  g_stage = std::string(matrix) + ": upload";
  t0 = std::chrono::steady_clock::now();
  device_array<int> d_rowptr(a.rowptr.size(), "row offsets"), d_cols(static_cast<size_t>(a.nnz), "column indices");
  device_array<double> d_vals(static_cast<size_t>(a.nnz), "values"), d_x(x.size(), "x"), d_y(x.size(), "y");
  if (reinterpret_cast<std::uintptr_t>(d_vals.p) % 16 || reinterpret_cast<std::uintptr_t>(d_cols.p) % 16)
    fail("device arrays are not 16-byte aligned (the 128-bit load variants assume it)");
  CHECK_CUDA(cudaMemcpy(d_rowptr.p, a.rowptr.data(), a.rowptr.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_cols.p, a.cols.get(), a.nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_vals.p, a.vals.get(), a.nnz * sizeof(double), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_x.p, x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice));
  const double t_up = seconds_since(t0);
  const csr_view m{a.rows, d_rowptr.p, d_cols.p, d_vals.p};

  std::vector<double> y(x.size());
  best_result best;
  for (const variant& v : variants_for(a, comps)) {
    g_stage = std::string(matrix) + ": " + v.name + "/b" + std::to_string(v.block);
    if (!v.skip.empty()) {
      std::printf("  %-26s %5d SKIPPED: %s\n", v.name.c_str(), v.block, v.skip.c_str());
      continue;
    }
    const void* fn = reinterpret_cast<const void*>(v.kernel);
    if (v.smem > 48 * 1024)
      CHECK_CUDA(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(v.smem)));
    cudaFuncAttributes attr{};
    CHECK_CUDA(cudaFuncGetAttributes(&attr, fn));
    int per_sm = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, v.block, v.smem));
    const double occupancy = 100.0 * per_sm * v.block / c.prop.maxThreadsPerMultiProcessor;

    CHECK_CUDA(cudaMemsetAsync(d_y.p, 0xff, x.size() * sizeof(double), c.stream));  // NaN: unwritten rows fail
    const spmv_kernel k = v.kernel;
    const unsigned grid = static_cast<unsigned>(v.grid);
    const timing t = time_calls([&] { k<<<grid, v.block, v.smem, c.stream>>>(m, d_x.p, d_y.p); }, c.stream, c.reps);
    CHECK_CUDA(cudaMemcpyAsync(y.data(), d_y.p, y.size() * sizeof(double), cudaMemcpyDeviceToHost, c.stream));
    CHECK_CUDA(cudaStreamSynchronize(c.stream));
    const double err = max_rel_error(y, y_ref);
    const bool ok = err < 1e-12;
    const double eff = gbps(bytes, t.median);
    std::printf("  %-26s %5d %9.4f %8.4f %8.4f %9.1f %6.1f %6.1f %11.2e %5d %6d %5.1f%s\n", v.name.c_str(), v.block,
                t.median, t.min, t.max, eff, 100 * eff / ce.copy_gbps, 100 * eff / ce.read_gbps, err, attr.numRegs,
                per_sm, occupancy, ok ? "" : "   <<<<<<<<<< FAIL: wrong result");
    std::fflush(stdout);
    csv_line(c, matrix, a, v.name, v.block, t, eff, ce, err, attr.numRegs, per_sm);
    if (!ok) {
      ++c.failures;
      std::fprintf(stderr, "FAIL: %s %s/b%d max_rel_err %.3e >= 1e-12\n", matrix, v.name.c_str(), v.block, err);
    } else if (eff > best.gbps) {
      best = {v.name + "/b" + std::to_string(v.block), eff};
    }
  }
  std::printf("  upload %.2f s; best verified: %s at %.1f GB/s (%.1f%% of copy, %.1f%% of read)%s\n", t_up,
              best.name.c_str(), best.gbps, 100 * best.gbps / ce.copy_gbps, 100 * best.gbps / ce.read_gbps,
              comps == 1 ? (best.gbps >= 3000 ? "; meets the 3.0 TB/s target" : "; below the 3.0 TB/s target") : "");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  context c;
  c.reps = o.reps;

  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  if (count == 0) fail("no CUDA device visible");
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaGetDeviceProperties(&c.prop, 0));
  if (c.prop.major < 9)
    fail(std::string("device 0 (") + c.prop.name + ") is sm_" + std::to_string(c.prop.major) +
         std::to_string(c.prop.minor) + "; this binary is built for sm_90");
  int mem_clock_khz = 0, bus_bits = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
  // Nominal peak = DDR clock x bus width; 0 when the driver does not report the clock.
  std::printf("device: %s (sm_%d%d), %d SMs, L2 %.0f MB, %.1f GB memory, nominal peak %.0f GB/s\n", c.prop.name,
              c.prop.major, c.prop.minor, c.prop.multiProcessorCount, c.prop.l2CacheSize / 1e6,
              c.prop.totalGlobalMem / 1e9, 2.0 * mem_clock_khz * 1e3 * bus_bits / 8 / 1e9);
  std::printf("reps %d, %u host threads\n", o.reps, std::max(1u, std::thread::hardware_concurrency()));
  std::printf("effective GB/s = (12 nnz + 4 (rows+1) + 8 rows + 8 rows) / median time; pass: max_rel_err < 1e-12\n");
  CHECK_CUDA(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));

  if (!o.csv.empty()) {
    c.csv = std::fopen(o.csv.c_str(), "w");
    if (c.csv == nullptr) fail("cannot open --csv file '" + o.csv + "': " + std::strerror(errno));
    std::fprintf(c.csv,
                 "matrix,rows,nnz,variant,block,median_ms,min_ms,max_ms,eff_GBps,frac_copy,frac_read,max_rel_err,"
                 "regs,blocks_per_sm\n");
  }

  if (o.run27) run_matrix(c, 1, o.n > 0 ? o.n : 145);
  if (o.run81) run_matrix(c, 3, o.n > 0 ? o.n : 100);

  g_stage = "shutdown";
  CHECK_CUDA(cudaStreamDestroy(c.stream));
  if (c.csv != nullptr) std::fclose(c.csv);
  if (c.failures > 0) {
    std::printf("\n*** %d variant(s) FAILED verification (see the FAIL lines above) ***\n", c.failures);
    return 1;
  }
  std::printf("\nall variants verified (max_rel_err < 1e-12)\n");
  return 0;
}
