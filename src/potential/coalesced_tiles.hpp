#pragma once
// The tiled, coalesced gather shared by `gather_coalesced` (portable row op) and `gather_hybrid_rsqrt_cuda` (CUDA row
// op with software and MUFU rsqrt): a team of block_width x block_rows threads; thread (tx, ty) computes the C points
// x = x0 + tx + c * block_width of row r0 + ty, so for each c a warp (same row when block_width >= 32) writes
// block_width consecutive floats; atoms are staged in tiles of tile_atoms in team scratch (shared memory on a GPU),
// each read by every thread as one broadcast 16-byte load and used for C pairs.
// Lattice sizes need not be multiples of C x block_width or block_rows: out-of-range threads compute on a clamped
// row/column, take part in the loads and barriers, and store nothing.
// The same kernel serves `gather_atom_split`, whose league is point tiles x atom chunks: its store policy (Store)
// says so (split = true), and each team then sums one chunk of the atoms and hands its partial sums to the store.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "ppl/core/error.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/kernels/row_accumulate.hpp"
#include "strategy_support.hpp"

namespace ppl::potential_detail {

struct alignas(16) tile_atom {  // 16-byte aligned so a scratch read is one vector load
  float x, y, z, q;
};

// The portable row op: kernels::accumulate_row (rsqrt unit on a GPU, vectorised Newton on a host). A row op has two
// entries: `apply` applies the singularity rule itself; `apply_clear` may assume that no atom of the tile lies on
// the row's line (the kernel checked the whole tile against the team's rows when it staged it).
struct portable_row {
  static constexpr int min_teams_per_sm = 0;  // no launch bounds
  template <int C>
  KOKKOS_FORCEINLINE_FUNCTION static void apply(const float (&x)[C], float y, float z, const tile_atom& at,
                                                float (&v)[C]) {
    kernels::accumulate_row<C>(x, y, z, at.x, at.y, at.z, at.q, v);
  }
  template <int C>
  KOKKOS_FORCEINLINE_FUNCTION static void apply_clear(const float (&x)[C], float y, float z, const tile_atom& at,
                                                      float (&v)[C]) {
    const float dy = y - at.y, dz = z - at.z;
    kernels::accumulate_row_clear<C>(x, dy * dy + dz * dz, at.x, at.q, v);
  }
};

// The largest team a kernel with launch bounds takes (the default GPU team, 512 threads).
constexpr int gpu_team_bound = 512;

// Atoms summed into fresh partial sums before these are added to the point's total: float32 sums of 4e4 terms in
// one accumulator lost 3e-6 (relative L2) to rounding; sums of partial sums of 256 lose a fraction of that (the
// error grows with sqrt(256) + sqrt(n / 256) instead of sqrt(n)), for one add per point per 256 atoms.
constexpr int partial_sum_atoms = 256;

// Whether one of the n rows from row (j, k) onwards passes within the singularity radius of the atom's line along
// x: the kernel's own dy^2 + dz^2 per row (row_y, row_z are coord(j), coord_z(k)), against 4x the radius^2 for
// rounding differences (a false alarm only sends a tile to the checked loop).
KOKKOS_INLINE_FUNCTION bool meets_rows(const spatial::lattice_shape& g, int j, int k, int n, float ay, float az) {
  for (int r = 0; r < n; ++r) {
    const float dy = g.coord(j) - ay, dz = g.coord_z(k) - az;
    if (dy * dy + dz * dz < 4.0f * kernels::coincidence_radius2_f) return true;
    if (++j == g.ny) j = 0, ++k;
  }
  return false;
}

// Where a team's sums go when every team sums all the atoms: the point's value, overwritten or added to.
struct direct_store {
  static constexpr bool split = false;  // one team per point tile, all atoms
  potential_view out;
  bool accumulate;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int /*chunk*/, std::int64_t point, float v) const {
    kernels::store_point(out(point), v, accumulate);
  }
};

// Space: the execution space of the launch (each kernel is instantiated for every space of the build).
template <class Space, int C, class Row, class Store = direct_store>
struct coalesced_kernel {
  // Row::min_teams_per_sm (CUDA __launch_bounds__): teams a multiprocessor must hold at once, which caps the
  // registers per thread (2 teams of 512: 64).
  using policy =
      Kokkos::TeamPolicy<Space,
                         Kokkos::LaunchBounds<Row::min_teams_per_sm == 0 ? 0 : gpu_team_bound, Row::min_teams_per_sm>>;
  using member = typename policy::member_type;
  using scratch_view =
      Kokkos::View<tile_atom*, typename Space::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using sums_view = Kokkos::View<float*, typename Space::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Kokkos::View<const atom4*> atoms;
  Store store;
  spatial::lattice_shape g;
  int nrows, n;
  int width, rows, blocks_x, tile;
  // Store::split only: league rank = chunk * point_tiles + point tile; chunk k sums atoms [k, k + 1) * chunk_atoms.
  int point_tiles = 1, chunk_atoms = 0;

