// `gather_hybrid_rsqrt_cuda`: gather_coalesced's tiled kernel (coalesced_tiles.hpp) with both arithmetic pipes
// computing reciprocal square roots. The rsqrt unit (MUFU) does 16 per clock per SM and is the bottleneck of the
// kernels above, while the FMA pipe, which issues one warp instruction per clock per SM sub-partition, is only
// about half busy. Here, of each thread's C points, software_points (S) take a software rsqrt on the FMA/integer
// pipes (first guess 0x5f375a86 - (bits >> 1), two Newton steps: relative error <= 4.8e-6) and the other C - S
// take `rsqrt.approx.ftz.f32` (one MUFU op, flush to zero confined to this instruction). C and S are template
// parameters, so the choice per point is made at compile time and the unrolled loop has no branches.
// The atoms come from shared-memory tiles, not __constant__ memory, whose cache thrashes in many launch shapes
// (perf/results/potential-h200: the probe).
#include <cuda_runtime.h>

#include <array>
#include <cstring>
#include <utility>

#include "../coalesced_tiles.hpp"

namespace ppl::potential_detail {
namespace {

// Two Newton steps y <- y (1.5 - x/2 y^2) from the integer first guess; FMA and integer pipes only.
KOKKOS_FORCEINLINE_FUNCTION float software_rsqrt(float x) {
#if defined(__CUDA_ARCH__)
  float y = __int_as_float(0x5f375a86 - (__float_as_int(x) >> 1));
#else  // never launched on the host; kept compilable for nvcc's host pass
  int bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits = 0x5f375a86 - (bits >> 1);
  float y;
  std::memcpy(&y, &bits, sizeof y);
#endif
  const float h = 0.5f * x;
  y = y * (1.5f - h * (y * y));
  y = y * (1.5f - h * (y * y));
  return y;
}

template <int S>
struct hybrid_row {
  template <int C, int... Cs>
  KOKKOS_FORCEINLINE_FUNCTION static void unmasked(std::integer_sequence<int, Cs...>, const float (&x)[C], float dyz2,
                                                   float ax, float q, float (&v)[C]) {
    ((v[Cs] += q * (Cs < S ? software_rsqrt((x[Cs] - ax) * (x[Cs] - ax) + dyz2)
                           : kernels::fast_rsqrt((x[Cs] - ax) * (x[Cs] - ax) + dyz2))),
     ...);
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

using run_fn = void (*)(const Kokkos::Cuda&, const device_atoms&, const lattice&, potential_view, tile_shape, bool);
using check_fn = void (*)(const std::string&, tile_shape);

template <int C, int S>
void run_hybrid(const Kokkos::Cuda& space, const device_atoms& a, const lattice& g, potential_view out,
                tile_shape shape, bool accumulate) {
  launch_coalesced<C, hybrid_row<S>>(space, "gather_hybrid_rsqrt_cuda", a, g, out, shape, accumulate);
}

// The launch and the configuration-time team-shape check of one (C, S) kernel.
struct hybrid_kernel {
  run_fn run;
  check_fn check;
};

template <int C, int... S>
constexpr std::array<hybrid_kernel, sizeof...(S)> kernel_table(std::integer_sequence<int, S...>) {
  return {hybrid_kernel{&run_hybrid<C, S>, &check_tile_shape<C, hybrid_row<S>>}...};
}

// S <= C / 2: more software points than MUFU points was never faster (perf/results/potential-h200).
hybrid_kernel pick(int c, int s) {
  static const auto table8 = kernel_table<8>(std::make_integer_sequence<int, 5>{});
  static const auto table16 = kernel_table<16>(std::make_integer_sequence<int, 9>{});
  return c == 8 ? table8[std::size_t(s)] : table16[std::size_t(s)];
}

class hybrid_strategy final : public direct_strategy {
 public:
  hybrid_strategy(int c, int s, tile_shape shape) : run_(pick(c, s).run), shape_(shape) {}
  void compute(const execution& exec, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
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
