// `cutoff_reference`: the float64 oracle of the cutoff strategies. A host cell list (cells of edge >= the radius,
// each point visits its 27 neighbour cells), OpenMP-parallel over points, each pair through pair_potential_f64
// (the same term, singularity rule included, as the direct `reference`), so it agrees with the all-pairs float64
// sum to rounding (the order of the additions differs) while visiting only the atoms near each point.
//
// - Non-periodic: atoms at least the radius away from the lattice's box cannot reach any point and are dropped; the
//   cells tile that box grown by the radius.
// - Periodic (lattice::periodic): atoms are binned at their position wrapped into the box; each pair's distance is
//   the minimum image of the original coordinates, computed as reference_potential_at does. With fewer than three
//   cells along an axis the neighbour cells along it are visited once each.
// Cells are a little longer than the radius (1e-6 relative), so a position rounded into the next cell still lies
// in a neighbour cell of every point within the radius. Their count is capped (at 8 per atom, at least 27): a
// radius tiny against the lattice gives longer cells, not billions of empty ones.
//
// pairs_examined() / pairs_within() are counted by compute() (the same numbers on every call; 0 before the first):
// pairs whose distance was computed, and those with r < radius.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ppl/potential/reference.hpp"
#include "strategy_support.hpp"

namespace ppl {
namespace {

constexpr double edge_margin = 1e-6;  // cells are at least radius * (1 + edge_margin) long

// The atoms that can reach the lattice, sorted by cell.
class cell_list {
 public:
  cell_list(const atoms& a, const lattice& g, const interaction& physics) : grid_(g), physics_(physics) {
    if (!physics.is_cutoff() || !(physics.radius > 0))
      throw input_error("cutoff_reference: needs a cutoff interaction with a positive radius (got " +
                        physics.describe() + ")");
    build(a);
  }

  // Calls write(point index, float64 value) once per lattice point, OpenMP over chunks of consecutive points, and
  // returns the pairs examined and within the radius.
  template <class Host, class Write>
  cutoff_pair_counts evaluate(const Host& host, const Write& write) const {
    const lattice& g = grid_;
    const double rc2 = physics_.radius * physics_.radius;
    const bool periodic = g.periodic;
    auto image = [](double d, double l) { return d - l * std::nearbyint(d / l); };  // as reference_potential_at
    // Each chunk keeps its own pair counts (summed after, exactly).
    constexpr std::int64_t chunk = 256;
    const std::int64_t points = std::int64_t(g.size()), chunks = (points + chunk - 1) / chunk;
    std::vector<std::uint64_t> examined(std::size_t(chunks), 0), within(std::size_t(chunks), 0);
    Kokkos::parallel_for("ppl::potential::cutoff_reference",
                         Kokkos::RangePolicy<Host, Kokkos::IndexType<std::int64_t>>(host, 0, chunks),
                         [&](std::int64_t c) {
                           std::uint64_t n_examined = 0, n_within = 0;
                           const std::int64_t end = std::min(points, (c + 1) * chunk);
                           for (std::int64_t idx = c * chunk; idx < end; ++idx) {
                             const auto pt = g.point(std::size_t(idx));
                             int nb[3][3], count[3];
                             for (int d = 0; d < 3; ++d)
                               count[d] = neighbours(cell_of(d, pt[d]), cells_[d], periodic, nb[d]);
                             double v = 0.0;
                             for (int cz = 0; cz < count[2]; ++cz)
                               for (int cy = 0; cy < count[1]; ++cy)
                                 for (int cx = 0; cx < count[0]; ++cx) {
                                   const std::size_t cell = cell_index(nb[0][cx], nb[1][cy], nb[2][cz]);
                                   for (std::size_t s = start_[cell]; s < start_[cell + 1]; ++s) {
                                     double dx = pt[0] - x_[s], dy = pt[1] - y_[s], dz = pt[2] - z_[s];
                                     if (periodic)
                                       dx = image(dx, box_[0]), dy = image(dy, box_[1]), dz = image(dz, box_[2]);
                                     const double r2 = dx * dx + dy * dy + dz * dz;
                                     ++n_examined;
                                     // pair_potential_f64 is 0 for r2 >= rc2: only the pairs within are handed to it.
                                     if (r2 < rc2) {
                                       ++n_within;
                                       v += pair_potential_f64(physics_, q_[s], r2);
                                     }
                                   }
                                 }
                             write(std::size_t(idx), v);
                           }
                           examined[std::size_t(c)] = n_examined;
                           within[std::size_t(c)] = n_within;
                         });
    host.fence();
    cutoff_pair_counts out;
    for (std::size_t c = 0; c < examined.size(); ++c) out.examined += examined[c], out.within += within[c];
    return out;
  }

