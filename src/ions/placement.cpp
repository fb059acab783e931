// Ion placement kernels (include/ppl/ions/placement.hpp): the masks, the masked arg-min with location and the
// single-ion update of the map, fused with the next ion's selection.
#include "ppl/ions/placement.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "placement_kernels.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/kernels/fast_rsqrt.hpp"
#include "ppl/potential/kernels/pair_terms.hpp"
#include "ppl/spatial/lattice_shape.hpp"

namespace ppl {
namespace {

using ions_detail::choice_key;
using ions_detail::exclusion_sphere;
using ions_detail::iabs;
using ions_detail::imin;
using ions_detail::make_key;
using ions_detail::make_sphere;
using ions_detail::no_choice;
using ions_detail::to_choice;

// Points per team in a selection pass: enough per thread to hide the loads' latency, few enough that a 6.4e7-point
// lattice still gives thousands of teams (one atomic each on the result).
constexpr int points_per_team = 16384;
constexpr float not_a_candidate = std::numeric_limits<float>::infinity();  // +Inf: never below a thread's best so far

// A pass reads and writes eight consecutive points at a time, two 16-byte accesses to the map and one 8-byte access
// to the mask per thread, and what a group costs besides its points (its row, bounds, loads and stores) is paid once
// per eight points: on the H200 the per-ion pass is bound by instruction issue, not memory, and eight points a group
// took 0.197-0.200 ms per ion against four's 0.203-0.206 in the same call (docs/ions.md).
constexpr int group = 8;
struct alignas(16) map_group {
  float v[group];
};
struct alignas(group) mask_group {
  std::uint8_t a[group];
};

// Where a thread's next group starts, as a lattice offset: the jump of team-size groups in points, split once per
// thread into whole planes, rows and points, then added with carries.
struct lattice_step {
  int di, dj, dk;
  KOKKOS_INLINE_FUNCTION void apply(int& i, int& j, int& k, int nx, int ny) const {
    i += di, j += dj, k += dk;
    if (i >= nx) i -= nx, ++j;
    if (j >= ny) j -= ny, ++k;
  }
};

// One pass over the lattice. Per point: nv = point.update(v, i, row) (the map's new value, stored when
// PointFn::writes_map); then, at points still allowed, point.excluded(i, row) clears the point from the mask, else
// point.score(nv) makes it a candidate. `row` is point.row(j, k), what a row's points share; a row for which
// point.may_exclude(row) is false has no point that point.excluded clears. The smallest (score,
// index) lands in best(slot), which the pass before (or the caller) set to no_choice; this pass sets the other slot
// for the next one, so no launch of its own resets the result between two ions. Each thread visits its groups
// team-size apart in increasing index order, so a strict `<` keeps its lowest index among equal scores and the
// packed key is made once per thread. The mask is padded to whole groups (never-allowed bytes); the map is accessed
// a group at a time when it is 16-byte aligned, its last partial group point by point.
template <class PointFn>
void min_key_pass(const char* label, const spatial::lattice_shape& shape, potential_view v,
                  Kokkos::View<std::uint8_t*> allowed, Kokkos::View<choice_key*> best, int slot, const PointFn& point) {
  using policy_type = Kokkos::TeamPolicy<>;
  using member = policy_type::member_type;
  const int n = int(shape.size()), nx = shape.nx, ny = shape.ny;
  const int groups = (n + group - 1) / group;
  constexpr int groups_per_team = points_per_team / group;
  const int league = (groups + groups_per_team - 1) / groups_per_team;
  const bool vector_map = reinterpret_cast<std::uintptr_t>(v.data()) % alignof(map_group) == 0;
  float* const map = v.data();
  std::uint8_t* const mask = allowed.data();
  const policy_type policy = default_space_is_gpu() ? policy_type(league, 256) : policy_type(league, Kokkos::AUTO);
  // The jump from the point after a group to the thread's next group, split into planes, rows and points once here
  // (the same for every thread, so no thread divides). Both backends resolve the team size when the policy is
  // made.
  const int stride = policy.team_size();
  if (stride < 1) throw error(exit_code::failure, "ion placement: the team size is not known before the launch");
  const int jump = (stride - 1) * group;
  const lattice_step step{jump % nx, (jump / nx) % ny, jump / (nx * ny)};
  Kokkos::parallel_for(
      label, policy, KOKKOS_LAMBDA(const member& team) {
        const int end = imin((team.league_rank() + 1) * groups_per_team, groups);
        int g = team.league_rank() * groups_per_team + team.team_rank();
        float best_score = not_a_candidate;
        int best_index = -1;
        if (g < end) {
          int i, j, k;
          shape.ijk(g * group, i, j, k);
          for (; g < end; g += stride) {
            const int idx0 = g * group;
            const bool whole = idx0 + group <= n && vector_map;
            map_group m;
            if (whole)
              m = reinterpret_cast<const map_group*>(map)[g];
            else
#pragma unroll
              for (int e = 0; e < group; ++e) m.v[e] = idx0 + e < n ? map[idx0 + e] : 0.0f;
            mask_group a = reinterpret_cast<const mask_group*>(mask)[g];
            bool mask_changed = false;
            auto row = point.row(j, k);
            // The common case: the group lies in one row that the exclusion sphere does not meet, so its points need
            // no carries, no bounds and no sphere test (Nsight Compute: those made the pass issue-bound).
            if (whole && i + group <= nx && !point.may_exclude(row)) {
#pragma unroll
              for (int e = 0; e < group; ++e) {
                const float nv = point.update(m.v[e], i + e, row);
                m.v[e] = nv;
                const float score = a.a[e] ? point.score(nv) : not_a_candidate;
                if (score < best_score) best_score = score, best_index = idx0 + e;
              }
              if ((i += group) == nx) {
                i = 0;
                if (++j == ny) j = 0, ++k;
              }
            } else {
#pragma unroll
              for (int e = 0; e < group; ++e) {
                if (idx0 + e >= n) break;
                const float nv = point.update(m.v[e], i, row);
                m.v[e] = nv;
                if (a.a[e]) {
                  if (point.excluded(i, row)) {
                    a.a[e] = 0, mask_changed = true;
                  } else {
                    const float score = point.score(nv);
                    if (score < best_score) best_score = score, best_index = idx0 + e;
                  }
                }
                if (++i == nx) {
                  i = 0;
                  if (++j == ny) j = 0, ++k;
                  row = point.row(j, k);
                }
              }
            }
            if (PointFn::writes_map) {
              if (whole)
                reinterpret_cast<map_group*>(map)[g] = m;
              else
#pragma unroll
                for (int e = 0; e < group; ++e)
                  if (idx0 + e < n) map[idx0 + e] = m.v[e];
            }
            if (mask_changed) reinterpret_cast<mask_group*>(mask)[g] = a;
            step.apply(i, j, k, nx, ny);
          }
        }
        choice_key local = best_index < 0 ? no_choice : make_key(best_score, best_index);
        team.team_reduce(Kokkos::Min<choice_key>(local));
        if (team.team_rank() == 0) Kokkos::atomic_fetch_min(&best(slot), local);
        if (team.league_rank() == 0 && team.team_rank() == 0) best(1 - slot) = no_choice;  // the next pass's slot
      });
}

// Selection only: the first ion, before any update.
struct select_point {
  float q;
  static constexpr bool writes_map = false;
  struct no_row {};
  KOKKOS_INLINE_FUNCTION no_row row(int, int) const { return {}; }
  KOKKOS_INLINE_FUNCTION float update(float v, int, no_row) const { return v; }
  KOKKOS_INLINE_FUNCTION bool may_exclude(no_row) const { return false; }
  KOKKOS_INLINE_FUNCTION bool excluded(int, no_row) const { return false; }
  KOKKOS_INLINE_FUNCTION float score(float v) const { return q * v; }  // a NaN score is never below the best either
};

// v += the ion's term at every point, the points of the ion's exclusion sphere leave the mask, and with `select`
// the next ion's score on the updated values: the three steps of an ion in one pass.
template <class Term>
struct add_ion_point {
  spatial::lattice_shape shape;
  float ix, iy, iz, iq;  // the ion, relative to the lattice origin
  Term term;
  exclusion_sphere sphere;
  bool select;
  float next_q;
  static constexpr bool writes_map = true;
  // What a row's points share: a point computes only its dx, and tests the sphere only when the row meets its box.
  struct row_offsets {
    float dy, dz;
    int j, k;
    bool near;
  };
  KOKKOS_INLINE_FUNCTION row_offsets row(int j, int k) const {
    return {shape.coord(j) - iy, shape.coord(k) - iz, j, k,
            iabs(j - sphere.cj) <= sphere.half && iabs(k - sphere.ck) <= sphere.half};
  }
  KOKKOS_INLINE_FUNCTION float update(float v, int i, const row_offsets& r) const {
    return ions_detail::add_ion_term(term, v, iq, shape.coord(i) - ix, r.dy, r.dz);
  }
  KOKKOS_INLINE_FUNCTION bool may_exclude(const row_offsets& r) const { return r.near; }
  KOKKOS_INLINE_FUNCTION bool excluded(int i, const row_offsets& r) const {
    return r.near && iabs(i - sphere.ci) <= sphere.half && sphere.covers(i, r.j, r.k);
  }
  KOKKOS_INLINE_FUNCTION float score(float v) const { return select ? next_q * v : not_a_candidate; }
};

// A solute atom as the mask kernel sees it: float64 position relative to the lattice origin, the squared radius of
// its own volume and the first corner of the box of points it may reach.
struct mask_atom {
  double x, y, z, r2;
  int i0, j0, k0;
};

// The solute's atoms sorted into cubic cells over their bounding box (relative to the lattice origin), for the
// per-point mask: cell c holds atoms start(c) .. start(c + 1) - 1.
struct cell_atom {
  double x, y, z, r2;
};
struct atom_cells {
  double lo[3] = {0, 0, 0}, side = 1;
  int n[3] = {1, 1, 1};
  Kokkos::View<int*> start;
  Kokkos::View<cell_atom*> atoms;

