// `gather_coalesced`: the portable kernel meant to reach the rsqrt ceiling.
//  - Coalesced coarsening: a team is block_width x block_rows threads; thread (tx, ty) computes the C points
//    x = x0 + tx + c * block_width of row r0 + ty. For each c the 32 threads of a warp (same row when
//    block_width >= 32) write 32 consecutive floats, where gather_coarsened's writes were C floats apart.
//  - Atom tiles in team scratch: the team copies tile_atoms atoms from global memory into scratch (shared memory
//    on a GPU) once and every thread reads them from there (one broadcast 16-byte load per atom, amortised over C
//    pairs), instead of every thread fetching every atom through the cache hierarchy.
//  - The inner loop is kernels::accumulate_row: per pair one subtraction, one FMA, one rsqrt, one FMA; the
//    singularity test runs once per atom and row (warp-uniform), not per pair.
// Lattice sizes need not be multiples of C x block_width or block_rows: out-of-range threads compute on a clamped
// row/column, take part in the loads and barriers, and store nothing. Defaults: GPU block_width = 32 (smaller,
// down to 8, when a row is shorter than 32 x C, so short rows waste less), block_rows = 256 / block_width,
// tile_atoms = 1024; host: one-thread teams (block 1 x 1) whose C consecutive points vectorise, tile 2048.
#include <limits>

#include "ppl/core/error.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/kernels/row_accumulate.hpp"
#include "strategy_support.hpp"

namespace ppl::potential_detail {
namespace {

struct alignas(16) tile_atom {  // 16-byte aligned so a scratch read is one vector load
  float x, y, z, q;
};

using team_policy = Kokkos::TeamPolicy<>;
using member_type = team_policy::member_type;
using scratch_view = Kokkos::View<tile_atom*, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <int C>
struct coalesced_kernel {
  Kokkos::View<const atom4*> atoms;
  potential_view out;
  int nx, ny, nrows, n;
  int width, rows, blocks_x, tile;
  float h;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& m) const {
    scratch_view s(m.team_scratch(0), tile);
    const int rank = m.team_rank(), team = m.team_size();
    const int tx = rank % width, ty = rank / width;
    const int bx = m.league_rank() % blocks_x, by = m.league_rank() / blocks_x;
    const int i0 = bx * width * C + tx;
    const int row = by * rows + ty;
    const int rowc = row < nrows ? row : nrows - 1;  // compute somewhere valid, store nothing
    const float y = float(rowc % ny) * h, z = float(rowc / ny) * h;
    float x[C], v[C];
    for (int c = 0; c < C; ++c) {
      x[c] = float(i0 + c * width) * h;
      v[c] = 0.0f;
    }
    for (int t0 = 0; t0 < n; t0 += tile) {
      const int count = n - t0 < tile ? n - t0 : tile;
      m.team_barrier();  // everyone is done with the previous tile
      for (int a = rank; a < count; a += team) {
        const atom4 at = atoms(t0 + a);
        s(a) = tile_atom{at.x, at.y, at.z, at.q};
      }
      m.team_barrier();
      PPL_DEVICE_UNROLL(4)
      for (int a = 0; a < count; ++a) {
        const tile_atom at = s(a);
        kernels::accumulate_row<C>(x, y, z, at.x, at.y, at.z, at.q, v);
      }
    }
    if (row < nrows) {
      const std::int64_t base = std::int64_t(row) * nx;
      for (int c = 0; c < C; ++c) {
        const int i = i0 + c * width;
        if (i < nx) out(base + i) = v[c];
      }
    }
  }
};

class coalesced_strategy final : public potential_strategy {
 public:
  coalesced_strategy(int c, int width, int rows, int tile) : c_(c), width_(width), rows_(rows), tile_(tile) {}

  void compute(const atoms&, const device_atoms& a, const lattice& g, potential_view out) override {
    profiling_region region("gather_coalesced");
    switch (c_) {
      case 1:
        launch<1>(a, g, out);
        break;
      case 2:
        launch<2>(a, g, out);
        break;
      case 4:
        launch<4>(a, g, out);
        break;
      case 8:
        launch<8>(a, g, out);
        break;
      default:
        launch<16>(a, g, out);
        break;
    }
    Kokkos::fence();
  }

 private:
  template <int C>
  void launch(const device_atoms& a, const lattice& g, potential_view out) const {
    const bool gpu = default_space_is_gpu();
    int width = width_, rows = rows_;
    if (width == 0) {  // auto
      width = 1;
      if (gpu) {
        width = 8;
        while (width < 32 && width * C < g.dims[0]) width *= 2;
      }
    }
    if (rows == 0) rows = gpu ? 256 / width : 1;  // 256-thread teams: 1.7% faster than 128 on the H200 (run 1)
    const int tile = tile_ != 0 ? tile_ : gpu ? 1024 : 2048;
    const int nrows = g.dims[1] * g.dims[2];
    const int blocks_x = int(ceil_div(g.dims[0], std::int64_t(width) * C));
    const std::int64_t league = std::int64_t(blocks_x) * ceil_div(nrows, rows);
    if (league > std::int64_t(std::numeric_limits<int>::max()))
      throw error(exit_code::failure, "gather_coalesced: lattice too large for one launch");
    team_policy policy(int(league), width * rows);
    policy.set_scratch_size(0, Kokkos::PerTeam(scratch_view::shmem_size(tile)));
    const coalesced_kernel<C> kernel{a.data, out,  g.dims[0], g.dims[1], nrows,           int(a.size()),
                                     width,  rows, blocks_x,  tile,      float(g.spacing)};
    const int max_team = policy.team_size_max(kernel, Kokkos::ParallelForTag());
    if (width * rows > max_team)
      throw error(exit_code::bad_input, "gather_coalesced: block_width x block_rows = " + std::to_string(width * rows) +
                                            " exceeds this backend's team size limit " + std::to_string(max_team));
    Kokkos::parallel_for("ppl::potential::gather_coalesced", policy, kernel);
  }

  int c_, width_, rows_, tile_;
};

}  // namespace

std::unique_ptr<potential_strategy> make_gather_coalesced(const config_node* params) {
  const int c = read_int_choice(params, "coarsening", 8, {1, 2, 4, 8, 16});
  // Absent: 0 = chosen per backend and lattice at compute time.
  const int width = read_int_in(params, "block_width", 0, 1, 1024);
  const int rows = read_int_in(params, "block_rows", 0, 1, 1024);
  const int tile = read_int_in(params, "tile_atoms", 0, 1, 2048);  // 2048 x 16 B = 32 KiB of scratch
  return std::make_unique<coalesced_strategy>(c, width, rows, tile);
}

}  // namespace ppl::potential_detail
