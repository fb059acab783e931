// Float64 host verification of a potential map (see include/ppl/potential/verification.hpp).
#include "ppl/potential/verification.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
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

// What a point's check compares with: the float64 sum, the range a float32 strategy may also reach there by taking
// or leaving the pairs whose distance is within rounding of a truncated cutoff's radius (the sum steps by q/rc
// there), and the sum of the terms' magnitudes (how large float32's rounding can be).
struct point_reference {
  double ref = 0, lo = 0, hi = 0, magnitude = 0;
};

// Distances within this of a `truncated` radius are in or out of a float32 sum: float32 coordinates carry a
// relative error of 2^-24 of their magnitude (up to the lattice's and atoms' extent), r^2 is formed from them, and
// 16 such ulps cover the differences and the product.
double step_band(const atoms& a, const lattice& g, const interaction& physics) {
  if (!physics.is_cutoff() || physics.function != cutoff_function::truncated) return -1.0;
  double extent = physics.radius;
  for (int d = 0; d < 3; ++d) extent = std::max({extent, std::abs(g.origin[d]), std::abs(g.coord(d, g.dims[d] - 1))});
  for (std::size_t n = 0; n < a.size(); ++n)
    extent = std::max({extent, std::abs(a.x[n]), std::abs(a.y[n]), std::abs(a.z[n])});
  return 16.0 * 0x1.0p-24 * extent;
}

point_reference reference_at(const atoms& a, const lattice& g, const std::array<double, 3>& p,
                             const interaction& physics, double band) {
  point_reference r;
  r.ref = reference_potential_at(a, g, p[0], p[1], p[2], physics);
  const auto box = g.box();
  auto image = [&](double d, int axis) { return g.periodic ? d - box[axis] * std::nearbyint(d / box[axis]) : d; };
  const double rc = physics.radius;
  const double in2 = band > 0 && band < rc ? (rc - band) * (rc - band) : 0.0, out2 = (rc + band) * (rc + band);
  for (std::size_t n = 0; n < a.size(); ++n) {
    const double dx = image(p[0] - a.x[n], 0), dy = image(p[1] - a.y[n], 1), dz = image(p[2] - a.z[n], 2);
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < coincidence_radius2) continue;
    const double t = pair_potential_f64(physics, a.q[n], r2);
    r.magnitude += std::abs(t);
    if (band > 0 && r2 >= in2 && r2 < out2) {
      // Near the step: the float64 sum took the pair (t != 0) or left it; a float32 sum may do the other.
      const double step = t != 0.0 ? -t : a.q[n] / std::sqrt(r2);
      r.lo += std::min(0.0, step), r.hi += std::max(0.0, step);
      r.magnitude += std::abs(step);
    }
  }
  return r;
}

struct accumulator {
  double diff2 = 0, ref2 = 0, max_abs = 0, magnitude2 = 0;
  void add(double v, const point_reference& p) {
    // The distance from the value to the range the point's sum may take (the float64 sum itself when no pair is
    // at a step).
    const double d = v < p.ref + p.lo ? v - (p.ref + p.lo) : v > p.ref + p.hi ? v - (p.ref + p.hi) : 0.0;
    diff2 += d * d, ref2 += p.ref * p.ref, max_abs = std::max(max_abs, std::abs(d));
    magnitude2 += p.magnitude * p.magnitude;
  }
};

// float64 reference at the given lattice points, in parallel on the host, in chunks so memory stays bounded.
// `value(n, point)` is the strategy's value at the n-th checked point, lattice index `point`.
template <class Value>
void check_points(const atoms& a, const lattice& g, const interaction& physics, const Value& value,
                  const std::vector<std::size_t>* picked, std::size_t count, accumulator& acc,
                  const verification_progress& progress) {
  constexpr std::size_t chunk = std::size_t(1) << 18;
  std::vector<point_reference> ref(std::min(chunk, count));
  const double band = step_band(a, g, physics);
  for (std::size_t begin = 0; begin < count; begin += chunk) {
    const std::size_t m = std::min(chunk, count - begin);
    auto point = [&](std::size_t n) { return picked ? (*picked)[begin + n] : begin + n; };
    Kokkos::parallel_for("ppl::potential::verify_f64", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, m),
                         [&](std::size_t n) { ref[n] = reference_at(a, g, g.point(point(n)), physics, band); });
    Kokkos::DefaultHostExecutionSpace().fence();
    for (std::size_t n = 0; n < m; ++n) acc.add(double(value(begin + n, point(n))), ref[n]);
    if (progress) progress(begin + m, count);
  }
}