  KOKKOS_INLINE_FUNCTION int cell_of(double c, int d) const {
    const double t = (c - lo[d]) / side;
    return t <= 0 ? 0 : t >= double(n[d] - 1) ? n[d] - 1 : int(t);
  }
  // Whether an atom closer than sqrt(reach2) to (px, py, pz) satisfies `hit(atom, d2)`, visiting the cells within
  // reach from the point's own outwards (the nearest atoms come first, so a point close to the solute stops
  // early), skipping cells whose box is out of reach.
  template <class Hit>
  KOKKOS_INLINE_FUNCTION bool any(double px, double py, double pz, double reach, const Hit& hit) const {
    const double p[3] = {px, py, pz};
    int a[3], b[3], c[3];
    for (int d = 0; d < 3; ++d) {
      // Cells whose box [lo + c side, lo + (c + 1) side] comes within the reach, clamped to the grid; none when the
      // point is farther than the reach from the grid's box.
      const double t0 = (p[d] - reach - lo[d]) / side, t1 = (p[d] + reach - lo[d]) / side;
      if (t1 < 0 || t0 >= double(n[d])) return false;
      a[d] = t0 <= 0 ? 0 : int(t0);
      b[d] = t1 >= double(n[d] - 1) ? n[d] - 1 : int(t1);
      c[d] = cell_of(p[d], d);
    }
    // A margin on the box test only: float64 rounding of the cell bounds must not skip an atom within reach.
    const double reach2 = reach * reach * (1.0 + 1e-12) + 1e-12, eps = 1e-9 * side + 1e-9;
    const int sz = b[2] - a[2], sy = b[1] - a[1], sx = b[0] - a[0];
    const int span_z = 2 * (sz > 0 ? sz : 0), span_y = 2 * (sy > 0 ? sy : 0), span_x = 2 * (sx > 0 ? sx : 0);
    // Offsets 0, -1, +1, -2, +2, ... from the point's cell, those outside [a, b] skipped.
    auto at = [](int centre, int t) { return centre + ((t & 1) ? -((t + 1) / 2) : t / 2); };
    for (int tz = 0; tz <= span_z; ++tz) {
      const int cz = at(c[2], tz);
      if (cz < a[2] || cz > b[2]) continue;
      const double gz = gap(p[2], cz, 2, eps);
      for (int ty = 0; ty <= span_y; ++ty) {
        const int cy = at(c[1], ty);
        if (cy < a[1] || cy > b[1]) continue;
        const double gy = gap(p[1], cy, 1, eps), gzy = gz * gz + gy * gy;
        if (gzy >= reach2) continue;
        for (int tx = 0; tx <= span_x; ++tx) {
          const int cx = at(c[0], tx);
          if (cx < a[0] || cx > b[0]) continue;
          const double gx = gap(p[0], cx, 0, eps);
          if (gzy + gx * gx >= reach2) continue;
          const int cell = (cz * n[1] + cy) * n[0] + cx;
          for (int m = start(cell); m < start(cell + 1); ++m) {
            const cell_atom& at_m = atoms(m);
            const double dx = px - at_m.x, dy = py - at_m.y, dz = pz - at_m.z;
            if (hit(at_m, dx * dx + dy * dy + dz * dz)) return true;
          }
        }
      }
    }
    return false;
  }
  // Distance along axis d from coordinate v to cell c's interval (0 inside), less a rounding margin.
  KOKKOS_INLINE_FUNCTION double gap(double v, int c, int d, double eps) const {
    const double c0 = lo[d] + double(c) * side - eps, c1 = lo[d] + double(c + 1) * side + eps;
    return v < c0 ? c0 - v : v > c1 ? v - c1 : 0.0;
  }
};

// At most 64 cells per axis of the atoms' box, none smaller than 2 A: a few atoms per cell in a protein.
atom_cells make_atom_cells(const atoms& solute, const lattice& g) {
  atom_cells c;
  const std::size_t n = solute.size();
  double hi[3] = {0, 0, 0};
  for (int d = 0; d < 3; ++d) c.lo[d] = std::numeric_limits<double>::infinity(), hi[d] = -c.lo[d];
  auto coord = [&](std::size_t a, int d) {
    return (d == 0 ? solute.x[a] : d == 1 ? solute.y[a] : solute.z[a]) - g.origin[d];
  };
  for (std::size_t a = 0; a < n; ++a)
    for (int d = 0; d < 3; ++d) c.lo[d] = std::min(c.lo[d], coord(a, d)), hi[d] = std::max(hi[d], coord(a, d));
  if (n == 0)
    for (int d = 0; d < 3; ++d) c.lo[d] = hi[d] = 0;
  double extent = 0;
  for (int d = 0; d < 3; ++d) extent = std::max(extent, hi[d] - c.lo[d]);
  c.side = std::max(2.0, extent / 64.0);
  for (int d = 0; d < 3; ++d) c.n[d] = std::max(1, std::min(64, int((hi[d] - c.lo[d]) / c.side) + 1));
  const int cells = c.n[0] * c.n[1] * c.n[2];
  std::vector<int> cell_of(n), count(std::size_t(cells) + 1, 0);
  for (std::size_t a = 0; a < n; ++a) {
    int ci[3];
    for (int d = 0; d < 3; ++d) ci[d] = c.cell_of(coord(a, d), d);
    cell_of[a] = (ci[2] * c.n[1] + ci[1]) * c.n[0] + ci[0];
    ++count[std::size_t(cell_of[a]) + 1];
  }
  Kokkos::View<int*, Kokkos::HostSpace> start("ppl::ions::cell_start_host", std::size_t(cells) + 1);
  for (int k = 0; k < cells; ++k) count[std::size_t(k) + 1] += count[std::size_t(k)];
  for (int k = 0; k <= cells; ++k) start(k) = count[std::size_t(k)];
  Kokkos::View<cell_atom*, Kokkos::HostSpace> sorted("ppl::ions::cell_atoms_host", n);
  for (std::size_t a = 0; a < n; ++a)
    sorted(std::size_t(count[std::size_t(cell_of[a])]++)) =
        cell_atom{coord(a, 0), coord(a, 1), coord(a, 2), solute.radius[a] * solute.radius[a]};
  c.start = Kokkos::create_mirror_view_and_copy(Kokkos::DefaultExecutionSpace::memory_space(), start);
  c.atoms = Kokkos::create_mirror_view_and_copy(Kokkos::DefaultExecutionSpace::memory_space(), sorted);
  return c;
}

}  // namespace

const std::vector<std::string>& placement_algorithm_names() {
  static const std::vector<std::string> names{"bounded", "full_pass"};
  return names;
}

placement_algorithm parse_placement_algorithm(const std::string& name) {
  if (name == "bounded") return placement_algorithm::bounded;
  if (name == "full_pass") return placement_algorithm::full_pass;
  throw input_error("unknown placement algorithm '" + name + "' (bounded, full_pass)");
}

const char* config_name(placement_algorithm a) {
  return a == placement_algorithm::bounded ? "bounded" : "full_pass";
}

ion_placer::ion_placer(const lattice& g, const interaction& pair)
    : grid_(g),
      pair_(pair),
      allowed_("ppl::ions::allowed", (g.size() + group - 1) / group * group),  // whole groups, padding never allowed
      best_("ppl::ions::best", 2) {
  Kokkos::deep_copy(best_, no_choice);
  if (g.periodic) throw input_error("ion placement needs a non-periodic lattice");
}

ion_mask_counts ion_placer::build_mask(const atoms& solute, double min_solute, double border, mask_method method) {
  const auto shape = grid_.shape();
  const double h = grid_.spacing;
  const int nx = shape.nx, ny = shape.ny, nz = shape.nz;
  auto allowed = allowed_;
  // Border: the float64 distance from point (i, j, k) to the nearest face is min(i, n - 1 - i) h per axis.
  Kokkos::parallel_for(
      "ppl::ions::mask_border", Kokkos::RangePolicy<Kokkos::IndexType<int>>(0, int(shape.size())),
      KOKKOS_LAMBDA(const int idx) {
        int i, j, k;
        shape.ijk(idx, i, j, k);
        const int m = imin(imin(imin(i, nx - 1 - i), imin(j, ny - 1 - j)), imin(k, nz - 1 - k));
        allowed(idx) = double(m) * h >= border ? 1 : 0;
      });
  Kokkos::View<std::uint8_t*> inside(Kokkos::view_alloc("ppl::ions::inside_solute"), shape.size());

  // Solute: each atom visits the box of points within max(min_solute, its radius) and clears those closer than
  // min_solute (and marks those closer than its radius). Every writer of a point stores the same value (0 into
  // `allowed`, 1 into `inside`) and nobody reads them in this kernel, so no atomics are needed.
  const std::size_t n = solute.size();
  double reach = min_solute;
  for (double r : solute.radius) reach = std::max(reach, r);
  // Per axis the box of points an atom may reach: 2 half + 2 points from floor(x / h) - half, or, when that is at
  // least the whole axis, the whole axis (so huge radii cost at most points x atoms and no index overflows).
  const double half_d = std::ceil(reach / h);
  const int dims[3] = {nx, ny, nz};
  int side[3];
  bool whole[3];
  for (int d = 0; d < 3; ++d) {
    whole[d] = 2.0 * half_d + 2.0 >= double(dims[d]);
    side[d] = whole[d] ? dims[d] : 2 * int(half_d) + 2;
  }
  const int sx = side[0], sy = side[1];
  const std::int64_t box = std::int64_t(side[0]) * side[1] * side[2];
  // Per atom the work is atoms x box, which grows as the reach cubed up to atoms x points (20,000 atoms with
  // min_distance_solute 1000 A: 5e10 tests, minutes); per point it stops at the first atom close enough. Per atom
  // while it visits each point at most 64 times on average (the protein jobs: a 6 A reach at 0.5 A).
  if (method == mask_method::automatic)
    method = double(n) * double(box) > 64.0 * double(shape.size()) ? mask_method::per_point : mask_method::per_atom;
  if (method == mask_method::per_point) {
    const atom_cells cells = make_atom_cells(solute, grid_);
    double rmax = 0;
    for (double r : solute.radius) rmax = std::max(rmax, r);
    const double rs = min_solute, rs2 = min_solute * min_solute;
    Kokkos::parallel_for(
        "ppl::ions::mask_solute_per_point", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, shape.size()),
        KOKKOS_LAMBDA(const std::int64_t idx) {
          int i, j, k;
          shape.ijk(idx, i, j, k);
          const double px = double(i) * h, py = double(j) * h, pz = double(k) * h;
          const bool near =
              rs2 > 0 && cells.any(px, py, pz, rs, [rs2](const cell_atom&, double d2) { return d2 < rs2; });
          if (near) allowed(idx) = 0;
          // Inside an atom's radius: none when every radius is within min_solute and no atom is that close.
          if ((near || rmax > rs) && rmax > 0 &&
              cells.any(px, py, pz, rmax, [](const cell_atom& a, double d2) { return d2 < a.r2; }))
            inside(idx) = 1;
        });
    ion_mask_counts c;
    Kokkos::parallel_reduce(
        "ppl::ions::count_inside", Kokkos::RangePolicy<Kokkos::IndexType<int>>(0, int(shape.size())),
        KOKKOS_LAMBDA(const int idx, std::int64_t& sum) { sum += inside(idx); }, c.inside_solute);
    c.allowed = count_allowed();
    return c;
  }
  Kokkos::View<mask_atom*, Kokkos::HostSpace> host("ppl::ions::mask_atoms_host", n);
  for (std::size_t a = 0; a < n; ++a) {
    const double x = solute.x[a] - grid_.origin[0], y = solute.y[a] - grid_.origin[1],
                 z = solute.z[a] - grid_.origin[2];
    // Clamped so atoms far outside the lattice give boxes that simply miss it (no int overflow).
    auto corner = [&](int d, double c) {
      return whole[d] ? 0 : int(std::clamp(std::floor(c / h), -4.0e8, 4.0e8)) - int(half_d);
    };
    host(a) = mask_atom{x, y, z, solute.radius[a] * solute.radius[a], corner(0, x), corner(1, y), corner(2, z)};
  }
  auto dev = Kokkos::create_mirror_view_and_copy(Kokkos::DefaultExecutionSpace::memory_space(), host);
  const double rs2 = min_solute * min_solute;
  Kokkos::parallel_for(
      "ppl::ions::mask_solute", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, std::int64_t(n) * box),
      KOKKOS_LAMBDA(const std::int64_t w) {
        const mask_atom a = dev(w / box);
        const std::int64_t o = w % box;
        const int i = a.i0 + int(o % sx), j = a.j0 + int((o / sx) % sy), k = a.k0 + int(o / (std::int64_t(sx) * sy));
        if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return;
        const double dx = double(i) * h - a.x, dy = double(j) * h - a.y, dz = double(k) * h - a.z;
        const double d2 = dx * dx + dy * dy + dz * dz;
        const std::int64_t idx = shape.index(i, j, k);
        if (d2 < rs2) allowed(idx) = 0;
        if (d2 < a.r2) inside(idx) = 1;
      });
  ion_mask_counts c;
  Kokkos::parallel_reduce(
      "ppl::ions::count_inside", Kokkos::RangePolicy<Kokkos::IndexType<int>>(0, int(shape.size())),
      KOKKOS_LAMBDA(const int idx, std::int64_t& sum) { sum += inside(idx); }, c.inside_solute);
  c.allowed = count_allowed();
  return c;
}

