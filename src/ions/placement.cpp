// Ion placement kernels (include/ppl/ions/placement.hpp): the masks, the masked arg-min with location and the
// single-ion update of the map, fused with the next ion's selection.
#include "ppl/ions/placement.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/potential/kernels/fast_rsqrt.hpp"
#include "ppl/potential/kernels/pair_terms.hpp"
#include "ppl/spatial/lattice_shape.hpp"

namespace ppl {
namespace {

// Lowest score first, then lowest index: a total order on the candidates, so every reduction tree (OpenMP threads,
// CUDA blocks and warps) ends at the same point. Points not allowed never become candidates; the identity has
// index INT_MAX and the largest float as its score, which every finite candidate beats or ties with a lower index,
// so a lattice with no allowed point gives index INT_MAX (reported as -1).
KOKKOS_INLINE_FUNCTION bool better(float score, int index, float best_score, int best_index) {
  return score < best_score || (score == best_score && index < best_index);
}

KOKKOS_INLINE_FUNCTION int imin(int a, int b) {
  return a < b ? a : b;  // Kokkos::min is not in every release ppl builds against
}

struct choice_value {
  float score;
  int index;
};

KOKKOS_INLINE_FUNCTION void init_choice(choice_value& v) {
  v.score = 3.40282347e+38f;  // FLT_MAX, spelt out: no numeric_limits call in device code
  v.index = INT_MAX;
}

ion_choice to_choice(const choice_value& v) {
  return v.index == INT_MAX ? ion_choice{0.0f, -1} : ion_choice{v.score, v.index};
}

// Selection only: the first ion, before any update.
struct select_functor {
  using value_type = choice_value;
  Kokkos::View<const float*> v;
  Kokkos::View<const std::uint8_t*> allowed;
  float q;
  KOKKOS_INLINE_FUNCTION void operator()(int idx, value_type& best) const {
    if (!allowed(idx)) return;
    const float s = q * v(idx);
    if (better(s, idx, best.score, best.index)) best.score = s, best.index = idx;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& b) const { init_choice(b); }
  KOKKOS_INLINE_FUNCTION void join(PPL_KOKKOS_JOIN_VOLATILE value_type& dst,
                                   const PPL_KOKKOS_JOIN_VOLATILE value_type& src) const {
    if (better(src.score, src.index, dst.score, dst.index)) dst.score = src.score, dst.index = src.index;
  }
};

// v += the ion's term at every point; with `select`, the next ion's choice on the updated values, in the same pass.
template <class Term>
struct add_ion_functor {
  using value_type = choice_value;
  Kokkos::View<float*> v;
  Kokkos::View<const std::uint8_t*> allowed;
  spatial::lattice_shape shape;
  float ix, iy, iz, iq;  // the ion, relative to the lattice origin
  Term term;
  bool select;
  float next_q;
  KOKKOS_INLINE_FUNCTION void operator()(int idx, value_type& best) const {
    int i, j, k;
    shape.ijk(idx, i, j, k);
    const float dx = shape.coord(i) - ix, dy = shape.coord(j) - iy, dz = shape.coord(k) - iz;
    const float r2 = dx * dx + dy * dy + dz * dz;
    // The singularity rule of potential_strategy.hpp: the ion's own point (r2 = 0) gets nothing; a select, not a
    // product, since rsqrt(0) is Inf.
    const float add = r2 < float(coincidence_radius2) ? 0.0f : term(iq, r2, kernels::fast_rsqrt(r2));
    const float nv = v(idx) + add;
    v(idx) = nv;
    if (select && allowed(idx)) {
      const float s = next_q * nv;
      if (better(s, idx, best.score, best.index)) best.score = s, best.index = idx;
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& b) const { init_choice(b); }
  KOKKOS_INLINE_FUNCTION void join(PPL_KOKKOS_JOIN_VOLATILE value_type& dst,
                                   const PPL_KOKKOS_JOIN_VOLATILE value_type& src) const {
    if (better(src.score, src.index, dst.score, dst.index)) dst.score = src.score, dst.index = src.index;
  }
};

// A solute atom as the mask kernel sees it: float64 position relative to the lattice origin, the squared radius of
// its own volume and the first corner of the box of points it may reach.
struct mask_atom {
  double x, y, z, r2;
  int i0, j0, k0;
};

}  // namespace

ion_placer::ion_placer(const lattice& g, const interaction& pair)
    : grid_(g), pair_(pair), allowed_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::ions::allowed"), g.size()) {
  if (g.periodic) throw input_error("ion placement needs a non-periodic lattice");
}

ion_mask_counts ion_placer::build_mask(const atoms& solute, double min_solute, double border) {
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
  choice_value best;
  Kokkos::parallel_reduce("ppl::ions::select", Kokkos::RangePolicy<Kokkos::IndexType<int>>(0, int(v.extent(0))),
                          select_functor{v, allowed_, q}, best);
  return to_choice(best);
}

void ion_placer::exclude_around(int index, double distance) {
  const auto shape = grid_.shape();
  const double h = grid_.spacing;
  int ci, cj, ck;
  shape.ijk(index, ci, cj, ck);
  // The box of points within `distance`, clipped to the lattice (its size then fits the lattice's int index).
  const int half = int(std::min(std::ceil(distance / h), 2.0e6));
  const int i0 = std::max(ci - half, 0), j0 = std::max(cj - half, 0), k0 = std::max(ck - half, 0);
  const int sx = std::min(ci + half, shape.nx - 1) - i0 + 1, sy = std::min(cj + half, shape.ny - 1) - j0 + 1,
            sz = std::min(ck + half, shape.nz - 1) - k0 + 1;
  const double d2max = distance * distance;
  auto allowed = allowed_;
  // The offsets are exact integers, so the distance of point (ci + di, ...) is computed from the same float64
  // products i h as a host check computes from lattice::point.
  Kokkos::parallel_for(
      "ppl::ions::exclude_around", Kokkos::RangePolicy<Kokkos::IndexType<int>>(0, sx * sy * sz),
      KOKKOS_LAMBDA(const int o) {
        const int i = i0 + o % sx, j = j0 + (o / sx) % sy, k = k0 + o / (sx * sy);
        const double dx = double(i) * h - double(ci) * h, dy = double(j) * h - double(cj) * h,
                     dz = double(k) * h - double(ck) * h;
        if (dx * dx + dy * dy + dz * dz < d2max) allowed(shape.index(i, j, k)) = 0;
      });
}

ion_choice ion_placer::add_ion(potential_view v, int index, float q, const float* next_q) const {
  const auto shape = grid_.shape();
  int i, j, k;
  shape.ijk(index, i, j, k);
  choice_value best;
  auto run = [&](auto term) {
    add_ion_functor<decltype(term)> f{v,
                                      allowed_,
                                      shape,
                                      shape.coord(i),
                                      shape.coord(j),
                                      shape.coord(k),
                                      q,
                                      term,
                                      next_q != nullptr,
                                      next_q ? *next_q : 0.0f};
    Kokkos::parallel_reduce("ppl::ions::add_ion", Kokkos::RangePolicy<Kokkos::IndexType<int>>(0, int(v.extent(0))), f,
                            best);
  };
  if (pair_.is_cutoff())
    kernels::with_cutoff_term(pair_, run);
  else
    run(kernels::coulomb_term{});
  return next_q ? to_choice(best) : ion_choice{};
}

}  // namespace ppl
