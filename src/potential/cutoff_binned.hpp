#pragma once
// Cutoff summation with small spatial bins (Rodrigues et al. 2008, Parboil cutcp; the cutoff-binning lecture and
// PMPP chapter 18): the plan sorts the atoms into bins of fixed capacity on the device (spatial/atom_bins.hpp) and
// computes the neighbourhood offset list of a region (spatial/bin_stencil.hpp); a team computes one region of
// lattice points, loading `stage_atoms` atoms of its stencil's bins at a time into team scratch (shared memory on a
// GPU), packed across bins (no empty slot is staged), where every thread of the team reuses them. A thread owns
// segments of C consecutive points of a row; per atom it first tests whether the atom lies within rc of the segment
// (one test for C pairs: `atom_test: segment`, the capsule around the segment; `cylinder` tests only
// dy^2 + dz^2 < rc^2 around the row, the lecture's test). Atoms beyond a bin's capacity are summed on the host while
// the device works, and added afterwards.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ppl/core/device_buffers.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/potential/kernels/row_accumulate.hpp"
#include "ppl/spatial/atom_bins.hpp"
#include "ppl/spatial/bin_grid.hpp"
#include "strategy_support.hpp"

namespace ppl::potential_detail {

constexpr int max_auto_capacity = 32;

// What a binned strategy runs with: its parameters (the public structs of ppl/potential/strategies.hpp, converted
// by binned_setup_of, the one place that fills this) and what the strategy itself fixes (bin size rule, capacity
// limits). No defaults of its own: every field is set from a struct.
struct binned_setup {
  double bin_edge;     // A (small bins)
  int capacity;        // atoms per bin: the given bin_capacity, or the automatic capacity's start
  bool auto_capacity;  // bin_capacity auto: grown, when a bin overflows, to the fullest bin (up to max_capacity)
  int max_capacity;    // the automatic capacity's limit
  bool large_bins;     // cutoff_large_bins: bins of edge rc (a region visits the 3 x 3 x 3 bins around it)
  int coarsening;      // C: points per thread segment along x
  std::array<int, 3> region;  // points per team region; region[0] a multiple of C
  int team_size;              // 0: one thread per segment on a GPU, 1 on the host
  bool segment_test;          // atom_test: segment (the capsule) or cylinder
  int stage_atoms;            // atoms per stage (team scratch / __shared__), packed across bins
  // The edge of this problem's bins.
  double edge_for(double radius) const { return large_bins ? radius : bin_edge; }
};

// `p` checked against the constraint between its fields (region[0] a multiple of the coarsening: parameter_error)
// and completed: bin_edge and team_size (of the struct, where it has them), the automatic capacity's start and limit.
binned_setup binned_setup_of(const binned_common_params& p, double bin_edge, int team_size, bool large_bins,
                             int auto_start, int max_capacity);

// Declares the fields every binned strategy shares, in their table order after bin_edge: bin_capacity (with the
// strategy's own range and meaning), coarsening (from `coarsenings`), region (with its meaning), atom_test.
template <class P>
parameter_fields<P>& binned_common_fields(parameter_fields<P>& f, int capacity_hi, const std::string& capacity_doc,
                                          const std::vector<int>& coarsenings, const std::string& region_doc) {
  return f.integer_or_auto("bin_capacity", &P::bin_capacity, 1, capacity_hi, capacity_doc)
      .integer_of("coarsening", &P::coarsening, coarsenings, "points per thread segment along x (C)")
      .integer3("region", &P::region, 1, 64, region_doc)
      .choice("atom_test", &P::atom_test, {"segment", "cylinder"},
              "per staged atom, skip a segment's C pairs when the atom is farther than rc from the segment (segment) "
              "or from its row's line (cylinder, the lecture's test)");
}

// What the device kernel needs of the plan, by value.
struct binned_geometry {
  spatial::lattice_shape g;
  spatial::bin_grid grid;
  int capacity;
  int regions[3];  // regions per axis
  int region[3];   // points per region
  int stencil_size;
  int stage_atoms;
  int scan_level;  // team scratch level of the stencil's scan (binned_scratch_bytes)
  bool segment_test;
};

// The per-atom test of a segment of C points (x from xlo to xhi on one row): false when no pair of the atom with
// the segment can lie within the cutoff, so the C pairs are skipped. The distance to the segment uses the same
// rounded differences as the pair terms (x - ax at both ends bound every |x_c - ax| from below, rounding being
// monotonic), and the threshold rc2_skip = rc^2 (1 + 2^-20) covers the rounding of the two sums of squares, so a
// skipped pair always has r^2 >= rc^2 in the kernel's arithmetic, where every term is an exact zero. The cylinder
// test is the same code with the ends at -+infinity.
struct segment_test {
  float xlo, xhi, rc2_skip;
  KOKKOS_FORCEINLINE_FUNCTION bool may_reach(float ax, float dyz2) const {
    const float ex = kmath::fmax(kmath::fmax(xlo - ax, ax - xhi), 0.0f);
    return ex * ex + dyz2 < rc2_skip;
  }
};
KOKKOS_FORCEINLINE_FUNCTION segment_test make_segment_test(bool segment, float x0, float x1, float rc2) {
  constexpr float far = 3.0e38f;
  return {segment ? x0 : -far, segment ? x1 : far, rc2 * (1.0f + 0x1p-20f)};
}

class binned_plan final : public potential_plan {
 public:
  binned_plan(const potential_problem& p, const binned_setup& bp, const std::string& label);
  // With the atoms already staged on the device (to_device of p's atoms and lattice; MSM shares them).
  binned_plan(const potential_problem& p, const binned_setup& bp, const std::string& label,
              const device_atoms* staged);
  double pairs_examined() const override;
  double pairs_within() const override;
  double pairs_loaded() const override;
  std::vector<std::pair<std::string, double>> breakdown() const override;

