// atom_bins against a plain host reference: the bins built one atom at a time in input order (what the counting
// sort on the device must reproduce bit for bit: the bin of every atom, the order of the slots, the overflow list,
// the counts, the grown capacity, the dropped atoms and the fullest bin), on seeded random atoms in and around the
// grid, periodic boxes, no atoms, all atoms in one bin, bins at the edge between the one-thread and the team
// ordering, and the capacity rules; on the default execution space and on Kokkos::Serial. The two orderings of a
// bin's indices are also run alone on shuffled input.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ppl/spatial/atom_bins.hpp"
#include "ppl/spatial/bin_grid.hpp"
#include "spatial_test_support.hpp"

namespace {

using namespace ppl::spatial_test;
using ppl::spatial::make_bin_grid;

// The bins as a reader of atom_bins.hpp would build them by hand: each atom, in input order, wrapped and appended
// to its bin's list; the capacity grown by the header's rule; the first `cap` of each list in the slots, the rest
// to the overflow list, bin after bin.
host_bins reference_bins(const std::vector<atom4>& in, const bin_grid& g, int capacity, int grow_to) {
  host_bins h;
  h.grid = g;
  const int nb = g.size();
  std::vector<std::vector<atom4>> lists(static_cast<std::size_t>(nb));
  for (const atom4& a : in) {
    float x = a.x, y = a.y, z = a.z;
    g.wrap_position(x, y, z);
    int b[3];
    if (!g.bin_of(x, y, z, b[0], b[1], b[2])) {
      ++h.dropped;
      continue;
    }
    lists[std::size_t(g.index(b[0], b[1], b[2]))].push_back(atom4{x, y, z, a.q});
  }
  for (const auto& l : lists) h.max_count = std::max(h.max_count, l.size());
  const int fullest = int(h.max_count);
  h.capacity = grow_to > capacity && fullest > capacity ? std::min((fullest + 3) / 4 * 4, grow_to) : capacity;
  h.slots.assign(std::size_t(nb) * std::size_t(h.capacity), ppl::spatial::empty_slot());
  h.counts.assign(std::size_t(nb), 0);
  for (int b = 0; b < nb; ++b) {
    const auto& l = lists[std::size_t(b)];
    for (std::size_t s = 0; s < l.size(); ++s) {
      if (s < std::size_t(h.capacity))
        h.slots[std::size_t(b) * std::size_t(h.capacity) + s] = l[s];
      else
        h.overflow.push_back(l[s]);
    }
    h.counts[std::size_t(b)] = int(std::min(l.size(), std::size_t(h.capacity)));
  }
  return h;
}

// Where two builds first differ (for the failure message).
std::string first_difference(const host_bins& a, const host_bins& b) {
  if (a.capacity != b.capacity) return "capacity " + std::to_string(a.capacity) + " vs " + std::to_string(b.capacity);
  if (a.dropped != b.dropped) return "dropped " + std::to_string(a.dropped) + " vs " + std::to_string(b.dropped);
  if (a.max_count != b.max_count)
    return "max_count " + std::to_string(a.max_count) + " vs " + std::to_string(b.max_count);
  if (a.counts != b.counts) return "counts";
  if (a.overflow.size() != b.overflow.size())
    return "overflow size " + std::to_string(a.overflow.size()) + " vs " + std::to_string(b.overflow.size());
  for (std::size_t i = 0; i < a.slots.size() && i < b.slots.size(); ++i)
    if (!same_bits(a.slots[i], b.slots[i]))
      return "slot " + std::to_string(i) + " (bin " + std::to_string(i / std::size_t(a.capacity)) + "): atom " +
             std::to_string(id_of(a.slots[i])) + " vs " + std::to_string(id_of(b.slots[i]));
  for (std::size_t i = 0; i < a.overflow.size(); ++i)
    if (!same_bits(a.overflow[i], b.overflow[i])) return "overflow entry " + std::to_string(i);
  return a.slots.size() == b.slots.size() ? "" : "slot count";
}

// The build on the default space and on Serial equal the reference, and pass the brute-force checker.
void expect_reference(const std::vector<atom4>& atoms, const bin_grid& grid, int capacity, int grow_to) {
  SCOPED_TRACE("capacity " + std::to_string(capacity) + ", grow_to " + std::to_string(grow_to));
  const host_bins ref = reference_bins(atoms, grid, capacity, grow_to);
  ASSERT_EQ(check_bins(ref, atoms), "") << "the reference itself";
  const host_bins dev = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, capacity, grow_to);
  EXPECT_TRUE(identical(dev, ref)) << Kokkos::DefaultExecutionSpace::name() << ": " << first_difference(dev, ref);
#if defined(KOKKOS_ENABLE_SERIAL)
  const host_bins ser = build_on<Kokkos::Serial>(atoms, grid, capacity, grow_to);
  EXPECT_TRUE(identical(ser, ref)) << "Serial: " << first_difference(ser, ref);
#endif
}

