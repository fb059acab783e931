// Statistics, timing summary and the text/JSON summary of a potential job.
#include "ppl/potential/summary.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

#include "ppl/core/kokkos_compat.hpp"

namespace ppl {

namespace {

// Extremes with their lowest indices and the float64 sum, as one reduction value: ties go to the lowest index, so
// every backend and thread count reports the same positions. A lattice of NaNs only reports NaN at point 0.
struct extremes {
  float min, max;
  std::int64_t imin, imax;
  double sum;
};

template <class Values>
struct extremes_functor {
  using value_type = extremes;
  Values v;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t n, value_type& e) const {
    const float x = v(n);
    if (x < e.min || (x == e.min && n < e.imin)) e.min = x, e.imin = n;
    if (x > e.max || (x == e.max && n < e.imax)) e.max = x, e.imax = n;
    e.sum += x;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& e) const {
    e.min = 3.40282347e+38f, e.max = -3.40282347e+38f;  // FLT_MAX, spelt out for device code
    e.imin = e.imax = INT64_MAX;
    e.sum = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(PPL_KOKKOS_JOIN_VOLATILE value_type& d,
                                   const PPL_KOKKOS_JOIN_VOLATILE value_type& s) const {
    if (s.min < d.min || (s.min == d.min && s.imin < d.imin)) d.min = s.min, d.imin = s.imin;
    if (s.max > d.max || (s.max == d.max && s.imax < d.imax)) d.max = s.max, d.imax = s.imax;
    d.sum += s.sum;
  }
};

std::array<double, 3> position_of(const lattice& g, std::size_t n) {
  const std::size_t nx = std::size_t(g.dims[0]), ny = std::size_t(g.dims[1]);
  return {g.coord(0, int(n % nx)), g.coord(1, int(n / nx % ny)), g.coord(2, int(n / (nx * ny)))};
}

// The statistics of `values` (a view in the memory of `Exec`), in one reduction there.
template <class Exec, class Values>
value_stats stats_of(const lattice& g, const Values& values) {
  value_stats s;
  s.points = g.size();
  if (s.points == 0) return s;
  extremes e;
  Kokkos::parallel_reduce("ppl::potential::stats",
                          Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0, std::int64_t(s.points)),
                          extremes_functor<Values>{values}, e);
  if (e.imin == INT64_MAX) e.imin = e.imax = 0, e.min = e.max = std::numeric_limits<float>::quiet_NaN();
  s.min = e.min, s.max = e.max, s.mean = e.sum / double(s.points);
  s.min_position = position_of(g, std::size_t(e.imin)), s.max_position = position_of(g, std::size_t(e.imax));
  return s;
}

}  // namespace

value_stats compute_stats(const lattice& g, const float* values) {
  const Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> v(values, g.size());
  return stats_of<Kokkos::DefaultHostExecutionSpace>(g, v);
}

value_stats compute_stats(const lattice& g, Kokkos::View<const float*> values) {
  return stats_of<Kokkos::DefaultExecutionSpace>(g, values);
}

timing_stats summarize_times(int warmup, const std::vector<double>& seconds) {
  timing_stats t;
  t.warmup = warmup;
  t.seconds = seconds;
  if (seconds.empty()) return t;
  std::vector<double> s = seconds;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  t.median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  t.min = s.front(), t.max = s.back();
  return t;
}

std::string human_bytes(std::uintmax_t bytes) {
  if (bytes < 1000) return fmt::format("{} B", bytes);
  const char* units[] = {"kB", "MB", "GB", "TB"};
  double v = double(bytes) / 1000;
  int u = 0;
  for (; v >= 999.95 && u < 3; ++u) v /= 1000;
  return fmt::format("{:.{}f} {}", v, v < 9.995 ? 2 : v < 99.95 ? 1 : 0, units[u]);
}

