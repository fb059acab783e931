// Probe for direct Coulomb summation on the H200 (docs/potential.md), standalone CUDA without Kokkos, so that the
// design questions can be answered in one device call:
//   1. What rate does the special-function unit reach on this card, and at what SM clock (clock64 over
//      %globaltimer inside the kernel)? That is the ceiling the kernels chase, measured rather than assumed.
//   2. What does the pair loop reach when the atoms cost nothing to fetch (16 atoms at immediate constant-bank
//      addresses, re-used)? That is the ceiling of the instruction mix itself.
//   3. Why does the constant-memory design (VMD/PMPP) collapse with some block shapes, coarsening factors and pass
//      sizes? Swept here with the warps of a block kept in step by barriers or not.
//   4. Atoms from global memory through the read-only path (uniform __ldg) and from shared-memory tiles.
//   5. Hybrid MUFU + software rsqrt shares on the shared-memory design.
// Every variant is checked against a float64 sum at sampled points. Build (no GPU needed; POTENTIAL_PARTS=probe
// perf/device/potential.sh builds and runs it):
//   nvcc -O3 -std=c++17 -arch=sm_90 -use_fast_math -lineinfo -o potential_probe \
//        perf/potential/cuda/potential_probe.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#define CHECK(call)                                                                               \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

namespace {

constexpr int max_pass = 1920;
constexpr float r2_min = 1e-8f;
__constant__ float4 c_atoms[max_pass];

__device__ __forceinline__ float mufu(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float soft(float x) {
  float y = __int_as_float(0x5f375a86 - (__float_as_int(x) >> 1));
  const float h = 0.5f * x;
  y = y * fmaf(-h, y * y, 1.5f);
  y = y * fmaf(-h, y * y, 1.5f);
  return y;
}
template <int S, int c>
__device__ __forceinline__ float pick(float x) {
  if constexpr (c < S)
    return soft(x);
  else
    return mufu(x);
}

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// 1. Independent rsqrt chains; thread 0 of each block records cycles and nanoseconds.
__global__ void mufu_peak(float* out, int iters, unsigned long long* clk) {
  unsigned long long c0 = clock64(), t0 = globaltimer();
  float a[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) a[j] = 1.0f + 0.001f * (threadIdx.x + j);
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) a[j] = mufu(a[j]);
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += a[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0) {
    clk[2 * blockIdx.x] = clock64() - c0;
    clk[2 * blockIdx.x + 1] = globaltimer() - t0;
  }
}

template <int S, int C, int... Cs>
__device__ __forceinline__ void pairs(std::integer_sequence<int, Cs...>, const float (&x)[C], float dyz2, float ax,
                                      float q, float (&v)[C]) {
  ((v[Cs] = fmaf(q, pick<S, Cs>(fmaf(x[Cs] - ax, x[Cs] - ax, dyz2)), v[Cs])), ...);
}

// One atom against C points of a row (strided by 32); S of them in software. Same singularity rule as ppl.
template <int C, int S>
__device__ __forceinline__ void atom_row(const float (&x)[C], float y, float z, float4 at, float (&v)[C]) {
  const float dy = y - at.y, dz = z - at.z;
  const float dyz2 = dy * dy + dz * dz;
  if (dyz2 >= r2_min) {
    pairs<S>(std::make_integer_sequence<int, C>{}, x, dyz2, at.x, at.w, v);
  } else {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const float dx = x[c] - at.x, r2 = dx * dx + dyz2;
      v[c] += r2 < r2_min ? 0.0f : at.w * mufu(r2);
    }
  }
}

struct grid_args {
  float* out;
  int nx, ny, nrows, blocks_x;
  float h;
};

template <int C>
__device__ __forceinline__ bool setup(const grid_args& g, int& row, int& i0, float& y, float& z, float (&x)[C],
                                      float (&v)[C]) {
  const int bx = blockIdx.x % g.blocks_x;
  row = (blockIdx.x / g.blocks_x) * blockDim.y + threadIdx.y;
  i0 = bx * 32 * C + threadIdx.x;
  const int r = min(row, g.nrows - 1);  // padded rows compute on a clamped row and store nothing
  y = float(r % g.ny) * g.h;
  z = float(r / g.ny) * g.h;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    x[c] = float(i0 + 32 * c) * g.h;
    v[c] = 0.0f;
  }
  return row < g.nrows;
}