 private:
  lattice grid_;
  interaction physics_;
  // Cells: cells_ per axis of length edge_, the lower corner of cell 0 at corner_ (absolute coordinates; for a
  // periodic lattice the lattice origin, and positions are wrapped into [0, box_) relative to it).
  std::array<int, 3> cells_{1, 1, 1};
  std::array<double, 3> edge_{1, 1, 1}, corner_{0, 0, 0}, box_{0, 0, 0};
  // Atoms sorted by cell (x fastest), original float64 coordinates; cell c holds [start_[c], start_[c + 1]).
  std::vector<double> x_, y_, z_, q_;
  std::vector<std::size_t> start_;

  int cell_of(int axis, double coordinate) const {
    double rel = coordinate - corner_[axis];
    if (grid_.periodic) rel -= box_[axis] * std::floor(rel / box_[axis]);
    const double c = std::floor(rel / edge_[axis]);
    return int(std::min(double(cells_[axis] - 1), std::max(0.0, c)));  // clamps what rounding moved out
  }
  std::size_t cell_index(int cx, int cy, int cz) const {
    return (std::size_t(cz) * std::size_t(cells_[1]) + std::size_t(cy)) * std::size_t(cells_[0]) + std::size_t(cx);
  }

  // The neighbour cells of cell c along one axis of n cells: c-1, c, c+1 clipped to [0, n) or, periodic, wrapped
  // around and each visited once. Returns how many.
  static int neighbours(int c, int n, bool periodic, int out[3]) {
    int count = 0;
    for (int d = -1; d <= 1; ++d) {
      int v = c + d;
      if (periodic) {
        v = (v % n + n) % n;
      } else if (v < 0 || v >= n) {
        continue;
      }
      bool seen = false;
      for (int i = 0; i < count; ++i) seen = seen || out[i] == v;
      if (!seen) out[count++] = v;
    }
    return count;
  }

