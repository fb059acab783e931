// Float64 host verification of a potential map (see include/ppl/potential/verification.hpp).
#include "ppl/potential/verification.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ppl/potential/potential_strategy.hpp"
#include "ppl/potential/reference.hpp"

namespace ppl {

// The verification uses the registry's float64 oracle, so the job and the `reference` strategy cannot drift apart.
double potential_f64(const atoms& a, double px, double py, double pz, const interaction& physics) {
  return reference_potential_at(a, px, py, pz, physics);
}

namespace {

struct accumulator {
  double diff2 = 0, ref2 = 0, max_abs = 0;
  void add(double v, double ref) {
    const double d = v - ref;
    diff2 += d * d, ref2 += ref * ref, max_abs = std::max(max_abs, std::abs(d));
  }
};

// float64 reference at the given lattice points, in parallel on the host, in chunks so memory stays bounded.
void check_points(const atoms& a, const lattice& g, const interaction& physics, const float* values,
                  const std::vector<std::size_t>* picked, std::size_t count, accumulator& acc) {
  constexpr std::size_t chunk = std::size_t(1) << 18;
  std::vector<double> ref(std::min(chunk, count));
  for (std::size_t begin = 0; begin < count; begin += chunk) {
    const std::size_t m = std::min(chunk, count - begin);
    auto point = [&](std::size_t n) { return picked ? (*picked)[begin + n] : begin + n; };
    Kokkos::parallel_for("ppl::potential::verify_f64", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, m),
                         [&](std::size_t n) {
                           const auto p = g.point(point(n));
                           ref[n] = reference_potential_at(a, g, p[0], p[1], p[2], physics);
                         });
    Kokkos::DefaultHostExecutionSpace().fence();
    for (std::size_t n = 0; n < m; ++n) acc.add(double(values[point(n)]), ref[n]);
  }
}

}  // namespace

verification_result verify_potential(const verification_options& o, const atoms& a, const lattice& g,
                                     const interaction& physics, const float* values) {
  verification_result r;
  r.tolerance = o.tolerance;
  const std::size_t n_points = g.size();
  std::string mode = o.mode;
  if (mode == "auto") mode = double(a.size()) * double(n_points) <= o.full_limit ? "full" : "sample";
  if (mode == "sample" && o.samples >= n_points) mode = "full";  // sampling everything is a full check
  r.mode = mode;
  if (mode == "none") return r;
  const auto t0 = std::chrono::steady_clock::now();
  accumulator acc;
  if (mode == "full") {
    check_points(a, g, physics, values, nullptr, n_points, acc);
    r.points = n_points;
  } else {
    // Points drawn uniformly (with replacement) from a seeded mt19937_64, reproducible across libraries.
    std::mt19937_64 rng(o.seed);
    std::vector<std::size_t> picked(o.samples);
    for (auto& p : picked) p = std::min(n_points - 1, std::size_t(double(rng() >> 11) * 0x1.0p-53 * double(n_points)));
    check_points(a, g, physics, values, &picked, picked.size(), acc);
    r.points = picked.size();
  }
  r.reference_norm = std::sqrt(acc.ref2);
  const double diff = std::sqrt(acc.diff2);
  r.error = diff == 0.0 ? 0.0 : acc.ref2 > 0 ? diff / r.reference_norm : std::numeric_limits<double>::infinity();
  if (!std::isfinite(diff)) r.error = std::numeric_limits<double>::infinity();
  r.max_abs_error = acc.max_abs;
  r.passed = r.error <= o.tolerance;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace ppl