template <int C>
__device__ __forceinline__ void store(const grid_args& g, bool live, int row, int i0, const float (&v)[C],
                                      bool accumulate) {
  if (!live) return;
  float* o = g.out + static_cast<long long>(row) * g.nx;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const int i = i0 + 32 * c;
    if (i < g.nx) o[i] = accumulate ? o[i] + v[c] : v[c];
  }
}

// 2. The instruction-mix ceiling: 16 atoms at immediate constant-bank addresses, swept `reps` times (the result
// is reps x the potential of the first 16 atoms; checked against that).
template <int C, int S>
__global__ void mix_ceiling(grid_args g, int reps, unsigned long long* clk) {
  unsigned long long c0 = clock64(), t0 = globaltimer();
  int row, i0;
  float y, z, x[C], v[C];
  const bool live = setup<C>(g, row, i0, y, z, x, v);
  for (int r = 0; r < reps; ++r) {
#pragma unroll
    for (int a = 0; a < 16; ++a) atom_row<C, S>(x, y, z, c_atoms[a], v);
  }
  store<C>(g, live, row, i0, v, false);
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    clk[2 * blockIdx.x] = clock64() - c0;
    clk[2 * blockIdx.x + 1] = globaltimer() - t0;
  }
}

// 3. The VMD/PMPP design: atoms of one pass in constant memory, dynamic index. `lockstep` > 0 puts a barrier
// every `lockstep` atoms so that the warps of a block sweep the pass together.
template <int C>
__global__ void constmem(grid_args g, int count, bool accumulate, int lockstep) {
  int row, i0;
  float y, z, x[C], v[C];
  const bool live = setup<C>(g, row, i0, y, z, x, v);
  if (lockstep > 0) {
    for (int a0 = 0; a0 < count; a0 += lockstep) {
      const int a1 = min(count, a0 + lockstep);
#pragma unroll 4
      for (int a = a0; a < a1; ++a) atom_row<C, 0>(x, y, z, c_atoms[a], v);
      __syncthreads();
    }
  } else {
#pragma unroll 4
    for (int a = 0; a < count; ++a) atom_row<C, 0>(x, y, z, c_atoms[a], v);
  }
  store<C>(g, live, row, i0, v, accumulate);
}

// 4a. Atoms from global memory, warp-uniform address through the read-only path.
template <int C>
__global__ void uniform_ldg(grid_args g, const float4* __restrict__ atoms, int n) {
  int row, i0;
  float y, z, x[C], v[C];
  const bool live = setup<C>(g, row, i0, y, z, x, v);
#pragma unroll 4
  for (int a = 0; a < n; ++a) atom_row<C, 0>(x, y, z, __ldg(atoms + a), v);
  store<C>(g, live, row, i0, v, false);
}

// 4b/5. Shared-memory tiles of `tile` atoms (dynamic shared memory), S of C points in software.
template <int C, int S>
__global__ void smem_tile(grid_args g, const float4* __restrict__ atoms, int n, int tile) {
  extern __shared__ float4 s_atoms[];
  int row, i0;
  float y, z, x[C], v[C];
  const bool live = setup<C>(g, row, i0, y, z, x, v);
  const int tid = threadIdx.y * 32 + threadIdx.x, nt = 32 * blockDim.y;
  for (int first = 0; first < n; first += tile) {
    const int cnt = min(tile, n - first);
    __syncthreads();
    for (int k = tid; k < cnt; k += nt) s_atoms[k] = atoms[first + k];
    __syncthreads();
#pragma unroll 4
    for (int a = 0; a < cnt; ++a) atom_row<C, S>(x, y, z, s_atoms[a], v);
  }
  store<C>(g, live, row, i0, v, false);
}

struct problem {
  int nx = 256, ny = 256, nz = 64;
  float h = 0.5f;
  std::vector<float4> atoms;
  long long points() const { return 1LL * nx * ny * nz; }
};

