#pragma once
// What the spatial tests share: seeded atoms in the lattice frame whose charge is their identity (q = index + 1,
// exact in float32 up to 2^24), builds copied back to host vectors, and the brute-force checker of a build.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ppl/spatial/atom_bins.hpp"
#include "support/portable_random.hpp"
#include "support/ppl_test.hpp"

namespace ppl::spatial_test {

using ppl::atom4;
using ppl::spatial::bin_grid;

inline int id_of(const atom4& a) {
  return int(a.q) - 1;
}

// `n` atoms uniform in [lo, hi) per axis, on a 2^-12 A grid (no coordinate sits on a bin face by accident of
// rounding the other way), charges = identity.
inline std::vector<atom4> uniform_atoms(std::size_t n, const double lo[3], const double hi[3], std::mt19937_64& rng) {
  std::vector<atom4> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    float c[3];
    for (int d = 0; d < 3; ++d)
      c[d] = float(std::ldexp(std::round(std::ldexp(test::uniform(rng, lo[d], hi[d]), 12)), -12));
    v[i] = atom4{c[0], c[1], c[2], float(i + 1)};
  }
  return v;
}

// `n` atoms in `clusters` balls of radius `r` around random centres in [lo, hi): a few bins get dozens of atoms.
inline std::vector<atom4> clustered_atoms(std::size_t n, int clusters, double r, const double lo[3], const double hi[3],
                                          std::mt19937_64& rng) {
  std::vector<std::array<double, 3>> centre(clusters);
  for (auto& c : centre)
    for (int d = 0; d < 3; ++d) c[d] = test::uniform(rng, lo[d], hi[d]);
  std::vector<atom4> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& c = centre[test::below(rng, clusters)];
    double p[3], s2 = 2.0;
    while (s2 > 1.0) {
      s2 = 0.0;
      for (double& x : p) {
        x = test::uniform(rng, -1.0, 1.0);
        s2 += x * x;
      }
    }
    v[i] = atom4{float(c[0] + r * p[0]), float(c[1] + r * p[1]), float(c[2] + r * p[2]), float(i + 1)};
  }
  return v;
}

// A build copied to host vectors.
struct host_bins {
  bin_grid grid;
  int capacity = 0;
  std::vector<atom4> slots, overflow;
  std::vector<int> counts;
  std::size_t dropped = 0, max_count = 0;
};

inline bool same_bits(const atom4& a, const atom4& b) {
  return std::memcmp(&a, &b, sizeof(atom4)) == 0;
}
inline bool same_bits(const std::vector<atom4>& a, const std::vector<atom4>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(atom4)) == 0);
}
inline bool identical(const host_bins& a, const host_bins& b) {
  return a.capacity == b.capacity && same_bits(a.slots, b.slots) && same_bits(a.overflow, b.overflow) &&
         a.counts == b.counts && a.dropped == b.dropped && a.max_count == b.max_count;
}

template <class MemorySpace>
host_bins to_host(const ppl::spatial::atom_bins<MemorySpace>& b) {
  host_bins h;
  h.grid = b.grid;
  h.capacity = b.capacity;
  auto s = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.slots);
  auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.counts);
  auto o = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.overflow);
  h.slots.assign(s.data(), s.data() + s.extent(0));
  h.counts.assign(c.data(), c.data() + c.extent(0));
  h.overflow.assign(o.data(), o.data() + o.extent(0));
  const std::vector<atom4> oh(b.overflow_host.data(), b.overflow_host.data() + b.overflow_host.extent(0));
  EXPECT_TRUE(same_bits(oh, h.overflow)) << "overflow_host differs from overflow";
  h.dropped = b.dropped;
  h.max_count = b.max_count;
  return h;
}

// Builds on a fresh instance of Exec from host atoms copied to Exec's memory space.
template <class Exec>
host_bins build_on(const std::vector<atom4>& atoms, const bin_grid& g, int capacity, int grow_to = 0) {
  using memory = typename Exec::memory_space;
  Kokkos::View<atom4*, Kokkos::HostSpace> h("atoms_host", atoms.size());
  for (std::size_t i = 0; i < atoms.size(); ++i) h(i) = atoms[i];
  Kokkos::View<atom4*, memory> d("atoms", atoms.size());
  Kokkos::deep_copy(d, h);
  const Kokkos::View<const atom4*, memory> c = d;
  return to_host(ppl::spatial::build_atom_bins(Exec(), c, g, capacity, grow_to));
}

// Whether bin (bx, by, bz)'s box contains p (float64, with a few float32 ulps of slack).
inline bool box_contains(const bin_grid& g, const int b[3], const float p[3]) {
  for (int d = 0; d < 3; ++d) {
    const double lo = double(g.origin[d]) + double(b[d]) * g.edge[d], hi = lo + g.edge[d];
    const double tol = 4e-7 * (std::fabs(lo) + std::fabs(hi) + 1.0);
    if (!(p[d] >= lo - tol && p[d] <= hi + tol)) return false;
  }
  return true;
}

