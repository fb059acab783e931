// `gather_atom_split`: gather_coalesced's tiled kernel (coalesced_tiles.hpp) for lattices too small to fill the
// device with point tiles alone. On the PMPP plane (10,000 points) the 32 x 16-thread teams of 8 points per thread
// make about 4 teams for the H200's 132 SMs; splitting the atoms as well gives point tiles x atom chunks teams, each
// staging its chunk in team scratch and summing it for its tile of points.
//  - combine: atomic: each team adds its partial sums into the map with Kokkos::atomic_add (in overwrite mode the
//    map is zeroed first, so the chunks need no order among themselves); the float sum order per point then
//    depends on which team finishes first, so the last bits vary from run to run.
//  - combine: two_pass: each team writes its partial sums to partial[chunk][point] (allocated by prepare()), then a
//    second pass adds the chunks of each point in chunk order: the same bits on every run and any thread count, at
//    the cost of writing and reading chunks x points floats once.
//  - One chunk (the usual case on a host, or a lattice that fills the device): the partial sums are the sums, the
//    kernel stores them directly, exactly like gather_coalesced.
// Automatic chunking (atoms_per_chunk: 0) is in atom_chunks(); its constants are with the auto rule
// (include/ppl/potential/strategy_choice.hpp).
#include <fmt/format.h>
#include <unistd.h>

#include "coalesced_tiles.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/strategy_choice.hpp"

namespace ppl::potential_detail {
namespace {

enum class combine_mode { atomic, two_pass };

// Partial sums added into the map: the chunks of a point in any order.
struct atomic_store {
  static constexpr bool split = true;
  potential_view out;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int /*chunk*/, std::int64_t point, float v) const {
    Kokkos::atomic_add(&out(point), v);
  }
};

// Partial sums kept per chunk for the ordered second pass.
struct partial_store {
  static constexpr bool split = true;
  Kokkos::View<float*> partial;  // [chunk][point], point fastest
  std::int64_t points;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int chunk, std::int64_t point, float v) const {
    partial(std::int64_t(chunk) * points + point) = v;
  }
};

struct chunking {
  int chunks = 1, atoms_per_chunk = 0;
};

// How the atoms are split. `requested` > 0: chunks of that many atoms. 0 (auto): enough chunks that point tiles x
// chunks reach auto_rule::split_target_waves times the teams the device holds at once (its concurrency over the
// team size), but no chunk smaller than auto_rule::split_min_chunk_atoms atoms.
chunking atom_chunks(std::int64_t atoms, std::int64_t tiles, int team_threads, int concurrency, int requested) {
  chunking c;
  if (atoms <= 0) return c;
  std::int64_t per_chunk;
  if (requested > 0) {
    per_chunk = std::min<std::int64_t>(requested, atoms);
  } else {
    const std::int64_t resident = std::max(1, concurrency / std::max(1, team_threads));
    const std::int64_t wanted = std::int64_t(auto_rule::split_target_waves) * resident;
    const std::int64_t chunks = std::max<std::int64_t>(1, ceil_div(wanted, std::max<std::int64_t>(1, tiles)));
    per_chunk = std::max<std::int64_t>(auto_rule::split_min_chunk_atoms, ceil_div(atoms, chunks));
    per_chunk = std::min(per_chunk, atoms);
  }
  c.atoms_per_chunk = int(per_chunk);
  c.chunks = int(ceil_div(atoms, per_chunk));
  return c;
}

class atom_split_plan final : public direct_plan {
 public:
  atom_split_plan(const potential_problem& p, tile_shape s, std::int64_t tiles, chunking c, bool partials)
      : direct_plan(p), shape(s), point_tiles(tiles), split(c) {
    if (partials && c.chunks > 1) partial = make_cached_view<float>(std::size_t(c.chunks) * p.grid.size());
  }
  tile_shape shape;  // resolved for this lattice; the tile no larger than a chunk
  std::int64_t point_tiles;
  chunking split;
  cached_view<float> partial;  // two_pass with more than one chunk (device_buffers.hpp)

  std::vector<std::pair<std::string, double>> breakdown() const override {
    return {{"point_tiles", double(point_tiles)},
            {"atom_chunks", double(split.chunks)},
            {"atoms_per_chunk", double(split.atoms_per_chunk)},
            {"teams", double(point_tiles) * split.chunks}};
  }
};

// The second pass of two_pass: each point adds its chunks in chunk order.
struct sum_chunks {
  Kokkos::View<const float*> partial;
  potential_view out;
  std::int64_t points;
  int chunks;
  bool accumulate;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    float v = 0.0f;
    for (int k = 0; k < chunks; ++k) v += partial(std::int64_t(k) * points + p);
    kernels::store_point(out(p), v, accumulate);
  }
};

class atom_split_strategy final : public direct_strategy {
 public:
  atom_split_strategy(int c, tile_shape shape, combine_mode combine, int atoms_per_chunk)
      : c_(c), shape_(shape), combine_(combine), atoms_per_chunk_(atoms_per_chunk) {}