double reference_at(const problem& p, int n_atoms, int i, int j, int k) {
  const double x = i * double(p.h), y = j * double(p.h), z = k * double(p.h);
  double v = 0;
  for (int a = 0; a < n_atoms; ++a) {
    const double dx = x - p.atoms[a].x, dy = y - p.atoms[a].y, dz = z - p.atoms[a].z;
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= 1e-8) v += p.atoms[a].w / std::sqrt(r2);
  }
  return v;
}

// Relative L2 error over 2000 sampled points; `scale` multiplies the reference (mix_ceiling sums reps times).
double sampled_error(const problem& p, int n_atoms, const std::vector<float>& got, double scale) {
  std::mt19937 rng(7);
  double num = 0, den = 0;
  for (int s = 0; s < 2000; ++s) {
    const int i = rng() % p.nx, j = rng() % p.ny, k = rng() % p.nz;
    const double ref = scale * reference_at(p, n_atoms, i, j, k);
    const double d = got[(static_cast<size_t>(k) * p.ny + j) * p.nx + i] - ref;
    num += d * d;
    den += ref * ref;
  }
  return std::sqrt(num / den);
}

struct timing {
  double median_ms, min_ms, max_ms;
};

template <class F>
timing time_it(F&& launch, int reps) {
  launch();  // warm-up
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

double clock_ghz(const std::vector<unsigned long long>& clk) {
  double c = 0, t = 0;
  for (size_t b = 0; b + 1 < clk.size(); b += 2) {
    c += double(clk[b]);
    t += double(clk[b + 1]);
  }
  return t > 0 ? c / t : 0;
}

struct device_info {
  int sms;
  double rated_ghz;
};

FILE* csv = nullptr;
void report(const device_info& d, const std::string& name, const timing& t, double evals, double err, double ghz = 0) {
  const double rate = evals / (t.median_ms * 1e-3);
  const double rated = 16.0 * d.sms * d.rated_ghz * 1e9;
  std::printf("%-44s %9.3f ms [%8.3f, %8.3f]  %.3e evals/s  %5.1f%% of rated  err %.1e%s\n", name.c_str(), t.median_ms,
              t.min_ms, t.max_ms, rate, 100 * rate / rated, err,
              ghz > 0 ? (" clock " + std::to_string(ghz) + " GHz").c_str() : "");
  if (csv)
    std::fprintf(csv, "%s,%.5f,%.5f,%.5f,%.6e,%.4f,%.3e,%.4f\n", name.c_str(), t.median_ms, t.min_ms, t.max_ms, rate,
                 rate / rated, err, ghz);
}

}  // namespace