std::string to_text(const potential_summary& s) {
  const auto& g = s.grid;
  const char* u = unit_label(s.physics.units);
  std::string o;
  auto it = std::back_inserter(o);
  fmt::format_to(it, "atoms        {} from {} (net charge {:+.4f} e)\n", s.atoms, s.atoms_source, s.net_charge);
  fmt::format_to(it, "lattice      {} x {} x {} = {} points, spacing {} A, origin ({:.4f}, {:.4f}, {:.4f}) A{}\n",
                 g.dims[0], g.dims[1], g.dims[2], g.size(), g.spacing, g.origin[0], g.origin[1], g.origin[2],
                 s.single_plane ? " (single plane)" : "");
  if (s.strategy == s.strategy_chosen || s.strategy_chosen.empty())
    fmt::format_to(it, "strategy     {}\n", s.strategy);
  else
    fmt::format_to(it, "strategy     {}: {}{} ({})\n", s.strategy, s.strategy_chosen,
                   s.strategy_params.empty() ? "" : " " + s.strategy_params, s.strategy_reason);
  fmt::format_to(it, "interaction  {}\n", s.pair.describe());
  fmt::format_to(it, "physics      units {}{}, permittivity {}, exclusion radius {} A ({} points zeroed)\n", u,
                 s.physics.units == potential_units::kT_per_e ? fmt::format(" at {} K", s.physics.temperature) : "",
                 s.physics.permittivity, s.physics.exclusion_radius, s.excluded_points);
  const auto& v = s.values;
  fmt::format_to(it, "potential    min {:.6g} {} at ({:.3f}, {:.3f}, {:.3f}) A\n", v.min, u, v.min_position[0],
                 v.min_position[1], v.min_position[2]);
  fmt::format_to(it, "             max {:.6g} {} at ({:.3f}, {:.3f}, {:.3f}) A\n", v.max, u, v.max_position[0],
                 v.max_position[1], v.max_position[2]);
  fmt::format_to(it, "             mean {:.6g} {}\n", v.mean, u);
  const auto& t = s.timing;
  fmt::format_to(it, "time         median {:.6g} s, min {:.6g} s, max {:.6g} s ({} warm-up, {} timed)\n", t.median,
                 t.min, t.max, t.warmup, t.seconds.size());
  fmt::format_to(it, "set-up       {:.6g} s (once, not in the times above)\n", s.setup_seconds);
  fmt::format_to(it, "throughput   {:.4g} atom-evaluations/s\n", s.evaluations_per_s);
  if (s.pairs_within > 0)
    fmt::format_to(it,
                   "efficiency   {:.1f}% of the pairs examined lie within the cutoff ({:.1f}% of the pairs loaded)\n",
                   100.0 * s.pairs_within / s.evaluations, 100.0 * s.pairs_within / s.pairs_loaded);
  if (!s.breakdown.empty()) {
    std::string items;
    for (const auto& [name, value] : s.breakdown)
      items += fmt::format("{}{} {:.6g}", items.empty() ? "" : ", ", name, value);
    fmt::format_to(it, "strategy     {} (last compute)\n", items);
  }
  const auto& ver = s.verification;
  if (ver.mode == "none")
    fmt::format_to(it, "verification none\n");
  else
    fmt::format_to(it, "verification {} ({} points, float64 host): relative L2 error {:.3e}, tolerance {:.1e}: {}\n",
                   ver.mode, ver.points, ver.error, ver.tolerance, ver.passed ? "passed" : "FAILED");
  fmt::format_to(it, "backend      {} on {}\n", s.system.default_execution_space, s.system.device_name);
  for (std::size_t n = 0; n < s.files.size(); ++n) {
    const auto& f = s.files[n];
    fmt::format_to(it, "{}{} ({}", n == 0 ? "output       " : "             ", f.path, f.format);
    if (f.measured) fmt::format_to(it, ", {}, {:.3g} s", human_bytes(f.bytes), f.seconds);
    fmt::format_to(it, "{})\n", f.sidecar.empty() ? "" : " + " + f.sidecar);
  }
  return o;
}

