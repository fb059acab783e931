// `gather_hybrid_rsqrt`: gather_constmem_cuda's design, with both arithmetic pipes computing reciprocal square
// roots. The rsqrt unit (MUFU) does 16 per clock per SM, the FMA pipe 128 flops per clock per SM; the kernels above
// leave the FMA pipe mostly idle while waiting for MUFU. Here, of each thread's points_per_thread (P) points,
// software_points (S) take a software rsqrt on the FMA/integer pipes (first guess 0x5f375a86 - (bits >> 1), two
// Newton steps: relative error <= 4.8e-6) and the other P - S take `rsqrt.approx.ftz.f32` (one MUFU op, flush to
// zero confined to this instruction). S = 0 is gather_constmem_cuda with P points. P and S are template
// parameters, so the choice per point is made at compile time and the unrolled loop has no branches.
#include <cuda_runtime.h>

#include <array>
#include <utility>

#include "../strategy_support.hpp"
#include "ppl/core/error.hpp"
#include "ppl/potential/kernels/row_accumulate.hpp"

namespace ppl::potential_detail {
namespace {

constexpr int hybrid_atoms = 1920;  // 30 KiB per pass, see gather_constmem.cpp
__constant__ float4 hybrid_atom_chunk[hybrid_atoms];

__device__ __forceinline__ float mufu_rsqrt(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// Two Newton steps y <- y (1.5 - x/2 y^2) from the integer first guess; FMA and integer pipes only.
__device__ __forceinline__ float software_rsqrt(float x) {
  float y = __int_as_float(0x5f375a86 - (__float_as_int(x) >> 1));
  const float h = 0.5f * x;
  y = y * fmaf(-h, y * y, 1.5f);
  y = y * fmaf(-h, y * y, 1.5f);
  return y;
}

template <int S, int C>
__device__ __forceinline__ float hybrid_rsqrt(float x) {
  return C < S ? software_rsqrt(x) : mufu_rsqrt(x);
}

template <int P, int S>
struct hybrid_kernel {
  potential_view out;
  int nx, ny, blocks_x, count;
  float h;
  bool accumulate;

  template <int... Cs>
  __device__ __forceinline__ void row_unmasked(std::integer_sequence<int, Cs...>, const float (&x)[P], float dyz2,
                                               float ax, float q, float (&v)[P]) const {
    ((v[Cs] = fmaf(q, hybrid_rsqrt<S, Cs>(fmaf(x[Cs] - ax, x[Cs] - ax, dyz2)), v[Cs])), ...);
  }

  __device__ void operator()(std::int64_t t) const {
    const int lane = int(t & 31);
    const std::int64_t group = t >> 5;
    const int i0 = int(group % blocks_x) * (32 * P) + lane;
    const std::int64_t row = group / blocks_x;
    const float y = float(row % ny) * h, z = float(row / ny) * h;
    float x[P], v[P];
#pragma unroll
    for (int c = 0; c < P; ++c) {
      x[c] = float(i0 + 32 * c) * h;
      v[c] = 0.0f;
    }
#pragma unroll 4
    for (int a = 0; a < count; ++a) {
      const float4 at = hybrid_atom_chunk[a];
      const float dy = y - at.y, dz = z - at.z;
      const float dyz2 = dy * dy + dz * dz;
      if (dyz2 >= kernels::coincidence_radius2_f) {  // warp-uniform: the warp shares the row
        row_unmasked(std::make_integer_sequence<int, P>{}, x, dyz2, at.x, at.w, v);
      } else {
#pragma unroll
        for (int c = 0; c < P; ++c) {
          const float dx = x[c] - at.x;
          const float r2 = dx * dx + dyz2;
          v[c] += r2 < kernels::coincidence_radius2_f ? 0.0f : at.w * mufu_rsqrt(r2);
        }
      }
    }
    const std::int64_t base = row * nx;
#pragma unroll
    for (int c = 0; c < P; ++c) {
      const int i = i0 + 32 * c;
      if (i < nx) out(base + i) = accumulate ? out(base + i) + v[c] : v[c];
    }
  }
};

template <int P, int S>
void run_hybrid(const device_atoms& a, const lattice& g, potential_view out, int pass) {
  const Kokkos::Cuda space;
  const int blocks_x = int(ceil_div(g.dims[0], 32 * P));
  const std::int64_t threads = std::int64_t(blocks_x) * g.dims[1] * g.dims[2] * 32;
  const std::size_t n = a.size();
  for (std::size_t first = 0; first < n; first += std::size_t(pass)) {
    const int count = int(std::min<std::size_t>(std::size_t(pass), n - first));
    const cudaError_t e = cudaMemcpyToSymbolAsync(hybrid_atom_chunk, a.data.data() + first, count * sizeof(atom4), 0,
                                                  cudaMemcpyDeviceToDevice, space.cuda_stream());
    if (e != cudaSuccess) throw error(exit_code::failure, std::string("gather_hybrid_rsqrt: ") + cudaGetErrorString(e));
    Kokkos::parallel_for("ppl::potential::gather_hybrid_rsqrt",
                         Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(space, 0, threads),
                         hybrid_kernel<P, S>{out, g.dims[0], g.dims[1], blocks_x, count, float(g.spacing), first > 0});
  }
}

using run_fn = void (*)(const device_atoms&, const lattice&, potential_view, int);

template <int P, int... S>
constexpr std::array<run_fn, sizeof...(S)> run_table(std::integer_sequence<int, S...>) {
  return {&run_hybrid<P, S>...};
}

run_fn pick(int p, int s) {
  static const auto table8 = run_table<8>(std::make_integer_sequence<int, 9>{});
  static const auto table16 = run_table<16>(std::make_integer_sequence<int, 17>{});
  return p == 8 ? table8[std::size_t(s)] : table16[std::size_t(s)];
}

class hybrid_strategy final : public potential_strategy {
 public:
  hybrid_strategy(int p, int s, int pass) : run_(pick(p, s)), pass_(pass) {}
  void compute(const atoms&, const device_atoms& a, const lattice& g, potential_view out) override {
    static_assert(sizeof(atom4) == sizeof(float4), "atoms are copied as float4");
    profiling_region region("gather_hybrid_rsqrt");
    if (a.size() == 0)
      Kokkos::deep_copy(out, 0.0f);
    else
      run_(a, g, out, pass_);
    Kokkos::fence();
  }

 private:
  run_fn run_;
  int pass_;
};

}  // namespace

std::unique_ptr<potential_strategy> make_gather_hybrid_rsqrt(const config_node* params) {
  // Defaults from the H200 sweep (perf/results/h200-run1): P = 8, S = 1 was the fastest (3.71e12/s, vs 3.53e12
  // with S = 0); every P = 16 variant ran at about half that.
  const int p = read_int_choice(params, "points_per_thread", 8, {8, 16});
  const int s = read_int_in(params, "software_points", 1, 0, p);
  const int pass = read_int_in(params, "atoms_per_pass", hybrid_atoms, 32, hybrid_atoms);  // see gather_constmem.cpp
  return std::make_unique<hybrid_strategy>(p, s, pass);
}

}  // namespace ppl::potential_detail
