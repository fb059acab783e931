// make_bin_stencil: brute force over regions placed anywhere in B0 (its corners and random points), over every bin
// of a range well beyond the stencil and over random atoms; the count against the cube; a mutated stencil is caught;
// and the whole cutoff pipeline (bin grid, atom bins, stencil, overflow) finds exactly the pairs a brute-force search
// finds, periodic and not.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/spatial/atom_bins.hpp"
#include "ppl/spatial/bin_grid.hpp"
#include "ppl/spatial/bin_stencil.hpp"
#include "spatial_test_support.hpp"

namespace {

using namespace ppl::spatial_test;
using ppl::spatial::make_bin_stencil;
using offsets = std::vector<std::array<int, 3>>;

struct region_case {
  float edge[3];
  int points[3];  // lattice points of the region per axis
  double h;       // their spacing
  double radius;
  double extent(int a) const { return (points[a] - 1) * h; }
};

offsets stencil_of(const region_case& c) {
  const double ext[3] = {c.extent(0), c.extent(1), c.extent(2)};
  return make_bin_stencil(c.edge, ext, c.radius);
}

// Misses of `stencil` for case `c`: the region's first point is placed at the 8 corners of B0 (upper ones just
// inside) and at random points of B0; for each placement (1) every bin of a range two bins wider than any stencil
// that some region point comes within the radius of (the region's points form a product set, so the nearest
// distance from a box to them separates per axis), and (2) random atoms within the radius of some region point
// (brute force over the points), must lie in B0 + stencil. Returns the count; `first` describes the first miss.
std::size_t stencil_misses(const offsets& stencil, const region_case& c, std::mt19937_64& rng, std::string& first) {
  const std::set<std::array<int, 3>> in(stencil.begin(), stencil.end());
  std::size_t misses = 0;
  auto miss = [&](const std::string& what) {
    if (misses++ == 0) first = what;
  };
  int lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = -int(std::ceil(c.radius / c.edge[a])) - 3;
    hi[a] = int(std::ceil((c.radius + c.edge[a] + c.extent(a)) / c.edge[a])) + 3;
  }
  for (int placement = 0; placement < 16; ++placement) {
    double p0[3];
    for (int a = 0; a < 3; ++a)
      p0[a] = placement < 8 ? ((placement >> a) & 1 ? c.edge[a] * (1.0 - std::ldexp(1.0, -20)) : 0.0)
                            : ppl::test::uniform(rng, 0.0, c.edge[a]);
    std::vector<double> xs[3];
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < c.points[a]; ++i) xs[a].push_back(p0[a] + i * c.h);
    // (1) every bin.
    std::vector<double> axis_gap2[3];
    for (int a = 0; a < 3; ++a)
      for (int d = lo[a]; d <= hi[a]; ++d) {
        const double blo = double(d) * c.edge[a], bhi = blo + c.edge[a];
        double best = 1e300;
        for (double x : xs[a]) {
          const double g = x < blo ? blo - x : x > bhi ? x - bhi : 0.0;
          best = std::min(best, g * g);
        }
        axis_gap2[a].push_back(best);
      }
    for (int dz = lo[2]; dz <= hi[2]; ++dz)
      for (int dy = lo[1]; dy <= hi[1]; ++dy)
        for (int dx = lo[0]; dx <= hi[0]; ++dx) {
          const double d2 = axis_gap2[0][dx - lo[0]] + axis_gap2[1][dy - lo[1]] + axis_gap2[2][dz - lo[2]];
          if (d2 <= c.radius * c.radius && !in.count({dx, dy, dz}))
            miss("bin (" + std::to_string(dx) + ", " + std::to_string(dy) + ", " + std::to_string(dz) +
                 ") within the radius of placement " + std::to_string(placement));
        }
    // (2) random atoms.
    for (int n = 0; n < 300; ++n) {
      double x[3];
      int b[3];
      for (int a = 0; a < 3; ++a) {
        x[a] = ppl::test::uniform(rng, -c.radius - c.edge[a], c.edge[a] + c.extent(a) + c.radius + c.edge[a]);
        b[a] = int(std::floor(x[a] / c.edge[a]));
      }
      double best = 1e300;
      for (double px : xs[0])
        for (double py : xs[1])
          for (double pz : xs[2])
            best = std::min(best, (x[0] - px) * (x[0] - px) + (x[1] - py) * (x[1] - py) + (x[2] - pz) * (x[2] - pz));
      if (best <= c.radius * c.radius && !in.count({b[0], b[1], b[2]}))
        miss("atom in bin (" + std::to_string(b[0]) + ", " + std::to_string(b[1]) + ", " + std::to_string(b[2]) + ")");
    }
  }
  return misses;
}