  binned_setup params;  // capacity: the plan's (grown when automatic)
  std::string label;
  binned_geometry geo{};
  spatial::atom_bins<Kokkos::DefaultExecutionSpace::memory_space> bins;  // every space of the build reads it
  Kokkos::View<int*> stencil;  // 3 ints per offset
  std::vector<std::array<int, 3>> stencil_host;
  Kokkos::View<short*> offsets16;  // the offsets as 4 shorts each (x, y, z, 0): cutoff_binned_cuda's __constant__ copy
  std::vector<std::shared_ptr<device_block>> storage;  // the cache's blocks under stencil and offsets16
  // The overflow atoms' map, summed on the host during the device kernel (empty when no bin overflowed).
  mutable Kokkos::View<float*, Kokkos::HostSpace> overflow_map_host;
  mutable potential_view overflow_map;
  // The last compute (seconds): the host's overflow sum (while the kernel runs), and the whole compute from the
  // launch to the device's end (kernel, overflow sum, copy and add).
  mutable double host_seconds = 0, wall_seconds = 0;
  // Set-up (seconds): the atoms' conversion to the lattice frame and upload (to_device; 0 when the caller staged
  // them), the device binning (build_atom_bins: count, scan, scatter, order and fill; fenced), and the region's
  // offset list (computed on the host, copied to the device).
  double upload_seconds = 0, binning_seconds = 0, stencil_seconds = 0;