// The stored position of an atom is its input position (non-periodic), or the input moved by whole box lengths into
// [0, box) (periodic; float32 rounding of the move allowed).
inline bool position_ok(const bin_grid& g, const atom4& in, const atom4& stored) {
  if (in.q != stored.q) return false;
  const float a[3] = {in.x, in.y, in.z}, s[3] = {stored.x, stored.y, stored.z};
  for (int d = 0; d < 3; ++d) {
    if (!g.periodic) {
      if (a[d] != s[d]) return false;
      continue;
    }
    if (!(s[d] >= 0.0f && s[d] < g.box[d])) return false;
    const double k = (double(a[d]) - double(s[d])) / g.box[d];
    if (std::fabs(k - std::round(k)) * g.box[d] > 1e-6 * (std::fabs(a[d]) + g.box[d])) return false;
  }
  return true;
}

// Every rule of atom_bins.hpp, brute force; an empty string when all hold, else the first few violations.
inline std::string check_bins(const host_bins& b, const std::vector<atom4>& in) {
  std::ostringstream err;
  int errors = 0;
  auto fail = [&](const std::string& what) {
    if (errors++ < 8) err << what << "\n";
  };
  const bin_grid& g = b.grid;
  const int nb = g.size(), cap = b.capacity;
  if (int(b.counts.size()) != nb || b.slots.size() != std::size_t(nb) * cap) return "wrong sizes";
  std::vector<int> seen(in.size(), 0), last_id(nb, -1), in_bin(nb, 0);
  auto bin_ok = [&](const atom4& a, int expect_bin, const char* where) {
    const int id = id_of(a);
    if (id < 0 || id >= int(in.size())) {
      fail(std::string(where) + ": unknown atom q = " + std::to_string(a.q));
      return false;
    }
    ++seen[id];
    if (!position_ok(g, in[id], a)) fail(std::string(where) + ": atom " + std::to_string(id) + " moved");
    int c[3];
    if (!g.bin_of(in[id].x, in[id].y, in[id].z, c[0], c[1], c[2]) || g.index(c[0], c[1], c[2]) != expect_bin)
      fail(std::string(where) + ": atom " + std::to_string(id) + " in bin " + std::to_string(expect_bin) +
           ", bin_of says otherwise");
    const int bz = expect_bin / (g.dims[0] * g.dims[1]), by = (expect_bin / g.dims[0]) % g.dims[1],
              bx = expect_bin % g.dims[0];
    const int bb[3] = {bx, by, bz};
    const float p[3] = {a.x, a.y, a.z};
    if (!box_contains(g, bb, p)) fail(std::string(where) + ": atom " + std::to_string(id) + " outside its bin's box");
    ++in_bin[expect_bin];
    return true;
  };
  const atom4 empty = ppl::spatial::empty_slot();
  for (int bin = 0; bin < nb; ++bin) {
    if (b.counts[bin] < 0 || b.counts[bin] > cap) fail("bin " + std::to_string(bin) + ": count out of range");
    for (int s = 0; s < cap; ++s) {
      const atom4& a = b.slots[std::size_t(bin) * cap + s];
      if (s >= b.counts[bin]) {
        if (!same_bits(a, empty))
          fail("bin " + std::to_string(bin) + " slot " + std::to_string(s) + ": not the sentinel");
        continue;
      }
      if (ppl::spatial::is_empty_slot(a)) fail("bin " + std::to_string(bin) + ": sentinel among the filled slots");
      if (!bin_ok(a, bin, "slot")) continue;
      if (id_of(a) <= last_id[bin]) fail("bin " + std::to_string(bin) + ": slots not in input order");
      last_id[bin] = id_of(a);
    }
  }
  int prev_bin = -1, prev_id = -1;
  for (const atom4& a : b.overflow) {
    int c[3];
    const int id = id_of(a);
    if (id < 0 || id >= int(in.size()) || !g.bin_of(a.x, a.y, a.z, c[0], c[1], c[2])) {
      fail("overflow: atom outside the grid or unknown");
      continue;
    }
    const int bin = g.index(c[0], c[1], c[2]);
    if (!bin_ok(a, bin, "overflow")) continue;
    if (b.counts[bin] != cap) fail("overflow: atom " + std::to_string(id) + " while its bin has a free slot");
    if (id <= last_id[bin]) fail("overflow: atom " + std::to_string(id) + " precedes a slot atom in input order");
    if (bin < prev_bin || (bin == prev_bin && id <= prev_id)) fail("overflow: not bin-major in input order");
    prev_bin = bin;
    prev_id = id;
  }
  std::size_t missing = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (seen[i] > 1) fail("atom " + std::to_string(i) + " stored " + std::to_string(seen[i]) + " times");
    if (seen[i] == 0) {
      ++missing;
      int c[3];
      if (g.bin_of(in[i].x, in[i].y, in[i].z, c[0], c[1], c[2]))
        fail("atom " + std::to_string(i) + " lost although it lies in the grid");
    }
  }
  if (missing != b.dropped)
    fail("dropped = " + std::to_string(b.dropped) + " but " + std::to_string(missing) + " atoms are absent");
  const int fullest = in_bin.empty() ? 0 : *std::max_element(in_bin.begin(), in_bin.end());
  if (std::size_t(fullest) != b.max_count)
    fail("max_count = " + std::to_string(b.max_count) + ", fullest bin has " + std::to_string(fullest));
  return err.str();
}

}  // namespace ppl::spatial_test