TEST(bin_stencil, covers_every_atom_within_the_radius_random_regions) {
  std::mt19937_64 rng(ppl_test::seed(10));
  for (int trial = 0; trial < 12; ++trial) {
    region_case c{};
    for (int a = 0; a < 3; ++a) {
      c.edge[a] = float(ppl::test::uniform(rng, 1.0, 5.0));
      c.points[a] = 1 + int(ppl::test::below(rng, 8));
    }
    c.h = trial % 3 == 0 ? 0.25 : trial % 3 == 1 ? 0.5 : 1.0;
    c.radius = ppl::test::uniform(rng, 1.0, 13.0);
    const offsets s = stencil_of(c);
    std::string first;
    EXPECT_EQ(stencil_misses(s, c, rng, first), 0u) << "trial " << trial << ": edges " << c.edge[0] << " " << c.edge[1]
                                                    << " " << c.edge[2] << ", radius " << c.radius << ": " << first;
  }
}

TEST(bin_stencil, smaller_than_the_cube_for_typical_parameters) {
  std::mt19937_64 rng(ppl_test::seed(11));
  // Parboil cutcp's shape: 4 A bins, regions of 8 points at 0.5 A (extent 3.5 A), cutoff 12 A.
  const region_case c{{4.0f, 4.0f, 4.0f}, {8, 8, 8}, 0.5, 12.0};
  const offsets s = stencil_of(c);
  const auto halo = ppl::spatial::stencil_halo(s);
  int lo = 0, hi = 0;
  for (const auto& d : s)
    for (int v : d) lo = std::min(lo, v), hi = std::max(hi, v);
  const int bounding = (hi - lo + 1) * (hi - lo + 1) * (hi - lo + 1);
  // The cube a halo rule gives: ceil(radius / edge) bins on each side of the bins a region can touch.
  const int halo_bins = int(std::ceil(c.radius / c.edge[0])), region_bins = int((c.edge[0] + c.extent(0)) / c.edge[0]);
  const int cube =
      (2 * halo_bins + region_bins + 1) * (2 * halo_bins + region_bins + 1) * (2 * halo_bins + region_bins + 1);
  std::printf("[ stencil  ] edge 4, extent 3.5, radius 12: %zu offsets; bounding cube %d, halo cube %d\n", s.size(),
              bounding, cube);
  RecordProperty("stencil_offsets", int(s.size()));
  RecordProperty("bounding_cube", bounding);
  RecordProperty("halo_cube", cube);
  EXPECT_LT(int(s.size()), cube);
  EXPECT_LT(double(s.size()), 0.7 * bounding);
  EXPECT_EQ(halo[0], std::max(-lo, hi));
  std::string first;
  EXPECT_EQ(stencil_misses(s, c, rng, first), 0u) << first;
  // Smaller bins cut more of the cube.
  const region_case fine{{2.0f, 2.0f, 2.0f}, {8, 8, 8}, 0.5, 12.0};
  const offsets f = stencil_of(fine);
  const int fine_cube = int(std::pow(2 * 6 + 2 + 1, 3));
  std::printf("[ stencil  ] edge 2, extent 3.5, radius 12: %zu offsets; halo cube %d\n", f.size(), fine_cube);
  EXPECT_LT(double(f.size()), 0.85 * fine_cube);
}

TEST(bin_stencil, ordered_by_distance_unique_deterministic) {
  const region_case c{{3.0f, 4.0f, 2.5f}, {4, 8, 2}, 0.5, 9.0};
  const offsets s = stencil_of(c);
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.front(), (std::array<int, 3>{-1, -1, -1}));  // distance 0, smallest (dz, dy, dx)
  const double ext[3] = {c.extent(0), c.extent(1), c.extent(2)};
  for (std::size_t i = 1; i < s.size(); ++i)
    EXPECT_LE(ppl::spatial::stencil_distance(c.edge, ext, s[i - 1]), ppl::spatial::stencil_distance(c.edge, ext, s[i]));
  const std::set<std::array<int, 3>> unique(s.begin(), s.end());
  EXPECT_EQ(unique.size(), s.size());
  EXPECT_EQ(s, stencil_of(c));
  for (const auto& d : s) EXPECT_LE(ppl::spatial::stencil_distance(c.edge, ext, d), c.radius);
}