namespace {

nlohmann::ordered_json timing_object(const timing_stats& t) {
  return {{"warmup", t.warmup},     {"repeats", t.seconds.size()},
          {"samples_s", t.seconds}, {"median_s", t.median},
          {"min_s", t.min},         {"max_s", t.max}};
}

nlohmann::ordered_json map_object(const potential_summary& s) {
  using json = nlohmann::ordered_json;
  const auto& g = s.grid;
  json m;
  m["atoms"] = {{"count", s.atoms}, {"source", s.atoms_source}, {"net_charge", s.net_charge}};
  m["lattice"] = {{"origin", g.origin},
                  {"spacing", g.spacing},
                  {"dims", g.dims},
                  {"points", g.size()},
                  {"single_plane", s.single_plane}};
  m["strategy"] = {{"requested", s.strategy},
                   {"chosen", s.strategy_chosen.empty() ? s.strategy : s.strategy_chosen},
                   {"params", s.strategy_params.empty() ? json(nullptr) : json(s.strategy_params)},
                   {"reason", s.strategy_reason}};
  m["interaction"] = {{"kind", config_name(s.pair.kind)}, {"radius", nullptr}, {"function", nullptr}};
  if (s.pair.is_cutoff()) {
    m["interaction"]["radius"] = s.pair.radius;
    m["interaction"]["function"] = config_name(s.pair.function);
  }
  if (s.pair.is_msm()) {
    const auto& p = s.pair.msm;
    m["interaction"]["msm"] = {{"cutoff", p.cutoff},
                               {"spacing", p.spacing},
                               {"order", p.order},
                               {"splitting", msm_splitting_degree(p)},
                               {"levels", p.levels == 0 ? json("auto") : json(p.levels)}};
  }
  m["physics"] = {{"units", config_name(s.physics.units)},
                  {"unit_label", unit_label(s.physics.units)},
                  {"unit_factor", unit_factor(s.physics.units, s.physics.temperature)},
                  {"temperature", s.physics.temperature},
                  {"permittivity", s.physics.permittivity},
                  {"exclusion_radius", s.physics.exclusion_radius},
                  {"excluded_points", s.excluded_points}};
  const auto& v = s.values;
  m["values"] = {{"min", v.min},
                 {"min_position", v.min_position},
                 {"max", v.max},
                 {"max_position", v.max_position},
                 {"mean", v.mean}};
  m["timing"] = timing_object(s.timing);
  m["setup_s"] = s.setup_seconds;
  // Pairs inside the cutoff are counted by the cutoff strategies only: null elsewhere.
  const bool counted = s.pairs_within > 0;
  m["work"] = {{"evaluations", s.evaluations},
               {"pairs_within_cutoff", counted ? json(s.pairs_within) : json(nullptr)},
               {"pairs_loaded", counted ? json(s.pairs_loaded) : json(nullptr)},
               {"efficiency", counted ? json(s.pairs_within / s.evaluations) : json(nullptr)},
               {"efficiency_loaded", counted ? json(s.pairs_within / s.pairs_loaded) : json(nullptr)},
               {"atom_evaluations_per_s", s.evaluations_per_s}};
  json b = json::object();
  for (const auto& [name, value] : s.breakdown) b[name] = value;
  m["strategy_breakdown"] = std::move(b);
  const auto& ver = s.verification;
  m["verification"] = {{"mode", ver.mode},
                       {"points", ver.points},
                       {"relative_l2_error", ver.error},
                       {"relative_rms_to_reference", ver.error_to_reference},
                       {"max_abs_error_e_per_A", ver.max_abs_error},
                       {"reference_norm_e_per_A", ver.reference_norm},
                       {"magnitude_norm_e_per_A", ver.magnitude_norm},
                       {"tolerance", ver.tolerance},
                       {"passed", ver.passed},
                       {"time_s", ver.seconds}};
  return m;
}

}  // namespace

std::string to_json(const potential_summary& s) {
  using json = nlohmann::ordered_json;
  json j = json::parse(summary_header_json(s.system, "potential", s.job_file));
  json files = json::array();
  for (const auto& f : s.files) {
    json e = {{"path", f.path}, {"format", f.format}, {"bytes", nullptr}, {"write_s", nullptr}};
    if (f.measured) e["bytes"] = f.bytes, e["write_s"] = f.seconds;
    if (!f.sidecar.empty()) e["sidecar"] = f.sidecar;
    files.push_back(std::move(e));
  }
  j["outputs"] = std::move(files);
  if (s.mpi_ranks > 0) j["mpi"] = {{"ranks", s.mpi_ranks}};
  j["map"] = map_object(s);
  return j.dump(2);
}

std::string map_json(const potential_summary& s) {
  return map_object(s).dump();
}

std::string timing_json(const timing_stats& t) {
  return timing_object(t).dump();
}

double rsqrt_ceiling_per_s(const system_info& s) {
  return s.multiprocessors > 0 && s.clock_ghz > 0 ? 16.0 * s.multiprocessors * s.clock_ghz * 1e9 : 0.0;
}

}  // namespace ppl