// The two orderings of a bin's indices on their own, on random permutations: what the host builds cannot show,
// since there the atomic ranks follow the input order almost everywhere.
struct sort_segments {
  Kokkos::View<int*> values, scratch, offsets, result;
  KOKKOS_INLINE_FUNCTION void operator()(const Kokkos::TeamPolicy<>::member_type& m) const {
    const int s = m.league_rank(), o = offsets(s), c = offsets(s + 1) - o;
    const int* sorted = ppl::spatial::detail::team_merge_sort(m, values.data() + o, scratch.data() + o, c);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, c), [&](const int e) { result(o + e) = sorted[e]; });
  }
};

std::vector<int> team_sorted(const std::vector<std::vector<int>>& lists, int team) {
  std::vector<int> flat, offsets{0};
  for (const auto& l : lists) {
    flat.insert(flat.end(), l.begin(), l.end());
    offsets.push_back(int(flat.size()));
  }
  sort_segments f{Kokkos::View<int*>("values", flat.size()), Kokkos::View<int*>("scratch", flat.size()),
                  Kokkos::View<int*>("offsets", offsets.size()), Kokkos::View<int*>("result", flat.size())};
  Kokkos::deep_copy(f.values,
                    Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(flat.data(), flat.size()));
  Kokkos::deep_copy(
      f.offsets, Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(offsets.data(), offsets.size()));
  Kokkos::TeamPolicy<> probe(int(lists.size()), 1);
  team = std::min(team, probe.team_size_max(f, Kokkos::ParallelForTag()));
  Kokkos::parallel_for("sort_segments", Kokkos::TeamPolicy<>(int(lists.size()), team), f);
  std::vector<int> out(flat.size());
  Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(out.data(), out.size()), f.result);
  return out;
}

TEST(atom_bins_reference, the_orderings_sort_random_permutations) {
  std::mt19937_64 rng(ppl_test::seed(16));
  std::vector<std::vector<int>> lists;
  for (int c : {0, 1, 2, 3, 5, 8, 31, 32, 33, 64, 100, 1000, 4097}) {
    std::vector<int> l(static_cast<std::size_t>(c));
    for (int i = 0; i < c; ++i) l[std::size_t(i)] = 3 * i + int(ppl::test::below(rng, 3));  // distinct, gaps
    std::shuffle(l.begin(), l.end(), rng);
    lists.push_back(l);
  }
  std::vector<int> expect;
  for (auto l : lists) {
    std::sort(l.begin(), l.end());
    expect.insert(expect.end(), l.begin(), l.end());
  }
  for (int team : {1, 2, 32, 256}) EXPECT_EQ(team_sorted(lists, team), expect) << "team of " << team;
  for (auto l : lists) {
    if (l.size() > std::size_t(ppl::spatial::detail::small_bin_atoms)) continue;
    std::vector<int> sorted = l;
    std::sort(sorted.begin(), sorted.end());
    ppl::spatial::detail::sort_small(l.data(), int(l.size()));
    EXPECT_EQ(l, sorted);
  }
}

ppl::lattice lattice_of(double h, int nx, int ny, int nz, bool periodic = false) {
  ppl::lattice g;
  g.origin = {-2.0, 0.5, 3.25};
  g.spacing = h;
  g.dims = {nx, ny, nz};
  g.periodic = periodic;
  return g;
}

// Appends `n` atoms uniform in the cube [lo, hi)^3, their ids continuing those of `v`.
void add_uniform(std::vector<atom4>& v, std::size_t n, double lo, double hi, std::mt19937_64& rng) {
  const double l[3] = {lo, lo, lo}, u[3] = {hi, hi, hi};
  for (const atom4& a : uniform_atoms(n, l, u, rng)) v.push_back(atom4{a.x, a.y, a.z, float(v.size() + 1)});
}

