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
// `value(n, point)` is the strategy's value at the n-th checked point, lattice index `point`.
template <class Value>
void check_points(const atoms& a, const lattice& g, const interaction& physics, const Value& value,
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
    for (std::size_t n = 0; n < m; ++n) acc.add(double(value(begin + n, point(n))), ref[n]);
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
  const double diff = std::sqrt(acc.diff2);
  r.error = diff == 0.0 ? 0.0 : acc.ref2 > 0 ? diff / r.reference_norm : std::numeric_limits<double>::infinity();
  if (!std::isfinite(diff)) r.error = std::numeric_limits<double>::infinity();
  r.max_abs_error = acc.max_abs;
  r.passed = r.error <= o.tolerance;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

verification_result verify_potential(const verification_options& o, const atoms& a, const lattice& g,
                                     const interaction& physics, const float* values) {
  verification_result r;
  r.tolerance = o.tolerance;
  const std::size_t n_points = g.size();
  r.mode = check_mode(o, a, n_points);
  if (r.mode == "none") return r;
  const auto t0 = std::chrono::steady_clock::now();
  accumulator acc;
  auto value = [&](std::size_t, std::size_t point) { return values[point]; };
  if (r.mode == "full") {
    check_points(a, g, physics, value, nullptr, n_points, acc);
    r.points = n_points;
  } else {
    const auto picked = sample_points(o, n_points);
    check_points(a, g, physics, value, &picked, picked.size(), acc);
    r.points = picked.size();
  }
  return finish(o, acc, r, t0);
}

verification_result verify_potential(const verification_options& o, const atoms& a, const lattice& g,
                                     const interaction& physics, Kokkos::View<const float*> values) {
  const std::size_t n_points = g.size();
  const std::string mode = check_mode(o, a, n_points);
  if (mode == "full") {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    return verify_potential(o, a, g, physics, host.data());
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
      a, g, physics, [&](std::size_t n, std::size_t) { return host_values(n); }, &picked, picked.size(), acc);
  r.points = picked.size();
  return finish(o, acc, r, t0);
}

}  // namespace ppl