  // Team scratch: the atom tile in level 0 (shared memory on a GPU); each thread's C running sums in level 1
  // (global memory, per team, cached: read and written once per partial_sum_atoms atoms), point c of thread t at
  // c * team + t. Kept there rather than in registers so that the registers hold the partial sums, and not in
  // level 0, which Kokkos 3.4 caps at 48 KiB per team on CUDA.
  static std::size_t tile_bytes(int tile_atoms) { return scratch_view::shmem_size(std::size_t(tile_atoms)); }
  static std::size_t sums_bytes(int team_size) { return sums_view::shmem_size(std::size_t(C) * team_size); }

  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    scratch_view s(m.team_scratch(0), tile);
    sums_view sums(m.team_scratch(1), std::size_t(C) * m.team_size());
    const int rank = m.team_rank(), team = m.team_size();
    const int tx = rank % width, ty = rank / width;
    const int league = m.league_rank();
    const int point_tile = Store::split ? league % point_tiles : league;
    const int chunk = Store::split ? league / point_tiles : 0;
    const int a_begin = Store::split ? chunk * chunk_atoms : 0;
    const int a_end = Store::split ? (n - a_begin < chunk_atoms ? n : a_begin + chunk_atoms) : n;
    const int bx = point_tile % blocks_x, by = point_tile / blocks_x;
    const int i0 = bx * width * C + tx;
    const int row = by * rows + ty;
    const int rowc = row < nrows ? row : nrows - 1;  // compute somewhere valid, store nothing
    const float y = g.row_y(rowc), z = g.row_z(rowc);
    float x[C];
    for (int c = 0; c < C; ++c) {
      x[c] = g.coord(i0 + c * width);
      sums(c * team + rank) = 0.0f;
    }
    // The team's rows, clamped as the threads clamp theirs: the rows a staged atom is checked against.
    const int row_lo = by * rows < nrows ? by * rows : nrows - 1;
    const int team_rows = (by * rows + rows - 1 < nrows ? by * rows + rows - 1 : nrows - 1) - row_lo + 1;
    const int j_lo = row_lo % g.ny, k_lo = row_lo / g.ny;
    for (int t0 = a_begin; t0 < a_end; t0 += tile) {
      const int count = a_end - t0 < tile ? a_end - t0 : tile;
      m.team_barrier();  // everyone is done with the previous tile
      int on_a_row = 0;
      for (int a = rank; a < count; a += team) {
        const atom4 at = atoms(t0 + a);
        s(a) = tile_atom{at.x, at.y, at.z, at.q};
        on_a_row |= meets_rows(g, j_lo, k_lo, team_rows, at.y, at.z) ? 1 : 0;
      }
      // Team-uniform: a tile with no atom on any of the team's rows (nearly every tile) runs the loop without the
      // per-atom test, which cost 4-5 of the 40 instructions per atom and thread at C = 8 (branch, sync, compare).
      m.team_reduce(Kokkos::Max<int>(on_a_row));
      m.team_barrier();
      for (int b0 = 0; b0 < count; b0 += partial_sum_atoms) {
        const int b1 = count - b0 < partial_sum_atoms ? count : b0 + partial_sum_atoms;
        float p[C];
        for (int c = 0; c < C; ++c) p[c] = 0.0f;
        if (on_a_row) {
          PPL_DEVICE_UNROLL(4)
          for (int a = b0; a < b1; ++a) Row::template apply<C>(x, y, z, s(a), p);
        } else {
          PPL_DEVICE_UNROLL(4)
          for (int a = b0; a < b1; ++a) Row::template apply_clear<C>(x, y, z, s(a), p);
        }
        for (int c = 0; c < C; ++c) sums(c * team + rank) += p[c];
      }
    }
    if (row < nrows) {
      const std::int64_t base = g.row_start(row);
      for (int c = 0; c < C; ++c) {
        const int i = i0 + c * width;
        if (i < g.nx) store(chunk, base + i, sums(c * team + rank));
      }
    }
  }
};