// The checker can fail: the stencil without its farthest offset, or without B0 itself, is caught.
TEST(bin_stencil, a_mutated_stencil_is_caught) {
  std::mt19937_64 rng(ppl_test::seed(12));
  for (double radius : {11.0, 12.0, 7.3}) {
    const region_case c{{4.0f, 4.0f, 4.0f}, {8, 8, 8}, 0.5, radius};
    offsets s = stencil_of(c);
    std::string first;
    ASSERT_EQ(stencil_misses(s, c, rng, first), 0u) << first;
    offsets no_far = s;
    no_far.pop_back();
    EXPECT_GT(stencil_misses(no_far, c, rng, first), 0u) << "dropping the farthest offset went unnoticed";
    offsets no_centre(s.begin() + 1, s.end());
    EXPECT_GT(stencil_misses(no_centre, c, rng, first), 0u);
  }
}

TEST(bin_stencil, rejects_bad_input) {
  const float edge[3] = {4.0f, 4.0f, 4.0f}, zero[3] = {4.0f, 0.0f, 4.0f}, tiny[3] = {1e-3f, 1e-3f, 1e-3f};
  const double ext[3] = {3.5, 3.5, 3.5}, negative[3] = {3.5, 3.5, -1.0};
  auto msg = [](auto f) { return ppl_test::error_of<ppl::input_error>(f); };
  EXPECT_NE(msg([&] { make_bin_stencil(zero, ext, 12.0); }).find("edge along y"), std::string::npos);
  EXPECT_NE(msg([&] { make_bin_stencil(edge, negative, 12.0); }).find("extent along z"), std::string::npos);
  EXPECT_NE(msg([&] { make_bin_stencil(edge, ext, 0.0); }).find("radius"), std::string::npos);
  EXPECT_NE(msg([&] { make_bin_stencil(edge, ext, std::nan("")); }).find("radius"), std::string::npos);
  EXPECT_NE(msg([&] { make_bin_stencil(tiny, ext, 12.0); }).find("offsets"), std::string::npos);
}

