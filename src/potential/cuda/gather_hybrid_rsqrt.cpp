// `gather_hybrid_rsqrt_cuda`: gather_coalesced's tiled kernel (coalesced_tiles.hpp) with both arithmetic pipes
// computing reciprocal square roots. The rsqrt unit (MUFU) does 16 per clock per SM (a warp's instruction holds it
// 8 cycles per SM sub-partition) and is the bottleneck of the kernels above, while the sub-partition issues one
// instruction per clock: a MUFU pair costs 4 issue slots (dx, r^2, MUFU, accumulate) and 8 MUFU cycles, so about
// half the issue slots are idle. Here, of each thread's C points, software_points (S) take a software rsqrt of
// 8 instructions on the FMA and integer pipes and the other C - S take `rsqrt.approx.ftz.f32`. The balance
// 4 (C - S) + 11 S + 5 = 8 (C - S) issue slots (5: the atom's load and dy^2 + dz^2) puts S near C / 4, 1.3x the
// MUFU-only rate on paper. C and S are template parameters, so the choice per point is made at compile time and
// the unrolled loop has no branches.
// The software rsqrt: y0 = bits(0x5f340000 - (bits(x) >> 1)) (within 10% of x^-1/2), s = x y0^2 - 1, and
// y = y0 P(s) with P the degree-3 minimax fit of (1 + s)^-1/2 over the range s takes: relative error <= 7.9e-7 in
// float32 arithmetic over every float mantissa and exponent parity, mean 2.5e-8 (two Newton steps from the classic
// 0x5f375a86 take one more instruction for 4.8e-6, biased low).
// The atoms come from shared-memory tiles, not __constant__ memory, whose cache thrashes in many launch shapes
// (perf/results/potential-h200: the probe).
#include <cuda_runtime.h>

#include <array>
#include <cstring>
#include <utility>

#include "../coalesced_tiles.hpp"

namespace ppl::potential_detail {
namespace {

// x >= 1e-8 and finite (the callers' singularity rule; coordinates are bounded by the readers).
KOKKOS_FORCEINLINE_FUNCTION float software_rsqrt(float x) {
#if defined(__CUDA_ARCH__)
  const float y0 = __int_as_float(0x5f340000 - (__float_as_int(x) >> 1));
#else  // never launched on the host; kept compilable for nvcc's host pass
  int bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits = 0x5f340000 - (bits >> 1);
  float y0;
  std::memcpy(&y0, &bits, sizeof y0);
#endif
  const float s = x * (y0 * y0) - 1.0f;
  const float p =
      ((-0.3501216173171997f * s + 0.37440401315689087f) * s - 0.4999614357948303f) * s + 1.000000238418579f;
  return y0 * p;
}

// MinTeams: teams of 512 an SM must hold at once (launch bounds). 2 caps the registers at 64, which C <= 16 fit
// without spilling (ptxas -v): 8 warps per scheduler instead of the 4 that 80 registers left, too few to keep the
// MUFU and FMA pipes busy at once. C = 32 needs more than 64.
template <int S, int MinTeams>
struct hybrid_row {
  static constexpr int min_teams_per_sm = MinTeams;
  // Point c takes the software rsqrt when floor((c + 1) S / C) > floor(c S / C): the S software points spread
  // evenly among the MUFU points, so that in source order (which nvcc's schedule follows) each warp has FMA work
  // between its MUFU instructions instead of all of it before them.
  template <int C>
  static constexpr bool software_point(int c) {
    return (c + 1) * S / C > c * S / C;
  }
  template <int C, int... Cs>
  KOKKOS_FORCEINLINE_FUNCTION static void unmasked(std::integer_sequence<int, Cs...>, const float (&x)[C], float dyz2,
                                                   float ax, float q, float (&v)[C]) {
    ((v[Cs] += q * (software_point<C>(Cs) ? software_rsqrt((x[Cs] - ax) * (x[Cs] - ax) + dyz2)
                                          : kernels::fast_rsqrt((x[Cs] - ax) * (x[Cs] - ax) + dyz2))),
     ...);
  }

  // No atom of the tile lies on the row's line (coalesced_kernel checked): every pair unmasked.
  template <int C>
  KOKKOS_FORCEINLINE_FUNCTION static void apply_clear(const float (&x)[C], float y, float z, const tile_atom& at,
                                                      float (&v)[C]) {
    const float dy = y - at.y, dz = z - at.z;
    unmasked<C>(std::make_integer_sequence<int, C>{}, x, dy * dy + dz * dz, at.x, at.q, v);
  }