// Team shape: 0 = chosen per backend and lattice. GPU: block_rows = 512 / block_width, tile 2048 (the fastest shape
// of the H200 sweep, perf/results/potential-h200: 2.8% faster than 32 x 8 threads with 1024-atom tiles), and the block
// width in [8, 64] that pads the lattice least, 32 among equals: a row of 400 at C = 8 in 256-point strips leaves 22%
// of the threads idle (H200, 400^3 points, 1e5 atoms: 3.15e12 atom-evaluations/s with width 32, 3.92e12 with 25 or
// 50, perf/results/ions-h200), a row of 100 in 128-point strips 22% (width 13: 104). Host: one-thread teams (the C
// consecutive points vectorise), tile 2048.
struct tile_shape {
  int width = 0, rows = 0, tile = 0;
};

constexpr int default_tile_atoms = 2048;
constexpr int gpu_default_team = 512;
constexpr int gpu_widest_default = 32;

// Threads (and so points) a width and the rows it implies spend on `g`, padding included.
inline double padded_points(int width, int rows, int c, const lattice& g) {
  const double strip = double(width) * c, row_count = double(g.dims[1]) * g.dims[2];
  return std::ceil(g.dims[0] / strip) * strip * std::ceil(row_count / rows) * rows;
}

// The width in [8, 64] with the fewest padded points, nearest to 32 among equals; `rows` as given (0: 512 / width).
// With rows given, at most 32, so the team is never larger than largest_shape's (32 x rows).
inline int least_padded_width(int c, const lattice& g, int rows) {
  const int widest = rows ? gpu_widest_default : 2 * gpu_widest_default;
  int best = gpu_widest_default;
  auto cost = [&](int w) { return padded_points(w, rows ? rows : std::max(1, gpu_default_team / w), c, g); };
  for (int d = 1; d <= 32; ++d)
    for (int w : {gpu_widest_default - d, gpu_widest_default + d})
      if (w >= 8 && w <= widest && cost(w) < cost(best)) best = w;
  return best;
}

// `gpu`: the backend the shape is for (the auto rule asks about a summarised problem).
inline tile_shape resolve_shape(tile_shape s, int c, const lattice& g, bool gpu = default_space_is_gpu()) {
  if (s.width == 0) {
    s.width = 1;
    if (gpu) s.width = least_padded_width(c, g, s.rows);
  }
  if (s.rows == 0) s.rows = gpu ? std::max(1, gpu_default_team / s.width) : 1;
  if (s.tile == 0) s.tile = default_tile_atoms;
  return s;
}

// The largest team Kokkos can launch for coalesced_kernel<Space, C, Row> with `tile` atoms of team scratch: its
// TeamPolicy::team_size_max for this functor (OpenMP: the thread pool, at most 64; Serial: 1; CUDA: the kernel's
// registers and the scratch). Asked before the launch policy exists, because OpenMP's TeamPolicy aborts the process
// when constructed with a larger team.
template <class Space, int C, class Row, class Store = direct_store>
int max_team_size(int tile) {
  using kernel_type = coalesced_kernel<Space, C, Row, Store>;
  typename kernel_type::policy probe(1, 1);
  probe.set_scratch_size(0, Kokkos::PerTeam(kernel_type::tile_bytes(tile)));
  probe.set_scratch_size(1, Kokkos::PerTeam(kernel_type::sums_bytes(1024)));  // the largest team a GPU launches
  return probe.team_size_max(kernel_type{}, Kokkos::ParallelForTag());
}

// The largest team shape resolve_shape can pick for `s` on this backend, whatever the lattice: the given width and
// rows, or the defaults (on a GPU the default width depends on the row length, up to 32).
inline tile_shape largest_shape(tile_shape s) {
  const bool gpu = default_space_is_gpu();
  if (s.width == 0) s.width = gpu ? gpu_widest_default : 1;
  if (s.rows == 0) s.rows = gpu ? std::max(1, gpu_default_team / s.width) : 1;
  return s;
}

// At configuration time (the factories): the team shape must be one the default space can launch for the actual
// kernel, so a job is rejected by `ppl validate` instead of aborting in Kokkos. A parameter_error naming the key
// (block_width, block_rows or, with both auto, tile_atoms) and the range. (On Kokkos::Serial a team is one thread:
// launch_tiles refuses larger ones there.)
template <int C, class Row, class Store = direct_store>
void check_tile_shape(const std::string& label, tile_shape s) {
  const int tile = s.tile ? s.tile : default_tile_atoms;
  const int max_team = max_team_size<Kokkos::DefaultExecutionSpace, C, Row, Store>(tile);
  const tile_shape big = largest_shape(s);
  const int team = big.width * big.rows;
  if (team <= max_team) return;
  const char* key = s.width ? "block_width" : s.rows ? "block_rows" : "tile_atoms";
  const int threads = Kokkos::DefaultExecutionSpace().concurrency();
  throw parameter_error(key, std::string(s.width || s.rows ? "gives" : "(block_width, block_rows auto) gives") +
                                 " teams of " + std::to_string(big.width) + " x " + std::to_string(big.rows) + " = " +
                                 std::to_string(team) + " threads, but " + label + " (coarsening " + std::to_string(C) +
                                 ", tile_atoms " + std::to_string(tile) + ") runs teams of at most " +
                                 std::to_string(max_team) + " in this build (" + Kokkos::DefaultExecutionSpace::name() +
                                 ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads") +
                                 "): block_width x block_rows must be in [1, " + std::to_string(max_team) + "]");
}