std::int64_t ion_placer::count_allowed() const {
  auto allowed = allowed_;
  std::int64_t count = 0;
  Kokkos::parallel_reduce(
      "ppl::ions::count_allowed", Kokkos::RangePolicy<Kokkos::IndexType<int>>(0, int(allowed.extent(0))),
      KOKKOS_LAMBDA(const int idx, std::int64_t& sum) { sum += allowed(idx); }, count);
  return count;
}

ion_choice ion_placer::select(potential_view v, float q) const {
  Kokkos::deep_copy(best_, no_choice);
  slot_ = 0;
  min_key_pass("ppl::ions::select", grid_.shape(), v, allowed_, best_, slot_, select_point{q});
  return take_choice();
}

ion_choice ion_placer::take_choice() const {
  choice_key key;
  Kokkos::deep_copy(key, Kokkos::subview(best_, slot_));
  slot_ = 1 - slot_;
  return to_choice(key);
}

void ion_placer::exclude_around(int index, double distance) {
  const auto shape = grid_.shape();
  const exclusion_sphere sphere = make_sphere(shape, grid_.spacing, index, distance);
  if (sphere.half < 0) return;
  // The sphere's box, clipped to the lattice (its size then fits the lattice's int index).
  const int i0 = std::max(sphere.ci - sphere.half, 0), j0 = std::max(sphere.cj - sphere.half, 0),
            k0 = std::max(sphere.ck - sphere.half, 0);
  const int sx = std::min(sphere.ci + sphere.half, shape.nx - 1) - i0 + 1,
            sy = std::min(sphere.cj + sphere.half, shape.ny - 1) - j0 + 1,
            sz = std::min(sphere.ck + sphere.half, shape.nz - 1) - k0 + 1;
  auto allowed = allowed_;
  Kokkos::parallel_for(
      "ppl::ions::exclude_around", Kokkos::RangePolicy<Kokkos::IndexType<int>>(0, sx * sy * sz),
      KOKKOS_LAMBDA(const int o) {
        const int i = i0 + o % sx, j = j0 + (o / sx) % sy, k = k0 + o / (sx * sy);
        if (sphere.covers(i, j, k)) allowed(shape.index(i, j, k)) = 0;
      });
}

ion_choice ion_placer::add_ion(potential_view v, int index, float q, double exclusion, const float* next_q) {
  const auto shape = grid_.shape();
  int i, j, k;
  shape.ijk(index, i, j, k);
  auto run = [&](auto term) {
    add_ion_point<decltype(term)> f{shape,
                                    shape.coord(i),
                                    shape.coord(j),
                                    shape.coord(k),
                                    q,
                                    term,
                                    make_sphere(shape, grid_.spacing, index, exclusion),
                                    next_q != nullptr,
                                    next_q ? *next_q : 0.0f};
    min_key_pass("ppl::ions::add_ion", shape, v, allowed_, best_, slot_, f);
  };
  if (pair_.is_cutoff())
    kernels::with_cutoff_term(pair_, run);
  else
    run(kernels::coulomb_term{});
  const ion_choice c = take_choice();
  return next_q ? c : ion_choice{};
}

}  // namespace ppl
