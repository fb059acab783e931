#pragma once
// The float64 host reference of the potential family (the `reference` strategy uses it; so can sampled
// verification). V(p) = sum_a q_a / |p - r_a| in raw e/A, with the singularity rule of potential_strategy.hpp:
// atoms with |p - r_a|^2 < coincidence_radius2 contribute nothing.
#include <vector>

#include "ppl/potential/atoms.hpp"
#include "ppl/potential/lattice.hpp"

namespace ppl {

double reference_potential_at(const atoms& a, double x, double y, double z);

// Every point of `g`, x fastest (lattice::index), OpenMP-parallel over points on the host.
std::vector<double> reference_potential(const atoms& a, const lattice& g);

}  // namespace ppl