  void build(const atoms& a) {
    const lattice& g = grid_;
    const double rc = physics_.radius;
    std::array<double, 3> extent{};
    std::vector<std::size_t> kept;
    kept.reserve(a.size());
    if (g.periodic) {
      box_ = g.box();
      corner_ = g.origin;
      extent = box_;
      for (std::size_t i = 0; i < a.size(); ++i) kept.push_back(i);
    } else {
      // Distance from each atom to the box of the lattice points; >= rc: no point is within rc. The grid of cells
      // covers the box grown by a little more than rc, so every kept atom falls inside it.
      const double grow = rc * (1.0 + 1e-3);
      for (int d = 0; d < 3; ++d) {
        corner_[d] = g.origin[d] - grow;
        extent[d] = g.coord(d, g.dims[d] - 1) - g.origin[d] + 2.0 * grow;
      }
      const double keep2 = rc * rc * (1.0 + edge_margin);
      for (std::size_t i = 0; i < a.size(); ++i) {
        const double p[3] = {a.x[i], a.y[i], a.z[i]};
        double d2 = 0.0;
        for (int d = 0; d < 3; ++d) {
          const double lo = g.origin[d], hi = g.coord(d, g.dims[d] - 1);
          const double o = p[d] < lo ? lo - p[d] : p[d] > hi ? p[d] - hi : 0.0;
          d2 += o * o;
        }
        if (d2 < keep2) kept.push_back(i);  // also drops NaN positions
      }
    }
    // Cells per axis: as many as fit with edge >= rc (1 + margin), then fewer while there are too many.
    const double max_cells = std::max(27.0, 8.0 * double(kept.size()));
    for (int d = 0; d < 3; ++d)
      cells_[d] = int(std::max(1.0, std::min(1e6, std::floor(extent[d] / (rc * (1.0 + edge_margin))))));
    while (double(cells_[0]) * cells_[1] * cells_[2] > max_cells) {
      const int d = int(std::max_element(cells_.begin(), cells_.end()) - cells_.begin());
      cells_[d] = (cells_[d] + 1) / 2;
    }
    for (int d = 0; d < 3; ++d) edge_[d] = extent[d] / cells_[d];

    // Counting sort of the kept atoms by cell.
    const std::size_t ncells = std::size_t(cells_[0]) * std::size_t(cells_[1]) * std::size_t(cells_[2]);
    std::vector<std::size_t> cell(kept.size());
    start_.assign(ncells + 1, 0);
    for (std::size_t k = 0; k < kept.size(); ++k) {
      const std::size_t i = kept[k];
      cell[k] = cell_index(cell_of(0, a.x[i]), cell_of(1, a.y[i]), cell_of(2, a.z[i]));
      ++start_[cell[k] + 1];
    }
    for (std::size_t c = 0; c < ncells; ++c) start_[c + 1] += start_[c];
    std::vector<std::size_t> next(start_.begin(), start_.end() - 1);
    x_.resize(kept.size());
    y_.resize(kept.size());
    z_.resize(kept.size());
    q_.resize(kept.size());
    for (std::size_t k = 0; k < kept.size(); ++k) {
      const std::size_t i = kept[k], s = next[cell[k]]++;
      x_[s] = a.x[i];
      y_[s] = a.y[i];
      z_[s] = a.z[i];
      q_[s] = a.q[i];
    }
  }
};

}  // namespace

std::vector<double> cutoff_reference_potential(const atoms& a, const lattice& g, const interaction& physics,
                                               cutoff_pair_counts* counts) {
  const cell_list cells(a, g, physics);
  std::vector<double> out(g.size());
  const cutoff_pair_counts c =
      cells.evaluate(Kokkos::DefaultHostExecutionSpace(), [&](std::size_t i, double v) { out[i] = v; });
  if (counts != nullptr) *counts = c;
  return out;
}

namespace potential_detail {
namespace {

class cutoff_reference_plan final : public potential_plan {
 public:
  explicit cutoff_reference_plan(const potential_problem& p) : potential_plan(p), cells(p.input, p.grid, p.physics) {}
  double pairs_examined() const override { return counts.examined; }
  double pairs_within() const override { return counts.within; }
  cell_list cells;
  mutable cutoff_pair_counts counts;  // set by compute()
};

class cutoff_reference_strategy final : public potential_strategy {
 public:
  std::unique_ptr<potential_plan> prepare(const potential_problem& p) const override {
    return std::make_unique<cutoff_reference_plan>(p);
  }

  void compute(const execution& space, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
    profiling_region region("cutoff_reference");
    const auto* p = dynamic_cast<const cutoff_reference_plan*>(&plan);
    if (p == nullptr) throw error(exit_code::failure, "cutoff_reference: given another strategy's plan");
    auto h = Kokkos::create_mirror_view(out);
    if (mode == write_mode::accumulate) Kokkos::deep_copy(h, out);
    const bool add = mode == write_mode::accumulate;
    p->counts = on_host(space, [&](const auto& host) {
      return p->cells.evaluate(host, [&](std::size_t i, double v) { h(i) = add ? float(double(h(i)) + v) : float(v); });
    });
    Kokkos::deep_copy(out, h);
    space.fence();
  }
};

}  // namespace

}  // namespace potential_detail

std::unique_ptr<potential_strategy> make_cutoff_reference(const no_parameters&) {
  return std::make_unique<potential_detail::cutoff_reference_strategy>();
}

}  // namespace ppl