// The point tiles of a lattice for a resolved team shape: blocks_x along x times the row blocks.
struct point_tiling {
  int nrows = 0, blocks_x = 0;
  std::int64_t tiles = 0;
};
inline point_tiling tiling_of(const lattice& g, tile_shape s, int c) {
  point_tiling t;
  t.nrows = g.dims[1] * g.dims[2];
  t.blocks_x = int(ceil_div(g.dims[0], std::int64_t(s.width) * c));
  t.tiles = std::int64_t(t.blocks_x) * ceil_div(t.nrows, s.rows);
  return t;
}

// One launch of coalesced_kernel<Space, C, Row, Store> on `space` with a resolved shape `s`: the league is the point
// tiles, times `chunks` atom chunks of `chunk_atoms` when Store::split. `label` names the kernel for profilers and
// errors.
template <int C, class Row, class Space, class Store>
void launch_tiles(const Space& space, const std::string& label, const device_atoms& a, const lattice& g,
                  const Store& store, tile_shape s, int chunks = 1, int chunk_atoms = 0) {
  using kernel_type = coalesced_kernel<Space, C, Row, Store>;
  const point_tiling t = tiling_of(g, s, C);
  const std::int64_t league = t.tiles * chunks;
  if (league > std::int64_t(std::numeric_limits<int>::max()))
    throw error(exit_code::failure, label + ": lattice too large for one launch");
  // check_tile_shape passed at configuration time for the default space; this guards the other spaces (Serial:
  // one-thread teams) and callers that skipped it.
  const int max_team = max_team_size<Space, C, Row, Store>(s.tile);
  if (s.width * s.rows > max_team)
    throw error(exit_code::bad_input, label + ": block_width x block_rows = " + std::to_string(s.width * s.rows) +
                                          " exceeds the team size limit " + std::to_string(max_team) + " of " +
                                          Space::name());
  typename kernel_type::policy policy(space, int(league), s.width * s.rows);
  policy.set_scratch_size(0, Kokkos::PerTeam(kernel_type::tile_bytes(s.tile)));
  policy.set_scratch_size(1, Kokkos::PerTeam(kernel_type::sums_bytes(s.width * s.rows)));
  const kernel_type kernel{a.data, store,      g.shape(), t.nrows,      int(a.size()), s.width,
                           s.rows, t.blocks_x, s.tile,    int(t.tiles), chunk_atoms};
  Kokkos::parallel_for("ppl::potential::" + label, policy, kernel);
}

// One launch over the lattice, every team summing all the atoms into its points.
template <int C, class Row, class Space>
void launch_coalesced(const Space& space, const std::string& label, const device_atoms& a, const lattice& g,
                      potential_view out, tile_shape shape, bool accumulate) {
  launch_tiles<C, Row>(space, label, a, g, direct_store{out, accumulate}, resolve_shape(shape, C, g));
}

// Declares the team-shape members of P (a tile_params) after P's own: the tiled strategies' fields() end with it.
template <class P>
parameter_fields<P>& tile_fields(parameter_fields<P>& f) {
  return f
      .integer_or_auto(
          "block_width", &P::block_width, 1, 1024,
          "threads along x per team (auto: 1 on the host; on a GPU 32, or 8-16 for rows shorter than 32 C)")
      .integer_or_auto("block_rows", &P::block_rows, 1, 1024, "rows per team (auto: 1 host, 512 / block_width GPU)")
      .integer("tile_atoms", &P::tile_atoms, 1, 2048, "atoms per team-scratch tile (16 B each)");
}

// The team shape of the struct (0: per backend, see resolve_shape). The factory then calls check_tile_shape for
// its kernel.
inline tile_shape tile_shape_of(const tile_params& p) {
  return {p.block_width, p.block_rows, p.tile_atoms};
}

}  // namespace ppl::potential_detail
