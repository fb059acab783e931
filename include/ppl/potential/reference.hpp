#pragma once
// The float64 host reference of the potential family (the `reference` strategy uses it; so does the verification).
// V(p) = sum_a pair_potential_f64(interaction, q_a, |p - r_a|^2) in raw e/A, with the singularity rule of
// potential_strategy.hpp. All pairs are visited, whatever the interaction: it is the oracle, not a fast path.
#include <vector>

#include "ppl/potential/atoms.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/potential/lattice.hpp"

namespace ppl {

double reference_potential_at(const atoms& a, double x, double y, double z,
                              const interaction& physics = coulomb_interaction());

// The same at a point of lattice `g`: with g.periodic, each pair at its minimum image in g's box.
double reference_potential_at(const atoms& a, const lattice& g, double x, double y, double z,
                              const interaction& physics);

// Every point of `g`, x fastest (lattice::index), OpenMP-parallel over points on the host.
std::vector<double> reference_potential(const atoms& a, const lattice& g,
                                        const interaction& physics = coulomb_interaction());

}  // namespace ppl
