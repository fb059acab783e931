#pragma once
// Checking a strategy's raw output (e/A) against float64 sums on the host, independent of every strategy: all
// points for small problems, a seeded random sample of points for large ones. The error is the relative L2 norm
// ||v - v_ref|| / ||v_ref|| over the points checked.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "ppl/io/atoms.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

// V(p) = sum_a term(q_a, |p - r_a|^2) in float64 for the interaction, with the singularity rule of
// potential_strategy.hpp (r^2 < 1e-8 A^2 contributes nothing).
double potential_f64(const atoms& a, double px, double py, double pz, const interaction& physics);

struct verification_options {
  std::string mode = "auto";   // auto | full | sample | none
  std::size_t samples = 1000;  // points checked in sample mode
  double tolerance = 1e-5;     // on the relative L2 error
  std::uint64_t seed = 1;      // which points are sampled
  double full_limit = 2e8;     // auto: full when atoms x points <= this, else sample
};

struct verification_result {
  std::string mode = "none";    // what was done: full | sample | none
  std::size_t points = 0;       // points checked
  double error = 0.0;           // relative L2 error
  double max_abs_error = 0.0;   // e/A
  double reference_norm = 0.0;  // ||v_ref||_2 over the points checked, e/A
  double tolerance = 0.0;
  double seconds = 0.0;
  bool passed = true;
};

// `values` are the strategy's raw output, x fastest, g.size() of them (host memory).
verification_result verify_potential(const verification_options& o, const atoms& a, const lattice& g,
                                     const interaction& physics, const float* values);
// The same on a map in the default memory space: a sample check gathers only the sampled points to the host.
verification_result verify_potential(const verification_options& o, const atoms& a, const lattice& g,
                                     const interaction& physics, Kokkos::View<const float*> values);

}  // namespace ppl
