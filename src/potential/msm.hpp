#pragma once
// `msm`: multilevel summation (Hardy, Stone and Schulten, Parallel Computing 2009; docs/msm.md). The map is
//   V(x) = sum_a q_a (1/r - g_a(r)) over r < a   (the short range: a binned cutoff kernel, cutoff_binned.hpp)
//        + sum_m phi_m(x) e_0(m)                  (the long range, interpolated from the finest grid)
// where the grids carry, from the charges anterpolated to the finest grid (q_0 = sum_a q_a phi_m(r_a)) and
// restricted level by level (q_{k+1} = R q_k), the potentials e_k = K_k q_k + P e_{k+1}: K_k the lattice cutoff of
// the kernel g_{2^k a} - g_{2^(k+1) a} (radius 2 a / h nodes on every level), the top level's kernel g_{2^k a}
// summed over all its nodes, P the prolongation. Every step is a Kokkos kernel; all but the anterpolation are
// gathers, and the anterpolation adds in 64-bit fixed point, so a map is bitwise identical from run to run.
#include <Kokkos_Core.hpp>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cutoff_binned.hpp"
#include "ppl/spatial/multilevel_grid.hpp"

namespace ppl::potential_detail {

// What a test may break on purpose to show that the accuracy checks catch it (never set by a job).
struct msm_perturbation {
  double weight_scale = 1.0;  // multiplies the interpolation weights of the map (1: none)
  int skipped_level = -1;     // a level whose lattice cutoff is left out (-1: none)
};

class msm_plan final : public potential_plan {
 public:
  msm_plan(const potential_problem& p, const potential_strategy& short_range, const std::string& short_name);
  double pairs_examined() const override { return short_plan->pairs_examined(); }
  double pairs_within() const override { return short_plan->pairs_within(); }
  double pairs_loaded() const override { return short_plan->pairs_loaded(); }
  std::vector<std::pair<std::string, double>> breakdown() const override;

  std::string short_name;
  std::unique_ptr<binned_plan> short_plan;
  device_atoms atoms;
  spatial::multilevel_grid grids;
  int degree = 5;
  double fixed_scale = 1.0;  // anterpolation: charge x 2^k as int64
  Kokkos::View<long long*> q_fixed;
  std::vector<Kokkos::View<double*>> q, e;  // per level, padded storage
  // The lattice cutoff: rows along x (dy, dz, half-width w, first weight: 4 ints each) and the weights of
  // g_a - g_2a at distance |d| h, on level 0's scale (level k's are 2^-k of them); the top level's kernel over every
  // offset of its box.
  Kokkos::View<int*> stencil_rows;
  Kokkos::View<double*> stencil_weights;
  Kokkos::View<double*> top_weights;
  int top_span[3] = {1, 1, 1};  // 2 n - 1 offsets per axis
  // The map's interpolation: per axis the first node (local index on level 0) and p + 1 weights per map index; the
  // node ranges the map touches; the two partial sums of the separable interpolation.
  Kokkos::View<int*> first[3];
  Kokkos::View<double*> weights[3];
  int node_lo[3] = {0, 0, 0}, node_count[3] = {1, 1, 1};
  Kokkos::View<double*> along_x, along_xy;
  msm_perturbation perturbation;
  // Set-up (seconds) and the phases of the last compute.
  double upload_seconds = 0, setup_seconds = 0, grids_seconds = 0;  // grids: all but the upload and short plan
  mutable double short_seconds = 0, anterpolation_seconds = 0, restriction_seconds = 0, interpolation_seconds = 0;
  mutable std::vector<double> level_seconds;
};

// The estimate of the memory a plan needs (bytes on the default memory space), from the problem alone.
double msm_plan_bytes(const potential_problem& p);

}  // namespace ppl::potential_detail