// What a check covers: "full", "sample" (with the picked points) or "none".
std::string check_mode(const verification_options& o, const atoms& a, std::size_t n_points) {
  std::string mode = o.mode;
  if (mode == "auto") mode = double(a.size()) * double(n_points) <= o.full_limit ? "full" : "sample";
  if (mode == "sample" && o.samples >= n_points) mode = "full";  // sampling everything is a full check
  return mode;
}

// Points drawn uniformly (with replacement) from a seeded mt19937_64, reproducible across libraries.
std::vector<std::size_t> sample_points(const verification_options& o, std::size_t n_points) {
  std::mt19937_64 rng(o.seed);
  std::vector<std::size_t> picked(o.samples);
  for (auto& p : picked) p = std::min(n_points - 1, std::size_t(double(rng() >> 11) * 0x1.0p-53 * double(n_points)));
  return picked;
}

verification_result finish(const verification_options& o, const accumulator& acc, verification_result r,
                           std::chrono::steady_clock::time_point t0) {
  r.reference_norm = std::sqrt(acc.ref2);
  r.magnitude_norm = std::sqrt(acc.magnitude2);
  const double diff = std::sqrt(acc.diff2);
  // Float32 cannot do better than rounding its terms: each point's sum is off by some ulps of the sum of the terms'
  // magnitudes however much they cancel, so a map whose float64 sum cancels to ~0 (3e-16) fails any test relative
  // to ||v_ref|| alone. The error is relative to the larger of ||v_ref|| and cancellation_floor x ||sum |term| ||.
  const double scale = std::max(r.reference_norm, cancellation_floor * r.magnitude_norm);
  r.error = diff == 0.0 ? 0.0 : scale > 0 ? diff / scale : std::numeric_limits<double>::infinity();
  r.error_to_reference =
      diff == 0.0 ? 0.0 : r.reference_norm > 0 ? diff / r.reference_norm : std::numeric_limits<double>::infinity();
  if (!std::isfinite(diff)) r.error_to_reference = std::numeric_limits<double>::infinity();
  if (!std::isfinite(diff)) r.error = std::numeric_limits<double>::infinity();
  r.max_abs_error = acc.max_abs;
  r.passed = r.error <= o.tolerance;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

verification_result verify_potential(const verification_options& o, const atoms& a, const lattice& g,
                                     const interaction& physics, const float* values,
                                     const verification_progress& progress) {
  verification_result r;
  r.tolerance = o.tolerance;
  const std::size_t n_points = g.size();
  r.mode = check_mode(o, a, n_points);
  if (r.mode == "none") return r;
  const auto t0 = std::chrono::steady_clock::now();
  accumulator acc;
  auto value = [&](std::size_t, std::size_t point) { return values[point]; };
  if (r.mode == "full") {
    check_points(a, g, physics, value, nullptr, n_points, acc, progress);
    r.points = n_points;
  } else {
    const auto picked = sample_points(o, n_points);
    check_points(a, g, physics, value, &picked, picked.size(), acc, progress);
    r.points = picked.size();
  }
  return finish(o, acc, r, t0);
}

verification_result verify_potential(const verification_options& o, const atoms& a, const lattice& g,
                                     const interaction& physics, Kokkos::View<const float*> values,
                                     const verification_progress& progress) {
  const std::size_t n_points = g.size();
  const std::string mode = check_mode(o, a, n_points);
  if (mode == "full") {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    return verify_potential(o, a, g, physics, host.data(), progress);
  }
  verification_result r;
  r.tolerance = o.tolerance;
  r.mode = mode;
  if (mode == "none") return r;
  const auto t0 = std::chrono::steady_clock::now();
  // Only the sampled values come to the host: a gather on the device, one small copy.
  const auto picked = sample_points(o, n_points);
  Kokkos::View<std::size_t*, Kokkos::HostSpace> host_points("ppl::verify::points", picked.size());
  std::copy(picked.begin(), picked.end(), host_points.data());
  auto points = Kokkos::create_mirror_view_and_copy(Kokkos::DefaultExecutionSpace::memory_space(), host_points);
  Kokkos::View<float*> gathered("ppl::verify::gathered", picked.size());
  Kokkos::parallel_for(
      "ppl::potential::verify_gather", Kokkos::RangePolicy<>(0, picked.size()),
      KOKKOS_LAMBDA(const std::size_t n) { gathered(n) = values(points(n)); });
  auto host_values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gathered);
  accumulator acc;
  check_points(
      a, g, physics, [&](std::size_t n, std::size_t) { return host_values(n); }, &picked, picked.size(), acc, progress);
  r.points = picked.size();
  return finish(o, acc, r, t0);
}

}  // namespace ppl