int main(int argc, char** argv) {
  int n_atoms = 40000, reps = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--atoms" && i + 1 < argc)
      n_atoms = std::atoi(argv[++i]);
    else if (a == "--reps" && i + 1 < argc)
      reps = std::atoi(argv[++i]);
    else if (a == "--csv" && i + 1 < argc)
      csv = std::fopen(argv[++i], "w");
    else {
      std::printf("usage: potential_probe [--atoms N] [--reps R] [--csv FILE]\n");
      return a == "--help" ? 0 : 2;
    }
  }
  if (csv) std::fprintf(csv, "variant,median_ms,min_ms,max_ms,evals_per_s,frac_rated,rel_l2_err,clock_ghz\n");
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  const device_info dev{prop.multiProcessorCount, clock_khz * 1e-6};
  std::printf("%s: %d SMs, rated clock %.3f GHz, rated rsqrt ceiling 16 x SMs x clock = %.3e/s\n", prop.name, dev.sms,
              dev.rated_ghz, 16.0 * dev.sms * dev.rated_ghz * 1e9);

  problem p;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> ux(0, p.nx * p.h), uy(0, p.ny * p.h), uz(0, p.nz * p.h), uq(-2, 2);
  p.atoms.resize(n_atoms);
  for (auto& a : p.atoms) a = make_float4(ux(rng), uy(rng), uz(rng), uq(rng));
  float4* d_atoms;
  float* d_out;
  CHECK(cudaMalloc(&d_atoms, sizeof(float4) * n_atoms));
  CHECK(cudaMemcpy(d_atoms, p.atoms.data(), sizeof(float4) * n_atoms, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&d_out, sizeof(float) * p.points()));
  std::vector<float> host(p.points());
  const int nrows = p.ny * p.nz;
  auto fetch = [&] { CHECK(cudaMemcpy(host.data(), d_out, sizeof(float) * p.points(), cudaMemcpyDeviceToHost)); };
  unsigned long long* d_clk;
  const int max_blocks = 1 << 20;
  CHECK(cudaMalloc(&d_clk, sizeof(unsigned long long) * 2 * max_blocks));
  auto read_clk = [&](int blocks) {
    std::vector<unsigned long long> c(2 * blocks);
    CHECK(cudaMemcpy(c.data(), d_clk, sizeof(unsigned long long) * c.size(), cudaMemcpyDeviceToHost));
    return clock_ghz(c);
  };

  // 1. MUFU peak.
  {
    const int blocks = dev.sms * 8, threads = 256, iters = 1 << 15;
    const double evals = double(blocks) * threads * iters * 8;
    const timing t = time_it([&] { mufu_peak<<<blocks, threads>>>(d_out, iters, d_clk); }, reps);
    report(dev, "mufu_peak (8 chains, 256 thr, 8 blk/SM)", t, evals, 0, read_clk(blocks));
  }

  auto grid_for = [&](int C, int by) {
    grid_args g{d_out, p.nx, p.ny, nrows, (p.nx + 32 * C - 1) / (32 * C), p.h};
    return std::make_pair(g, dim3(unsigned(g.blocks_x * ((nrows + by - 1) / by))));
  };
  const double full = double(p.points()) * n_atoms;

  // 2. Instruction-mix ceiling (16 atoms re-used).
  CHECK(cudaMemcpyToSymbol(c_atoms, p.atoms.data(), sizeof(float4) * 16));
  auto mix = [&](auto c_tag, auto s_tag, int by, const char* label) {
    constexpr int C = decltype(c_tag)::value, S = decltype(s_tag)::value;
    const int mreps = 156;  // sweeps of 16 atoms = 2496 atom-evaluations per point
    auto [g, grid] = grid_for(C, by);
    const timing t =
        time_it([&, g = g, grid = grid] { mix_ceiling<C, S><<<grid, dim3(32, by)>>>(g, mreps, d_clk); }, reps);
    const double ghz = read_clk(int(grid.x));
    fetch();
    report(dev, label, t, double(p.points()) * 16 * mreps, sampled_error(p, 16, host, mreps), ghz);
  };
  using I1 = std::integral_constant<int, 1>;
  using I2 = std::integral_constant<int, 2>;
  using I4 = std::integral_constant<int, 4>;
  using I8 = std::integral_constant<int, 8>;
  using I16 = std::integral_constant<int, 16>;
  using Z = std::integral_constant<int, 0>;
  using S1 = std::integral_constant<int, 1>;
  using S2 = std::integral_constant<int, 2>;
  using S3 = std::integral_constant<int, 3>;
  mix(I8{}, Z{}, 8, "mix_ceiling C=8 S=0 32x8");
  mix(I16{}, Z{}, 8, "mix_ceiling C=16 S=0 32x8");
  mix(I8{}, S1{}, 8, "mix_ceiling C=8 S=1 32x8");
  mix(I8{}, S2{}, 8, "mix_ceiling C=8 S=2 32x8");
  mix(I8{}, S3{}, 8, "mix_ceiling C=8 S=3 32x8");
  mix(I16{}, S2{}, 8, "mix_ceiling C=16 S=2 32x8");
  mix(I16{}, S3{}, 8, "mix_ceiling C=16 S=3 32x8");
  mix(I16{}, std::integral_constant<int, 4>{}, 8, "mix_ceiling C=16 S=4 32x8");

  // 3. Constant memory (VMD/PMPP design), swept on a smaller atom count so that collapsed variants stay short.
  const int n_small = std::min(n_atoms, 3840);
  const double small = double(p.points()) * n_small;
  auto cm = [&](auto c_tag, int by, int pass, int lockstep) {
    constexpr int C = decltype(c_tag)::value;
    auto [g, grid] = grid_for(C, by);
    auto launch = [&, g = g, grid = grid] {
      for (int first = 0; first < n_small; first += pass) {
        const int cnt = std::min(pass, n_small - first);
        CHECK(cudaMemcpyToSymbolAsync(c_atoms, d_atoms + first, sizeof(float4) * cnt, 0, cudaMemcpyDeviceToDevice));
        constmem<C><<<grid, dim3(32, by)>>>(g, cnt, first > 0, lockstep);
      }
    };
    const timing t = time_it(launch, reps);
    fetch();
    report(dev,
           "constmem C=" + std::to_string(C) + " 32x" + std::to_string(by) + " pass=" + std::to_string(pass) +
               (lockstep ? " lockstep=" + std::to_string(lockstep) : ""),
           t, small, sampled_error(p, n_small, host, 1));
  };
  for (int by : {1, 4, 8, 32}) {
    cm(I1{}, by, 1920, 0);
    cm(I8{}, by, 1920, 0);
    cm(I16{}, by, 1920, 0);
  }
  cm(I8{}, 4, 256, 0);
  cm(I8{}, 4, 64, 0);
  cm(I1{}, 4, 256, 0);
  cm(I16{}, 4, 256, 0);
  cm(I1{}, 4, 1920, 32);
  cm(I8{}, 4, 1920, 32);
  cm(I16{}, 4, 1920, 32);
  cm(I8{}, 8, 1920, 16);
  cm(I2{}, 8, 1920, 0);
  cm(I4{}, 8, 1920, 0);

  // 4a. Uniform __ldg from global memory.
  auto ldg = [&](auto c_tag, int by) {
    constexpr int C = decltype(c_tag)::value;
    auto [g, grid] = grid_for(C, by);
    const timing t =
        time_it([&, g = g, grid = grid] { uniform_ldg<C><<<grid, dim3(32, by)>>>(g, d_atoms, n_atoms); }, reps);
    fetch();
    report(dev, "uniform_ldg C=" + std::to_string(C) + " 32x" + std::to_string(by), t, full,
           sampled_error(p, n_atoms, host, 1));
  };
  ldg(I8{}, 8);
  ldg(I16{}, 8);
  ldg(I8{}, 4);

  // 4b/5. Shared-memory tiles, with hybrid shares.
  auto tile_run = [&](auto c_tag, auto s_tag, int by, int tile) {
    constexpr int C = decltype(c_tag)::value, S = decltype(s_tag)::value;
    auto [g, grid] = grid_for(C, by);
    const size_t shmem = sizeof(float4) * tile;
    if (shmem > 48 * 1024)
      CHECK(cudaFuncSetAttribute(smem_tile<C, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shmem)));
    const timing t = time_it(
        [&, g = g, grid = grid] { smem_tile<C, S><<<grid, dim3(32, by), shmem>>>(g, d_atoms, n_atoms, tile); }, reps);
    fetch();
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, smem_tile<C, S>));
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, smem_tile<C, S>, 32 * by, shmem));
    report(dev,
           "smem_tile C=" + std::to_string(C) + " S=" + std::to_string(S) + " 32x" + std::to_string(by) + " tile=" +
               std::to_string(tile) + " regs=" + std::to_string(fa.numRegs) + " blk/SM=" + std::to_string(per_sm),
           t, full, sampled_error(p, n_atoms, host, 1));
  };
  tile_run(I8{}, Z{}, 8, 1024);
  tile_run(I8{}, Z{}, 4, 1024);
  tile_run(I8{}, Z{}, 8, 256);
  tile_run(I8{}, Z{}, 16, 2048);
  tile_run(I16{}, Z{}, 8, 1024);
  tile_run(I16{}, Z{}, 4, 1024);
  tile_run(I4{}, Z{}, 8, 1024);
  tile_run(I8{}, S1{}, 8, 1024);
  tile_run(I8{}, S2{}, 8, 1024);
  tile_run(I16{}, S2{}, 8, 1024);
  tile_run(I16{}, S3{}, 8, 1024);
  tile_run(I16{}, S3{}, 4, 1024);
  tile_run(I16{}, std::integral_constant<int, 4>{}, 4, 1024);

  if (csv) std::fclose(csv);
  CHECK(cudaFree(d_atoms));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_clk));
  return 0;
}