TEST(atom_bins_reference, random_atoms_in_and_around_the_grid) {
  std::mt19937_64 rng(ppl_test::seed(11));
  const auto g = lattice_of(0.5, 40, 36, 30);  // 19.5 x 17.5 x 14.5 A
  const bin_grid grid = make_bin_grid(g, 3.0, 4.0, false);
  std::vector<atom4> atoms;
  add_uniform(atoms, 6000, -12.0, 30.0, rng);  // about a third outside the grid: dropped
  for (const auto& [capacity, grow_to] : {std::pair{1, 0}, {3, 0}, {8, 0}, {2, 8}, {4, 32}, {8, 32}, {64, 0}})
    expect_reference(atoms, grid, capacity, grow_to);
  const host_bins b = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, 3);
  EXPECT_GT(b.dropped, 1000u);
  EXPECT_GT(b.overflow.size(), 100u);
}

TEST(atom_bins_reference, periodic_boxes_wrap_atoms_from_far_outside) {
  std::mt19937_64 rng(ppl_test::seed(12));
  const auto g = lattice_of(0.5, 24, 20, 18, true);  // box 12 x 10 x 9 A
  for (double edge : {2.0, 4.0, 11.0}) {
    SCOPED_TRACE("edge " + std::to_string(edge));
    const bin_grid grid = make_bin_grid(g, edge, 4.0, true);
    std::vector<atom4> atoms;
    add_uniform(atoms, 4000, -40.0, 55.0, rng);
    for (const auto& [capacity, grow_to] : {std::pair{2, 0}, {4, 16}, {8, 32}})
      expect_reference(atoms, grid, capacity, grow_to);
  }
}

TEST(atom_bins_reference, no_atoms) {
  const bin_grid grid = make_bin_grid(lattice_of(1.0, 6, 5, 4), 2.0, 2.0, false);
  for (const auto& [capacity, grow_to] : {std::pair{1, 0}, {8, 32}}) {
    expect_reference({}, grid, capacity, grow_to);
    const host_bins b = build_on<Kokkos::DefaultExecutionSpace>({}, grid, capacity, grow_to);
    EXPECT_EQ(b.capacity, capacity);
    EXPECT_EQ(b.max_count, 0u);
    EXPECT_EQ(b.dropped, 0u);
  }
}

// Every atom in one bin: the team ordering with runs up to half the bin (a merge sort of 70,000 indices), the
// capacity grown to the cap, everything else in the overflow list in input order.
TEST(atom_bins_reference, all_atoms_in_one_bin) {
  std::mt19937_64 rng(ppl_test::seed(13));
  const auto g = lattice_of(0.5, 20, 20, 20);
  const bin_grid grid = make_bin_grid(g, 4.0, 4.0, false);
  int c[3];
  ASSERT_TRUE(grid.bin_of(5.0f, 5.0f, 5.0f, c[0], c[1], c[2]));
  const double lo = grid.origin[0] + c[0] * grid.edge[0] + 0.01;  // a cube inside bin c (the grid is cubic)
  ASSERT_EQ(grid.edge[0], grid.edge[1]);
  for (std::size_t n : {std::size_t(20), std::size_t(33), std::size_t(70000)}) {
    SCOPED_TRACE(std::to_string(n) + " atoms");
    std::vector<atom4> atoms;
    const double l[3] = {lo, grid.origin[1] + c[1] * grid.edge[1] + 0.01, grid.origin[2] + c[2] * grid.edge[2] + 0.01};
    const double u[3] = {l[0] + grid.edge[0] - 0.02, l[1] + grid.edge[1] - 0.02, l[2] + grid.edge[2] - 0.02};
    for (const atom4& a : uniform_atoms(n, l, u, rng)) atoms.push_back(a);
    expect_reference(atoms, grid, 8, 32);
    const host_bins b = build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, 8, 32);
    EXPECT_EQ(b.max_count, n);
    EXPECT_EQ(b.capacity, n <= 32 ? int((n + 3) / 4 * 4) : 32);
    EXPECT_EQ(b.overflow.size(), n > 32 ? n - 32 : 0u);
    if (n == 70000) expect_reference(atoms, grid, 1, 0);
  }
}