  // The partial sums of two_pass must fit beside the map; the launch's league must fit an int.
  void check(const potential_problem& p) const override {
    const tile_shape s = resolve_shape(shape_, c_, p.grid);
    const std::int64_t tiles = tiling_of(p.grid, s, c_).tiles;
    const chunking split = split_of(p, s, tiles);
    if (double(tiles) * split.chunks > double(std::numeric_limits<int>::max()))
      throw input_error(
          fmt::format("{} atom chunks x {} point tiles is more teams than one launch runs; raise "
                      "atoms_per_chunk",
                      split.chunks, tiles));
    if (combine_ != combine_mode::two_pass || split.chunks < 2) return;
    const double need = 4.0 * double(split.chunks) * double(p.grid.size());
    const bool gpu = default_space_is_gpu();
    const double have = gpu ? query_system_info().device_memory_gib * 1073741824.0
                            : double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    if (have > 0 && need > 0.5 * have)
      throw input_error(
          fmt::format("combine two_pass keeps {} chunks x {} points of partial sums ({:.3g} GiB), more "
                      "than half the {} memory; raise atoms_per_chunk or use combine: atomic",
                      split.chunks, p.grid.size(), need / 1073741824.0, gpu ? "device" : "host"));
  }

  std::unique_ptr<potential_plan> prepare(const potential_problem& p) const override {
    tile_shape s = resolve_shape(shape_, c_, p.grid);
    const std::int64_t tiles = tiling_of(p.grid, s, c_).tiles;
    const chunking split = split_of(p, s, tiles);
    // A tile larger than a chunk would only reserve scratch no team fills (fewer teams resident per SM).
    if (split.atoms_per_chunk > 0 && split.chunks > 1) s.tile = std::min(s.tile, split.atoms_per_chunk);
    return std::make_unique<atom_split_plan>(p, s, tiles, split, combine_ == combine_mode::two_pass);
  }

  void compute(const execution& space, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
    profiling_region region("gather_atom_split");
    const auto* p = dynamic_cast<const atom_split_plan*>(&plan);
    if (p == nullptr) throw error(exit_code::failure, "gather_atom_split was given another strategy's plan");
    space.visit([&](const auto& s) { run(s, *p, out, mode == write_mode::accumulate); });
    space.fence();
  }

 private:
  chunking split_of(const potential_problem& p, tile_shape s, std::int64_t tiles) const {
    return atom_chunks(std::int64_t(p.input.size()), tiles, s.width * s.rows,
                       Kokkos::DefaultExecutionSpace().concurrency(), atoms_per_chunk_);
  }

  template <class Space>
  void run(const Space& space, const atom_split_plan& p, potential_view out, bool accumulate) const {
    const int chunks = p.split.chunks;
    with_coarsening(c_, [&](auto tag) {
      constexpr int C = decltype(tag)::value;
      if (chunks < 2) {
        launch_tiles<C, portable_row>(space, "gather_atom_split", p.atoms, p.grid, direct_store{out, accumulate},
                                      p.shape);
      } else if (combine_ == combine_mode::atomic) {
        // Every chunk adds: overwrite starts from zeros.
        if (!accumulate) Kokkos::deep_copy(space, out, 0.0f);
        launch_tiles<C, portable_row>(space, "gather_atom_split", p.atoms, p.grid, atomic_store{out}, p.shape, chunks,
                                      p.split.atoms_per_chunk);
      } else {
        const std::int64_t points = std::int64_t(p.grid.size());
        launch_tiles<C, portable_row>(space, "gather_atom_split", p.atoms, p.grid,
                                      partial_store{p.partial.view, points}, p.shape, chunks,
                                      p.split.atoms_per_chunk);
        Kokkos::parallel_for("ppl::potential::gather_atom_split::sum_chunks",
                             Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, points),
                             sum_chunks{p.partial.view, out, points, chunks, accumulate});
      }
    });
  }

  int c_;
  tile_shape shape_;
  combine_mode combine_;
  int atoms_per_chunk_;
};

}  // namespace

}  // namespace ppl::potential_detail

namespace ppl {

const parameter_fields<gather_atom_split_params>& gather_atom_split_params::fields() {
  static const auto f = [] {
    using P = gather_atom_split_params;
    parameter_fields<P> d;
    d.choice("combine", &P::combine, {"atomic", "two_pass"},
             "how a point's chunk sums meet: atomic adds into the map, or partial sums added in chunk order by a "
             "second pass (deterministic)")
        .integer_or_auto("atoms_per_chunk", &P::atoms_per_chunk, 1, 100000000,
                         "atoms per team (auto: point tiles x chunks >= " +
                             std::to_string(auto_rule::split_target_waves) +
                             " x the teams the device holds at once, chunks of at least " +
                             std::to_string(auto_rule::split_min_chunk_atoms) + " atoms)")
        .integer_of("coarsening", &P::coarsening, {1, 2, 4, 8, 16}, "points per thread (C; GPU builds: 4)");
    return potential_detail::tile_fields(d);
  }();
  return f;
}

std::unique_ptr<potential_strategy> make_gather_atom_split(const gather_atom_split_params& p) {
  using namespace potential_detail;
  gather_atom_split_params::fields().check(p);
  const combine_mode combine = p.combine == "atomic" ? combine_mode::atomic : combine_mode::two_pass;
  const tile_shape shape = tile_shape_of(p);
  // Both kernels this combine may launch (one chunk stores directly); their register counts may differ.
  with_coarsening(p.coarsening, [&](auto tag) {
    constexpr int C = decltype(tag)::value;
    check_tile_shape<C, portable_row>("gather_atom_split", shape);
    if (combine == combine_mode::atomic)
      check_tile_shape<C, portable_row, atomic_store>("gather_atom_split", shape);
    else
      check_tile_shape<C, portable_row, partial_store>("gather_atom_split", shape);
  });
  return std::make_unique<atom_split_strategy>(p.coarsening, shape, combine, p.atoms_per_chunk);
}

}  // namespace ppl