 private:
  void count_pairs() const;
  mutable double examined_ = -1, within_ = 0, loaded_ = 0;
};

// A staged atom, 16-byte aligned so that a GPU reads it with one 128-bit shared-memory load (atom4 has the alignment
// of a float: four loads). Team scratch does not promise 16-byte alignment, so the stage is carved out by hand
// (staged_atoms) from 15 bytes more than it needs.
struct alignas(16) staged_atom {
  float x, y, z, q;
};
inline std::size_t staged_atom_bytes(int n) {
  return Kokkos::View<char*, Kokkos::DefaultExecutionSpace::scratch_memory_space>::shmem_size(
      std::size_t(n) * sizeof(staged_atom) + alignof(staged_atom) - 1);
}
template <class Member>
KOKKOS_INLINE_FUNCTION staged_atom* staged_atoms(const Member& m, int n) {
  auto* raw =
      static_cast<char*>(m.team_scratch(0).get_shmem(std::size_t(n) * sizeof(staged_atom) + alignof(staged_atom) - 1));
  // Aligned by adding to the pointer, not by rebuilding it from an integer, which would lose what the compiler
  // knows of its memory space.
  const std::size_t misalign = reinterpret_cast<std::uintptr_t>(raw) % alignof(staged_atom);
  return reinterpret_cast<staged_atom*>(raw + (misalign == 0 ? 0 : alignof(staged_atom) - misalign));
}

// The team scratch of one launch at `level`: region accumulators and staged atoms at level 0, the scan of the
// stencil's bin counts and each offset's first slot at geo.scan_level (level 1, global memory, when level 0 would
// overflow with it).
inline std::size_t binned_scratch_bytes(const binned_geometry& geo, int level) {
  using scratch_space = Kokkos::DefaultExecutionSpace::scratch_memory_space;
  const std::size_t points = std::size_t(geo.region[0]) * geo.region[1] * geo.region[2];
  const std::size_t scan = Kokkos::View<int*, scratch_space>::shmem_size(std::size_t(geo.stencil_size) + 1) +
                           Kokkos::View<int*, scratch_space>::shmem_size(std::size_t(geo.stencil_size));
  const std::size_t fixed =
      Kokkos::View<float*, scratch_space>::shmem_size(points) + staged_atom_bytes(geo.stage_atoms);
  return (level == 0 ? fixed : 0) + (level == geo.scan_level ? scan : 0);
}

// Bin coordinate b (may lie outside the grid) on `axis` -> the bin in the grid and the periodic image shift (in
// boxes); false when outside a non-periodic grid.
KOKKOS_INLINE_FUNCTION bool resolve_bin(const spatial::bin_grid& grid, int axis, int b, int& in_grid, int& wraps) {
  const int n = grid.dims[axis];
  if (!grid.periodic) {
    in_grid = b;
    wraps = 0;
    return b >= 0 && b < n;
  }
  wraps = b >= 0 ? b / n : -((-b + n - 1) / n);
  in_grid = b - wraps * n;
  return true;
}

// Offset s of a region's stencil (from the region's first bin b0): the bin's index in the grid (false: outside a
// non-periodic grid) and the image shift to add to its atoms.
KOKKOS_INLINE_FUNCTION bool stencil_bin(const spatial::bin_grid& grid, const int (&b0)[3], int ox, int oy, int oz,
                                        int& bin, float (&shift)[3]) {
  int b[3], w[3];
  const int off[3] = {ox, oy, oz};
  bool inside = true;
  for (int axis = 0; axis < 3; ++axis) {
    inside = resolve_bin(grid, axis, b0[axis] + off[axis], b[axis], w[axis]) && inside;
    shift[axis] = float(w[axis]) * grid.box[axis];
  }
  bin = inside ? grid.index(b[0], b[1], b[2]) : 0;
  return inside;
}

// The last offset s of scan[0..S) with scan[s] <= atom: the bin holding packed atom `atom` (never an empty bin).
template <class Scan>
KOKKOS_INLINE_FUNCTION int bin_of_packed_atom(const Scan& scan, int S, int atom) {
  int lo = 0, hi = S - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (scan[mid] <= atom)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// The portable kernel. A team first scans the fill counts of its stencil's bins (team scratch), then stages its atoms
// `stage_atoms` at a time, packed across bins (each thread finds its atom's bin by a binary search in the scan), so
// every stage is full and no empty slot is ever tested; the team's threads sum each stage into their segments'
// accumulators (team scratch: a team may be smaller than the region's segments). Count = true counts pairs instead
// of summing (work efficiency): counts(0) pairs whose r^2 was computed, counts(1) of those inside the cutoff (the
// singularity rule excluded), counts(2) the pairs of every staged atom with its segments before the per-atom test
// (the lecture's denominator: what the neighbourhood brings in).
template <class Space, int C, class Term, bool Count>
struct binned_kernel {
  // At most 64 registers a thread (65536 / 1024) on a GPU: left alone, nvcc gives the C = 8 kernel 80, which holds an
  // SM to 12 teams of 64 threads instead of 16.
  using policy = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<1024, 1>>;
  using member = typename policy::member_type;
  using space = typename Space::scratch_memory_space;
  template <class T>
  using scratch = Kokkos::View<T*, space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  binned_geometry geo;
  Kokkos::View<const atom4*> slots;
  Kokkos::View<const int*> counts;
  Kokkos::View<const int*> stencil;
  potential_view out;
  Kokkos::View<unsigned long long*> pair_counts;
  Term term;
  float rc2;
  bool accumulate;

  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const int pts = geo.region[0] * geo.region[1] * geo.region[2];
    const int S = geo.stencil_size;
    // Level 0 first: once a level chosen at run time has been allocated from, nvcc no longer knows that later level-0
    // pointers are shared memory and reads the stage with generic loads (SASS: LD.E.128 instead of LDS.128).
    scratch<float> acc(m.team_scratch(0), pts);
    staged_atom* stage = staged_atoms(m, geo.stage_atoms);
    scratch<int> scan(m.team_scratch(geo.scan_level), S + 1);
    scratch<int> first_slot(m.team_scratch(geo.scan_level), S);
    const int rank = m.team_rank(), team = m.team_size();
    const int r = m.league_rank();
    const int rx = r % geo.regions[0], ry = (r / geo.regions[0]) % geo.regions[1],
              rz = r / (geo.regions[0] * geo.regions[1]);
    const int i0 = rx * geo.region[0], j0 = ry * geo.region[1], k0 = rz * geo.region[2];
    int b0[3];
    geo.grid.bin_of(geo.g.coord(i0), geo.g.coord(j0), geo.g.coord(k0), b0[0], b0[1], b0[2]);
    for (int p = rank; p < pts; p += team) acc(p) = 0.0f;
    Kokkos::parallel_scan(Kokkos::TeamThreadRange(m, S), [&](const int s, int& run, const bool final) {
      int bin;
      float shift[3];
      const bool inside = stencil_bin(geo.grid, b0, stencil(3 * s), stencil(3 * s + 1), stencil(3 * s + 2), bin, shift);
      const int n = inside ? counts(bin) : 0;
      if (final) {
        scan(s) = run;
        first_slot(s) = bin * geo.capacity;
        if (s == S - 1) scan(S) = run + n;
      }
      run += n;
    });
    m.team_barrier();
    const int total = scan(S);
    const int seg_x = geo.region[0] / C;
    const int segments = seg_x * geo.region[1] * geo.region[2];
    unsigned long long examined = 0, within = 0, loaded = 0;
    for (int a0 = 0; a0 < total; a0 += geo.stage_atoms) {
      const int n = total - a0 < geo.stage_atoms ? total - a0 : geo.stage_atoms;
      m.team_barrier();  // the previous stage is done with
      for (int t = rank; t < n; t += team) {
        const int atom = a0 + t;
        const int s = bin_of_packed_atom(scan, S, atom);
        // The slots are a Kokkos allocation (aligned beyond 16 bytes) of 16-byte atoms: one 128-bit load each.
        staged_atom at =
            reinterpret_cast<const staged_atom*>(slots.data())[std::int64_t(first_slot(s)) + (atom - scan(s))];
        if (geo.grid.periodic) {
          int bin;
          float shift[3];
          stencil_bin(geo.grid, b0, stencil(3 * s), stencil(3 * s + 1), stencil(3 * s + 2), bin, shift);
          at.x += shift[0];
          at.y += shift[1];
          at.z += shift[2];
        }
        stage[t] = at;
      }
      m.team_barrier();
      for (int seg = rank; seg < segments; seg += team) {
        const int sx = seg % seg_x, sy = (seg / seg_x) % geo.region[1], sz = seg / (seg_x * geo.region[1]);
        const int j = j0 + sy, k = k0 + sz, ib = i0 + sx * C;
        const float y = geo.g.coord(j), z = geo.g.coord(k);
        float x[C], v[C];
        const int base = (sz * geo.region[1] + sy) * geo.region[0] + sx * C;
        for (int c = 0; c < C; ++c) {
          x[c] = geo.g.coord(ib + c);
          v[c] = Count ? 0.0f : acc(base + c);
        }
        const segment_test test = make_segment_test(geo.segment_test, x[0], x[C - 1], rc2);
        for (int a = 0; a < n; ++a) {
          const staged_atom at = stage[a];
          const float dy = y - at.y, dz = z - at.z;
          const float dyz2 = dy * dy + dz * dz;
          if (Count) loaded += C;
          if (!test.may_reach(at.x, dyz2)) continue;  // no point of this segment is within the cutoff
          if (Count) {
            examined += C;
            for (int c = 0; c < C; ++c) {
              const float dx = x[c] - at.x, r2 = dx * dx + dyz2;
              within += (r2 < rc2 && r2 >= kernels::coincidence_radius2_f && ib + c < geo.g.nx && j < geo.g.ny &&
                         k < geo.g.nz)
                            ? 1
                            : 0;
            }
          } else {
            kernels::accumulate_row_dyz2<C>(x, dyz2, at.x, at.q, v, term);
          }
        }
        if (!Count)
          for (int c = 0; c < C; ++c) acc(base + c) = v[c];
      }
    }
    if (Count) {
      Kokkos::atomic_add(&pair_counts(0), examined);
      Kokkos::atomic_add(&pair_counts(1), within);
      Kokkos::atomic_add(&pair_counts(2), loaded);
      return;
    }
    m.team_barrier();
    for (int p = rank; p < pts; p += team) {
      const int pi = p % geo.region[0], pj = (p / geo.region[0]) % geo.region[1],
                pk = p / (geo.region[0] * geo.region[1]);
      const int i = i0 + pi, j = j0 + pj, k = k0 + pk;
      if (i < geo.g.nx && j < geo.g.ny && k < geo.g.nz)
        kernels::store_point(out(geo.g.index(i, j, k)), acc(p), accumulate);
    }
  }
};

// Team size for a launch: the parameter, or one thread per segment on a GPU and 1 on the host, capped by Kokkos'
// team_size_max for this kernel.
int binned_team_size(const binned_setup& p);

// Launches the portable kernel for the plan's interaction on `space` (asynchronous on a GPU).
void launch_binned(const execution& space, const binned_plan& p, potential_view out, bool accumulate);

// A binned strategy = a plan (binning, stencil), a kernel launch (asynchronous), and the shared compute around it
// (the host's overflow sum during the kernel, its addition, the timings). `check_launch` (may be null) rejects at
// configuration time what the launch cannot run, given the parameters and the stencil's size.
using binned_launch = void (*)(const execution& space, const binned_plan& p, potential_view out, bool accumulate);
using binned_check = void (*)(const binned_setup& p, std::size_t stencil_size);
std::unique_ptr<potential_strategy> make_binned_strategy(const binned_setup& p, const std::string& label,
                                                         binned_launch launch, binned_check check_launch);

// The plan of binned strategy `s` (made by make_binned_strategy) for atoms already staged (the short range of MSM,
// which stages them once for both of its parts).
std::unique_ptr<binned_plan> prepare_binned(const potential_strategy& s, const potential_problem& p,
                                            const device_atoms& staged);

// Sums the overflow atoms into plan.overflow_map_host on the host (float64 per pair, minimum image when periodic).
void sum_overflow_on_host(const binned_plan& p);

}  // namespace ppl::potential_detail