// Bins of exactly 32 atoms (one thread orders them) beside bins of 33 and 100 (a team does): one build, both paths,
// interleaved in input order so that the atomic ranks and the input order disagree.
TEST(atom_bins_reference, bins_on_both_sides_of_the_team_threshold) {
  std::mt19937_64 rng(ppl_test::seed(14));
  const auto g = lattice_of(1.0, 12, 12, 12);
  const bin_grid grid = make_bin_grid(g, 4.0, 4.0, false);
  std::vector<std::array<double, 3>> corner;
  for (int b = 0; b < 3; ++b) {
    const int ix = 1 + b, iy = 2, iz = 3;  // bins (1..3, 2, 3) of the 5 x 5 x 5
    corner.push_back({grid.origin[0] + ix * grid.edge[0] + 0.01, grid.origin[1] + iy * grid.edge[1] + 0.01,
                      grid.origin[2] + iz * grid.edge[2] + 0.01});
  }
  const std::size_t fill[3] = {32, 33, 100};
  std::vector<std::size_t> left(fill, fill + 3);
  std::vector<atom4> atoms;
  while (left[0] + left[1] + left[2] > 0) {
    const std::size_t b = ppl::test::below(rng, 3);
    if (left[b] == 0) continue;
    --left[b];
    const double l[3] = {corner[b][0], corner[b][1], corner[b][2]};
    const double u[3] = {l[0] + grid.edge[0] - 0.02, l[1] + grid.edge[1] - 0.02, l[2] + grid.edge[2] - 0.02};
    const atom4 a = uniform_atoms(1, l, u, rng)[0];
    atoms.push_back(atom4{a.x, a.y, a.z, float(atoms.size() + 1)});
  }
  // Background atoms everywhere but in those three bins (which keep their 32, 33 and 100).
  std::vector<atom4> background;
  add_uniform(background, 2000, -6.0, 16.0, rng);
  for (const atom4& a : background) {
    int b[3];
    if (grid.bin_of(a.x, a.y, a.z, b[0], b[1], b[2]) && b[1] == 2 && b[2] == 3 && b[0] >= 1 && b[0] <= 3) continue;
    atoms.push_back(atom4{a.x, a.y, a.z, float(atoms.size() + 1)});
  }
  ASSERT_EQ(grid.dims[0], 5);
  ASSERT_EQ(reference_bins(atoms, grid, 8, 0).max_count, 100u);
  for (const auto& [capacity, grow_to] : {std::pair{8, 0}, {32, 0}, {33, 0}, {8, 32}, {8, 128}, {200, 0}})
    expect_reference(atoms, grid, capacity, grow_to);
  EXPECT_EQ(build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, 8, 128).capacity, 100);
}

// The capacity rules on one input whose fullest bin holds 13 atoms: grown to 16 (a multiple of 4), capped at
// grow_to, or kept when grow_to does not exceed it or no bin is fuller.
TEST(atom_bins_reference, capacity_growth) {
  std::mt19937_64 rng(ppl_test::seed(15));
  const auto g = lattice_of(1.0, 10, 10, 10);
  const bin_grid grid = make_bin_grid(g, 4.0, 2.0, false);
  std::vector<atom4> atoms;
  const double l[3] = {grid.origin[0] + 0.01, grid.origin[1] + 0.01, grid.origin[2] + 0.01};
  const double u[3] = {l[0] + grid.edge[0] - 0.02, l[1] + grid.edge[1] - 0.02, l[2] + grid.edge[2] - 0.02};
  for (const atom4& a : uniform_atoms(13, l, u, rng)) atoms.push_back(a);
  add_uniform(atoms, 20, 0.01, 11.0, rng);  // sparse, and none in bin 0, [-4, 0) per axis
  const host_bins r = reference_bins(atoms, grid, 8, 32);
  ASSERT_EQ(r.max_count, 13u);
  const int expect[][3] = {{8, 32, 16}, {8, 14, 14}, {8, 10, 10}, {8, 8, 8}, {8, 0, 8}, {13, 32, 13}, {16, 32, 16}};
  for (const auto& e : expect) {
    expect_reference(atoms, grid, e[0], e[1]);
    EXPECT_EQ(build_on<Kokkos::DefaultExecutionSpace>(atoms, grid, e[0], e[1]).capacity, e[2])
        << "capacity " << e[0] << ", grow_to " << e[1];
  }
}

}  // namespace
