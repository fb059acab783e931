#pragma once
// The neighbourhood of a cutoff-summation kernel as a list of bin offsets: a thread block computes a "region", a
// block of lattice points whose first point lies in bin B0, and visits the bins B0 + d for every offset d of the
// list. The list holds exactly the bins whose box comes within the cutoff radius of some position the region can
// take (its first point anywhere in B0), not the whole cube of ceil(radius / edge) bins around it: with a radius of
// a few bin edges the cube's corners are far outside the sphere, and skipping them saves a third or more of the atom
// loads. Computed once on the host and copied to the device (constant memory in Parboil's cutcp); offsets are
// ordered by increasing distance, so a kernel that stops early loses the least.
#include <array>
#include <vector>

namespace ppl::spatial {

// A few million offsets is far beyond any useful stencil (radius / edge of about 100); a larger request is an input
// error, not an allocation.
constexpr long long max_stencil_offsets = 1LL << 22;

// The offsets d (relative to B0, in bins) of every bin whose box [d * edge, (d + 1) * edge] (per axis, relative to
// B0's lower corner) comes within `radius` (distance <= radius) of the box [0, edge + region_extent] that holds
// every position of a region whose first point lies in B0 and whose last point is region_extent from the first
// (per axis). Ordered by increasing distance, ties by (dz, dy, dx) ascending. Periodic grids: offsets are applied
// modulo the bin counts, each offset being one periodic image, so every image within the radius is visited once
// (several offsets may name the same bin when the radius exceeds the box).
// Throws input_error unless every edge is finite and > 0, every extent finite and >= 0, radius finite and > 0, and
// the bounding cube of the offsets has at most max_stencil_offsets bins.
std::vector<std::array<int, 3>> make_bin_stencil(const float (&edge)[3], const double (&region_extent)[3],
                                                 double radius);

// The largest |offset| per axis (the halo of bins a region needs on each side); {0, 0, 0} for an empty list.
std::array<int, 3> stencil_halo(const std::vector<std::array<int, 3>>& stencil);

// The distance from bin d's box to the region box (both as above), the sort key of the stencil.
double stencil_distance(const float (&edge)[3], const double (&region_extent)[3], const std::array<int, 3>& d);

}  // namespace ppl::spatial
