// `strategy: auto` (include/ppl/potential/strategy_choice.hpp): the rule and its reasons. The thresholds are in
// auto_rule, in that header.
#include "ppl/potential/strategy_choice.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <type_traits>

#include "coalesced_tiles.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/verification.hpp"

namespace ppl {

potential_problem_summary summarize_problem(const lattice& g, std::size_t atoms, const interaction& pair) {
  potential_problem_summary p;
  p.dims = g.dims;
  p.atoms = atoms;
  p.pair = pair;
  p.periodic = g.periodic;
#if defined(KOKKOS_ENABLE_CUDA)
  p.cuda = std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value;
#endif
  p.spacing = g.spacing;
  p.gpu = default_space_is_gpu();
  p.concurrency = Kokkos::DefaultExecutionSpace().concurrency();
  if (p.gpu) p.multiprocessors = query_system_info().multiprocessors;
  return p;
}

std::string potential_choice::parameters_yaml() const {
  if (parameters.empty()) return "";
  std::string out;
  for (const auto& [key, value] : parameters) out += (out.empty() ? "{" : ", ") + key + ": " + value_text(value);
  return out + "}";
}

double msm_work(const potential_problem_summary& p, const msm_parameters& m) {
  const double points = double(p.dims[0]) * p.dims[1] * p.dims[2];
  const double pi = 3.14159265358979323846;
  const double per_atom = 4.0 / 3.0 * pi * std::pow(m.cutoff / p.spacing, 3);
  const double short_pairs = std::min(double(p.atoms) * per_atom, double(p.atoms) * points);
  double nodes = 1;
  for (int d = 0; d < 3; ++d) nodes *= double(p.dims[d] - 1) * p.spacing / m.spacing + 2.0 * m.order_degree() + 2.0;
  const double stencil = 4.0 / 3.0 * pi * std::pow(2.0 * m.cutoff / m.spacing, 3);
  using namespace auto_rule;
  return (p.gpu ? msm_short_pair_cost_gpu : msm_short_pair_cost_host) * short_pairs +
         msm_grid_term_cost * nodes * stencil * 8.0 / 7.0 + msm_point_cost * points +
         (p.gpu ? msm_fixed_cost_gpu : msm_fixed_cost_host);
}

potential_choice choose_potential_strategy(const potential_problem_summary& p) {
  using namespace potential_detail;
  potential_choice c;
  if (p.pair.is_msm()) {
    c.strategy = "msm";
    c.reason = p.cuda ? "msm interaction: multilevel summation, its short range by cutoff_binned_cuda"
                      : "msm interaction: multilevel summation, its short range by cutoff_binned";
    return c;
  }
  if (p.pair.is_cutoff()) {
    c.strategy = p.cuda ? "cutoff_binned_cuda" : "cutoff_binned";
    c.reason = p.cuda ? "cutoff interaction on a CUDA build: the fastest cutoff strategy on the "
                        "H200 (46.9 ms against cutoff_binned's 55.0, perf/results/cutoff-h200)"
                      : "cutoff interaction: visits only the bins within the cutoff";
    return c;
  }
  if (!p.pair.is_cutoff() && !p.periodic && p.tolerance >= msm_default_tolerance) {
    const double direct = double(p.atoms) * double(p.dims[0]) * p.dims[1] * p.dims[2];
    const double work = msm_work(p, msm_parameters{});
    if (work < auto_rule::msm_work_fraction * direct) {
      c.strategy = "msm";
      c.use_msm = true;
      c.reason = fmt::format(
          "Coulomb within verification.tolerance {:.1e} (MSM's defaults meet {:.0e}): multilevel summation, "
          "predicted {:.3g}x less work than direct summation",
          p.tolerance, msm_default_tolerance, direct / work);
      return c;
    }
  }
  // How many teams gather_coalesced would launch for this lattice, against how many the device runs at once.
  lattice g;
  g.dims = p.dims;
  const int cc = auto_rule::coalesced_coarsening;
  const tile_shape s = resolve_shape({}, cc, g, p.gpu);
  const long long tiles = tiling_of(g, s, cc).tiles;
  const int team = s.width * s.rows;
  const long long resident = std::max(1, p.concurrency / team);
  const long long points = (long long)p.dims[0] * p.dims[1] * p.dims[2];
  const int sms = p.gpu ? p.multiprocessors : 0;
  const double per_sm = sms > 0 ? double(tiles) / sms : 0.0;
  const double imbalance = sms > 0 ? std::ceil(per_sm) / per_sm : 0.0;  // busiest SM over the mean
  const bool small =
      sms > 0 ? imbalance >= auto_rule::split_imbalance
              : double(tiles) < (p.gpu ? auto_rule::fill_waves : auto_rule::host_fill_waves) * double(resident);
  if (small && p.atoms >= std::size_t(2 * auto_rule::split_min_chunk_atoms)) {
    c.strategy = "gather_atom_split";
    c.reason = sms > 0 ? fmt::format(
                             "Coulomb, {} points make {} point tiles of {} threads on {} SMs: the busiest "
                             "SM would run {:.0f} where the mean is {:.3g} ({:.2f}x), so the {} atoms are "
                             "split across teams too",
                             points, tiles, team, sms, std::ceil(per_sm), per_sm, imbalance, p.atoms)
                       : fmt::format(
                             "Coulomb, {} points make {} point tiles of {} threads for {} teams at once: the "
                             "{} atoms are split across teams too",
                             points, tiles, team, resident, p.atoms);
    return c;
  }
  const std::string fill =
      small ? fmt::format("{} point tiles (too few for the device, but {} atoms are too few to split)", tiles, p.atoms)
      : sms > 0 ? fmt::format("{} point tiles on {} SMs (busiest SM {:.2f}x the mean)", tiles, sms, imbalance)
                : fmt::format("{} point tiles for {} teams at once", tiles, resident);
  if (!p.gpu && auto_rule::host_prefers_coarsened) {
    c.strategy = "gather_coarsened";
    c.reason = "Coulomb on the host, " + fill + ": its C = 8 points per thread vectorise";
    return c;
  }
  if (!p.gpu) {
    c.strategy = "gather_coalesced";
    c.reason = "Coulomb on the host, " + fill + ": one-thread teams whose C = 8 points per thread vectorise";
    return c;
  }
  if (p.cuda && auto_rule::cuda_prefers_hybrid_rsqrt) {
    c.strategy = "gather_hybrid_rsqrt_cuda";
    // Rows of at least 256 points fill strips of C = 32 (its default, S = 7); shorter rows take C = 8 with one
    // software point, whose strips are 8 times shorter (H200: 100-point rows at C = 16 left the device half idle).
    if (p.dims[0] < auto_rule::hybrid_long_row) {
      c.parameters = {{"coarsening", 8}, {"software_points", 1}};
      c.reason = "Coulomb, " + fill + ": rows of " + std::to_string(p.dims[0]) +
                 " points, so C = 8 with one software rsqrt point (perf/results/potential-h200)";
      return c;
    }
    c.reason = "Coulomb, " + fill +
               ": 4.3e12/s on the H200 at C = 32, S = 7, 1.13x gather_coalesced (perf/results/potential-h200), at "
               "up to 7 eps per software term";
    return c;
  }
  c.strategy = "gather_coalesced";
  c.reason = "Coulomb, " + fill +
             ": 3.94e12/s on the H200 (perf/results/potential-h200), within 1% of "
             "gather_hybrid_rsqrt_cuda with a thirtieth of its error per term";
  return c;
}

auto_strategy make_auto_strategy(const atoms& a, const lattice& g, const interaction& pair, double tolerance,
                                 const std::string& where) {
  potential_problem_summary problem = summarize_problem(g, a.size(), pair);
  problem.tolerance = tolerance;
  const potential_choice c = choose_potential_strategy(problem);
  auto_strategy out;
  out.pair = c.use_msm ? msm_interaction() : pair;
  out.name = c.strategy;
  out.parameters_yaml = c.parameters_yaml();
  out.reason = c.reason;
  const std::string auto_where = where + " auto (" + c.strategy + ")";
  out.strategy = make_potential_strategy(c.strategy, c.parameters, out.pair, auto_where, g.periodic);
  std::string first_refusal;
  try {
    out.strategy->check({a, g, out.pair});
    return out;
  } catch (const input_error& e) {
    first_refusal = e.what();
  }
  const interaction asked = pair;  // MSM was auto's own approximation: back to exact Coulomb
  const std::vector<std::string> fallbacks =
      asked.is_cutoff()
          ? std::vector<std::string>{"cutoff_binned", "cutoff_large_bins", "cutoff_reference", "reference"}
      : asked.is_msm() ? std::vector<std::string>{"reference"}
                       : std::vector<std::string>{"gather_coalesced", "gather", "reference"};
  for (const auto& name : fallbacks) {
    if (name == c.strategy) continue;
    try {
      auto s = make_potential_strategy(name, {}, asked, where, g.periodic);
      s->check({a, g, asked});
      out.strategy = std::move(s);
      out.pair = asked;
      out.reason =
          c.reason + "; but " + c.strategy + " refuses this job (" + first_refusal + "), and " + name + " takes it";
      out.name = name;
      out.parameters_yaml.clear();
      return out;
    } catch (const input_error&) {
      continue;  // not supported, not in this build or refusing too: the next
    }
  }
  return out;  // none takes it: the choice itself, whose check() refuses the problem
}

}  // namespace ppl
