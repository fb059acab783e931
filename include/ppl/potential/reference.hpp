#pragma once
// The float64 host reference of the potential family (the `reference` strategy uses it; so does the verification).
// V(p) = sum_a pair_potential_f64(interaction, q_a, |p - r_a|^2) in raw e/A, with the singularity rule of
// potential_strategy.hpp. All pairs are visited, whatever the interaction: it is the oracle, not a fast path.
#include <vector>

#include "ppl/io/atoms.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

double reference_potential_at(const atoms& a, double x, double y, double z,
                              const interaction& physics = coulomb_interaction());

// The same at a point of lattice `g`: with g.periodic, each pair at its minimum image in g's box.
double reference_potential_at(const atoms& a, const lattice& g, double x, double y, double z,
                              const interaction& physics);

// Every point of `g`, x fastest (lattice::index), OpenMP-parallel over points on the host.
std::vector<double> reference_potential(const atoms& a, const lattice& g,
                                        const interaction& physics = coulomb_interaction());

// Pairs (atom, point) whose distance a cutoff summation computed, and those of them closer than the radius.
struct cutoff_pair_counts {
  double examined = 0.0, within = 0.0;
};

// The same sums for a cutoff interaction (periodic lattices too) through a float64 cell list: each point visits only
// the atoms of its 27 neighbour cells (cells at least `physics.radius` long), so it equals
// reference_potential(a, g, physics) up to the float64 rounding of a different summation order. What the
// `cutoff_reference` strategy computes (src/potential/cutoff_reference.cpp). Throws input_error unless `physics` is
// a cutoff with a positive radius. `counts`, when given, receives the pairs examined and within the radius.
std::vector<double> cutoff_reference_potential(const atoms& a, const lattice& g, const interaction& physics,
                                               cutoff_pair_counts* counts = nullptr);

}  // namespace ppl
