#pragma once
// The potential strategies' typed parameters and factories: what a C++ caller (a test, a benchmark, a program
// linking ppl) uses to make a strategy without a job file. One struct per registry name; its default member
// initializers are the defaults (the registry's declared space, `ppl strategies --parameters` and the docs tables
// are read off them), and fields() binds each member to its public name, range and meaning (ppl/core/parameters.hpp).
// Integers declared "auto" hold 0 for auto: chosen from the problem and backend when the strategy runs.
//
// Each factory checks its struct first (fields().check) and throws parameter_error, naming the parameter, for a
// value outside its declaration or a combination it cannot run (region[0] not a multiple of the coarsening, a team
// larger than this build launches). The CUDA-only strategies' structs and fields exist in every build (so every
// build lists them); their factories only in CUDA builds.
//
//   gather_coalesced_params p;
//   p.coarsening = 4;
//   auto s = make_gather_coalesced(p);  // or make_potential_strategy("gather_coalesced", {{"coarsening", 4}}, ...)
#include <Kokkos_Macros.hpp>
#include <array>
#include <memory>
#include <string>

#include "ppl/core/parameters.hpp"
#include "ppl/potential/potential_strategy.hpp"

namespace ppl {

// The default space of this build is a GPU (the defaults that differ between GPU and host builds use it).
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL)
inline constexpr bool potential_gpu_build = true;
#else
inline constexpr bool potential_gpu_build = false;
#endif

// `gather`: one thread per point.
struct gather_params {
  std::string rsqrt = "fast";  // fast: the rsqrt unit (GPU) / vectorised Newton (host); ieee: 1 / sqrt
  static const parameter_fields<gather_params>& fields();
};

// `gather_coarsened`: C consecutive points along x per thread.
struct gather_coarsened_params {
  int coarsening = 8;
  static const parameter_fields<gather_coarsened_params>& fields();
};

// The team shape of the tiled kernels (gather_coalesced, gather_atom_split, gather_hybrid_rsqrt_cuda); 0 = auto.
struct tile_params {
  int block_width = 0;    // auto: 1 on the host; on a GPU 32, or 8-16 for rows shorter than 32 C
  int block_rows = 0;     // auto: 1 on the host, 512 / block_width on a GPU
  int tile_atoms = 2048;  // atoms per team-scratch tile
};

// `gather_coalesced`: C points per thread strided by the team width, atoms tiled in team scratch.
struct gather_coalesced_params : tile_params {
  int coarsening = 8;
  static const parameter_fields<gather_coalesced_params>& fields();
};

// `gather_atom_split`: gather_coalesced's tiles with the atoms split across teams too.
struct gather_atom_split_params : tile_params {
  std::string combine = "two_pass";  // atomic | two_pass
  int atoms_per_chunk = 0;           // auto
  // GPU builds 4: on the PMPP plane (H200, perf/results/potential-h200/atom_split) C = 4 took 48-51 us, C = 2 55-57,
  // C = 8 65-72 (two_pass; atomic 6-14% slower at each C). Host builds 8, gather_coalesced's.
  int coarsening = potential_gpu_build ? 4 : 8;
  static const parameter_fields<gather_atom_split_params>& fields();
};

// `gather_constmem_cuda`: atoms in __constant__ memory.
struct gather_constmem_cuda_params {
  int coarsening = 8;
  int atoms_per_pass = 1920;  // at most the 1920 atoms that fit the constant bank Kokkos leaves
  static const parameter_fields<gather_constmem_cuda_params>& fields();
};

// `gather_hybrid_rsqrt_cuda`: gather_coalesced's tiles, software_points of the C points per thread on the FMA pipe.
struct gather_hybrid_rsqrt_cuda_params : tile_params {
  int coarsening = 32;      // H200, 256x256x64: C = 32, S = 7 4.34e12/s; C = 16, S = 3 4.06e12; C = 8, S = 1 4.06e12
  int software_points = 7;  // at most coarsening / 2
  static const parameter_fields<gather_hybrid_rsqrt_cuda_params>& fields();
};

// What every binned cutoff strategy takes (docs/cutoff.md).
struct binned_common_params {
  int bin_capacity = 0;                // atom slots per bin; auto: grown to the fullest bin, up to a limit
  int coarsening = 8;                  // C: points per thread segment along x
  std::array<int, 3> region{8, 8, 8};  // points per team region; region[0] a multiple of C
  std::string atom_test = "segment";   // segment | cylinder
  int stage_atoms = 256;               // atoms per stage, packed across bins
};

// `cutoff_binned`: small bins, the region's offset list, atoms staged in team scratch.
struct cutoff_binned_params : binned_common_params {
  double bin_edge = 4.0;  // A; Parboil's 4 A bins
  int team_size = 0;      // auto: one thread per segment on a GPU, 1 on the host
  static const parameter_fields<cutoff_binned_params>& fields();
};

// `cutoff_large_bins`: the same kernel with bins as large as the cutoff (the lecture's baseline).
struct cutoff_large_bins_params : binned_common_params {
  int team_size = 0;
  static const parameter_fields<cutoff_large_bins_params>& fields();
};

// `cutoff_binned_cuda`: cutoff_binned's plan, a CUDA kernel (one thread per segment, offsets in __constant__).
struct cutoff_binned_cuda_params : binned_common_params {
  double bin_edge = 4.0;
  static const parameter_fields<cutoff_binned_cuda_params>& fields();
};

// `msm`: multilevel summation for the msm interaction (its a, h, order and levels are the interaction's,
// physics.interaction); the strategy chooses only the short range's kernel.
struct msm_params {
  std::string short_range = "auto";  // auto | cutoff_binned | cutoff_binned_cuda
  static const parameter_fields<msm_params>& fields();
};

std::unique_ptr<potential_strategy> make_reference(const no_parameters& p = {});
std::unique_ptr<potential_strategy> make_cutoff_reference(const no_parameters& p = {});
std::unique_ptr<potential_strategy> make_scatter(const no_parameters& p = {});
std::unique_ptr<potential_strategy> make_gather(const gather_params& p = {});
std::unique_ptr<potential_strategy> make_gather_coarsened(const gather_coarsened_params& p = {});
std::unique_ptr<potential_strategy> make_gather_coalesced(const gather_coalesced_params& p = {});
std::unique_ptr<potential_strategy> make_gather_atom_split(const gather_atom_split_params& p = {});
std::unique_ptr<potential_strategy> make_cutoff_binned(const cutoff_binned_params& p = {});
std::unique_ptr<potential_strategy> make_cutoff_large_bins(const cutoff_large_bins_params& p = {});
std::unique_ptr<potential_strategy> make_msm(const msm_params& p = {});
#if defined(KOKKOS_ENABLE_CUDA)
std::unique_ptr<potential_strategy> make_gather_constmem_cuda(const gather_constmem_cuda_params& p = {});
std::unique_ptr<potential_strategy> make_gather_hybrid_rsqrt_cuda(const gather_hybrid_rsqrt_cuda_params& p = {});
std::unique_ptr<potential_strategy> make_cutoff_binned_cuda(const cutoff_binned_cuda_params& p = {});
#endif

}  // namespace ppl
