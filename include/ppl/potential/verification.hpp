#pragma once
// Checking a strategy's raw output (e/A) against float64 sums on the host, independent of every strategy: all
// points for small problems, a seeded random sample of points for large ones. The error is the relative L2 norm
// ||v - v_ref|| / max(||v_ref||, cancellation_floor x ||sum |term| ||) over the points checked.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "ppl/io/atoms.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

// V(p) = sum_a term(q_a, |p - r_a|^2) in float64 for the interaction, with the singularity rule of
// potential_strategy.hpp (r^2 < 1e-8 A^2 contributes nothing).
double potential_f64(const atoms& a, double px, double py, double pz, const interaction& physics);

// The default tolerance of an msm map against exact Coulomb (relative L2): the method's error at its default
// parameters is 1.9e-4 to 5.5e-4 on molecules and water (docs/msm.md); other parameters may need another.
constexpr double msm_default_tolerance = 1e-3;

struct verification_options {
  std::string mode = "auto";   // auto | full | sample | none
  std::size_t samples = 1000;  // points checked in sample mode
  double tolerance = 1e-5;     // on the relative L2 error
  std::uint64_t seed = 1;      // which points are sampled
  double full_limit = 2e8;     // auto: full when atoms x points <= this, else sample
};

// The error is relative to max(||v_ref||, cancellation_floor x ||sum_a |term_a| ||) (L2 norms over the points
// checked). A float32 strategy's error at a point is k eps x sum_a |term_a| (eps = 2^-23, k = 4 for the terms in
// tests/potential/strategies/tolerance.hpp) plus its accumulation's eps/2 per partial sum, however much the terms
// cancel. Measured: 0.1 eps of the magnitude's norm for 1,200 mirrored charges whose float64 sum is 6e-14 (every
// host strategy), 0.22 eps on ubiquitin. At the default tolerance 1e-5 this floor admits 7.8e-8 of the magnitude's
// norm (0.65 eps, 3 to 6 times those), so a map that cancels to ~0 verifies, while a map with ordinary cancellation
// (||v_ref|| above 1/128 of the magnitude's norm; ubiquitin's is 1/137, so its check is 1.07 times looser) is
// measured against ||v_ref|| as before.
constexpr double cancellation_floor = 1.0 / 128.0;

struct verification_result {
  std::string mode = "none";    // what was done: full | sample | none
  std::size_t points = 0;       // points checked
  double error = 0.0;           // relative L2 error (to the larger of ||v_ref|| and the cancellation floor)
  double error_to_reference = 0.0;  // ||v - v_ref|| / ||v_ref||: the relative RMS error, floor or not
  double max_abs_error = 0.0;   // e/A
  double reference_norm = 0.0;  // ||v_ref||_2 over the points checked, e/A
  double magnitude_norm = 0.0;  // ||sum_a |term_a| ||_2 over the points checked, e/A (cancellation_floor)
  double tolerance = 0.0;
  double seconds = 0.0;
  bool passed = true;
};

// Called after each chunk of points with (points checked so far, points to check); may be empty.
using verification_progress = std::function<void(std::size_t done, std::size_t total)>;

// `values` are the strategy's raw output, x fastest, g.size() of them (host memory). With a `truncated` cutoff a
// pair whose distance is within float32 rounding of the radius may be in a strategy's sum or not (the term steps
// by q/rc there): at such points any value between the two sums counts as exact.
verification_result verify_potential(const verification_options& o, const atoms& a, const lattice& g,
                                     const interaction& physics, const float* values,
                                     const verification_progress& progress = {});
// The same on a map in the default memory space: a sample check gathers only the sampled points to the host.
verification_result verify_potential(const verification_options& o, const atoms& a, const lattice& g,
                                     const interaction& physics, Kokkos::View<const float*> values,
                                     const verification_progress& progress = {});

}  // namespace ppl