  template <int C>
  KOKKOS_FORCEINLINE_FUNCTION static void apply(const float (&x)[C], float y, float z, const tile_atom& at,
                                                float (&v)[C]) {
    const float dy = y - at.y, dz = z - at.z;
    const float dyz2 = dy * dy + dz * dz;
    if (dyz2 >= kernels::coincidence_radius2_f) {  // warp-uniform: the warp shares the row
      unmasked<C>(std::make_integer_sequence<int, C>{}, x, dyz2, at.x, at.q, v);
    } else {  // the atom lies on this row's line: the singularity rule per pair, MUFU only
      for (int c = 0; c < C; ++c) {
        const float dx = x[c] - at.x;
        const float r2 = dx * dx + dyz2;
        v[c] += r2 < kernels::coincidence_radius2_f ? 0.0f : at.q * kernels::fast_rsqrt(r2);  // see accumulate_row
      }
    }
  }
};

template <int C>
constexpr int teams_for = C <= 16 ? 2 : 1;

using run_fn = void (*)(const Kokkos::Cuda&, const device_atoms&, const lattice&, potential_view, tile_shape, bool);
using check_fn = void (*)(const std::string&, tile_shape);

template <int C, int S>
void run_hybrid(const Kokkos::Cuda& space, const device_atoms& a, const lattice& g, potential_view out,
                tile_shape shape, bool accumulate) {
  launch_coalesced<C, hybrid_row<S, teams_for<C>>>(space, "gather_hybrid_rsqrt_cuda", a, g, out, shape, accumulate);
}

// The launch and the configuration-time team-shape check of one (C, S) kernel.
struct hybrid_kernel {
  run_fn run;
  check_fn check;
};

template <int C, int... S>
constexpr std::array<hybrid_kernel, sizeof...(S)> kernel_table(std::integer_sequence<int, S...>) {
  return {hybrid_kernel{&run_hybrid<C, S>, &check_tile_shape<C, hybrid_row<S, teams_for<C>>>}...};
}

// S <= C / 2: more software points than MUFU points was never faster (perf/results/potential-h200).
hybrid_kernel pick(int c, int s) {
  static const auto table8 = kernel_table<8>(std::make_integer_sequence<int, 5>{});
  static const auto table16 = kernel_table<16>(std::make_integer_sequence<int, 9>{});
  static const auto table32 = kernel_table<32>(std::make_integer_sequence<int, 17>{});
  return c == 8 ? table8[std::size_t(s)] : c == 16 ? table16[std::size_t(s)] : table32[std::size_t(s)];
}

class hybrid_strategy final : public direct_strategy {
 public:
  hybrid_strategy(int c, int s, tile_shape shape) : run_(pick(c, s).run), shape_(shape) {}
  void compute(const execution& exec, const potential_plan& plan, potential_view out, write_mode mode) const override {
    profiling_region region("gather_hybrid_rsqrt_cuda");
    const direct_plan& p = plan_of(plan);
    on_default_space(exec, "gather_hybrid_rsqrt_cuda", [&](const Kokkos::Cuda& space) {
      run_(space, p.atoms, p.grid, out, shape_, mode == write_mode::accumulate);
    });
    exec.fence();
  }

 private:
  run_fn run_;
  tile_shape shape_;
};

}  // namespace

}  // namespace ppl::potential_detail

namespace ppl {

std::unique_ptr<potential_strategy> make_gather_hybrid_rsqrt_cuda(const gather_hybrid_rsqrt_cuda_params& p) {
  using namespace potential_detail;
  gather_hybrid_rsqrt_cuda_params::fields().check(p);
  const int c = p.coarsening, s = p.software_points;
  if (s > c / 2)
    throw parameter_error("software_points", "= " + std::to_string(s) + " must be in [0, " + std::to_string(c / 2) +
                                                 "] (at most coarsening / 2)");
  const tile_shape shape = tile_shape_of(p);
  pick(c, s).check("gather_hybrid_rsqrt_cuda", shape);
  return std::make_unique<hybrid_strategy>(c, s, shape);
}

}  // namespace ppl