// The pipeline of a cutoff kernel, on the host: for each region of lattice points, the atoms in the slots of
// B0 + stencil (periodic: each offset one image) plus the overflow list give exactly the (point, atom, image) pairs
// within the cutoff that a brute-force search over all atoms (and images) finds.
void check_pipeline(bool periodic, int capacity) {
  SCOPED_TRACE(std::string(periodic ? "periodic" : "non-periodic") + ", capacity " + std::to_string(capacity));
  std::mt19937_64 rng(ppl_test::seed(13));
  ppl::lattice g;
  g.spacing = 0.5;
  g.dims = {16, 16, 12};  // box 8 x 8 x 6: with radius 4.5, images -1, 0, 1 reach every point
  const double radius = periodic ? 4.5 : 6.0, edge = 2.5;
  const int rp = 4;  // region: 4 x 4 x 4 points
  const int kmax = periodic ? 1 : 0;
  const bin_grid grid = ppl::spatial::make_bin_grid(g, edge, radius, periodic);
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = -radius - 2.0;
    hi[d] = g.spacing * g.dims[d] + radius + 2.0;
  }
  auto atoms = uniform_atoms(400, lo, hi, rng);
  double clo[3] = {2, 2, 2}, chi[3] = {4, 4, 4};
  for (const atom4& a : clustered_atoms(100, 2, 0.8, clo, chi, rng))
    atoms.push_back(atom4{a.x, a.y, a.z, float(atoms.size() + 1)});
  const host_bins b = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, capacity);
  ASSERT_EQ(check_bins(b, atoms), "");
  ASSERT_GT(b.overflow.size(), 0u);
  // The brute force's atoms: those in the grid, wrapped (periodic).
  std::vector<atom4> kept;
  for (const atom4& a : atoms) {
    float w[3] = {a.x, a.y, a.z};
    int tmp[3];
    if (!grid.bin_of(w[0], w[1], w[2], tmp[0], tmp[1], tmp[2])) continue;
    grid.wrap_position(w[0], w[1], w[2]);
    kept.push_back(atom4{w[0], w[1], w[2], a.q});
  }
  const double ext[3] = {(rp - 1) * g.spacing, (rp - 1) * g.spacing, (rp - 1) * g.spacing};
  const offsets st = make_bin_stencil(grid.edge, ext, radius);
  const double r2 = radius * radius;
  using key = std::array<int, 4>;  // atom id, image (kx, ky, kz)
  struct candidate {
    key k;
    double x, y, z;
  };
  auto image = [&](const atom4& a, int kx, int ky, int kz) {
    return candidate{{id_of(a), kx, ky, kz},
                     a.x + kx * double(grid.box[0]),
                     a.y + ky * double(grid.box[1]),
                     a.z + kz * double(grid.box[2])};
  };
  std::size_t pairs = 0;
  for (int k0 = 0; k0 < g.dims[2]; k0 += rp)
    for (int j0 = 0; j0 < g.dims[1]; j0 += rp)
      for (int i0 = 0; i0 < g.dims[0]; i0 += rp) {
        int b0[3];
        ASSERT_TRUE(
            grid.bin_of(float(i0 * g.spacing), float(j0 * g.spacing), float(k0 * g.spacing), b0[0], b0[1], b0[2]));
        // Candidates from the bins of the stencil (each with its image) and from the overflow list (every image).
        std::vector<candidate> cand;
        for (const auto& d : st) {
          int bb[3], q[3] = {0, 0, 0};
          bool inside = true;
          for (int a = 0; a < 3; ++a) {
            const int v = b0[a] + d[a];
            if (periodic) {
              q[a] = int(std::floor(double(v) / grid.dims[a]));
              bb[a] = v - q[a] * grid.dims[a];
            } else {
              inside = inside && v >= 0 && v < grid.dims[a];
              bb[a] = v;
            }
          }
          if (!inside) continue;
          const int bin = grid.index(bb[0], bb[1], bb[2]);
          for (int s = 0; s < capacity; ++s) {
            const atom4& a = b.slots[std::size_t(bin) * capacity + s];
            if (ppl::spatial::is_empty_slot(a)) break;
            cand.push_back(image(a, q[0], q[1], q[2]));
          }
        }
        for (const atom4& a : b.overflow)
          for (int kz = -kmax; kz <= kmax; ++kz)
            for (int ky = -kmax; ky <= kmax; ++ky)
              for (int kx = -kmax; kx <= kmax; ++kx) cand.push_back(image(a, kx, ky, kz));
        for (int k = k0; k < std::min(k0 + rp, g.dims[2]); ++k)
          for (int j = j0; j < std::min(j0 + rp, g.dims[1]); ++j)
            for (int i = i0; i < std::min(i0 + rp, g.dims[0]); ++i) {
              const double p[3] = {i * g.spacing, j * g.spacing, k * g.spacing};
              auto near = [&](const candidate& c) {
                const double dx = c.x - p[0], dy = c.y - p[1], dz = c.z - p[2];
                return dx * dx + dy * dy + dz * dz <= r2;
              };
              std::vector<key> got, want;
              for (const auto& c : cand)
                if (near(c)) got.push_back(c.k);
              for (const atom4& a : kept)
                for (int kz = -kmax; kz <= kmax; ++kz)
                  for (int ky = -kmax; ky <= kmax; ++ky)
                    for (int kx = -kmax; kx <= kmax; ++kx) {
                      const candidate c = image(a, kx, ky, kz);
                      if (near(c)) want.push_back(c.k);
                    }
              std::sort(got.begin(), got.end());
              std::sort(want.begin(), want.end());
              ASSERT_EQ(got, want) << "point (" << i << ", " << j << ", " << k << ")";
              pairs += want.size();
            }
      }
  EXPECT_GT(pairs, 0u);
}

TEST(bin_stencil, cutoff_pipeline_finds_exactly_the_brute_force_pairs) {
  for (bool periodic : {false, true})
    for (int capacity : {1, 4}) check_pipeline(periodic, capacity);
}

}  // namespace
