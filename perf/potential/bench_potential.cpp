// Potential strategies x scenarios, Google Benchmark with manual timing: each iteration is fenced before and
// after. Every (scenario, variant) is verified once against float64 at sampled points before it is timed (the
// error is a counter; a variant far off is reported as an error, not timed). Counters: evals_per_s
// (atom-evaluations per second), and on a GPU rsqrt_ceiling_fraction (of 16 rsqrt/clk/SM x SMs x SM clock), on the
// host evals_per_s_per_core.
//
// end_to_end/<scenario>/<strategy>: what a one-shot caller pays (the PMPP solutions' benchmark times its wrapper
// so): set-up from the host atoms (staging, allocations, upload), a fresh output buffer, the compute and the map's
// copy back to a host array, per iteration; `auto` is the strategy the potential job's rule picks for the scenario.
// Allocations go through ppl's device buffer cache, so after the warm-up they are reuses (counters allocations and
// reuses: the cache's, over the timed iterations).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>

#include "bench_scenarios.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/reference.hpp"
#include "ppl/potential/strategy_choice.hpp"
#include "ppl/potential/summary.hpp"
#if defined(PPL_HAS_CUDA_BASELINE)
#include "baselines/coulomb_cuda.hpp"
#endif

namespace ppl::bench {
namespace {

struct verification {
  double rel_l2 = 0.0;   // ||v - v64|| / ||v64|| over the sampled points
  double max_rel = 0.0;  // max |v - v64| / max |v64|
  bool ok = true;
};

// 1024 sampled points (fixed seed) plus the first and last point, against reference_potential_at in float64.
verification verify(const scenario& s) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.out);
  const std::size_t n = s.g.size();
  std::vector<std::size_t> idx{0, n - 1};
  std::mt19937_64 rng(12345);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  for (int i = 0; i < 1024; ++i) idx.push_back(pick(rng));
  double d2 = 0.0, r2 = 0.0, dmax = 0.0, rmax = 0.0;
  verification v;
  for (std::size_t p : idx) {
    const auto at = s.g.point(p);
    const double ref = reference_potential_at(s.host, at[0], at[1], at[2]);
    const double got = h(p);
    if (!std::isfinite(got)) v.ok = false;
    d2 += (got - ref) * (got - ref);
    r2 += ref * ref;
    dmax = std::max(dmax, std::abs(got - ref));
    rmax = std::max(rmax, std::abs(ref));
  }
  v.rel_l2 = r2 > 0 ? std::sqrt(d2 / r2) : std::sqrt(d2);
  v.max_rel = rmax > 0 ? dmax / rmax : dmax;
  if (!(v.rel_l2 < 1e-3)) v.ok = false;  // a bug, not rounding: do not time it
  return v;
}

std::shared_ptr<const potential_strategy> make_strategy(const std::string& name, const parameter_values& params) {
  return make_potential_strategy(name, params, coulomb_interaction(), "bench");
}

std::function<void()> runner(const scenario& s, const variant& v) {
  if (v.baseline) {
#if defined(PPL_HAS_CUDA_BASELINE)
    const auto kind = v.strategy == "rsqrtf" ? ppl_baseline::rsqrt_kind::rsqrtf : ppl_baseline::rsqrt_kind::ftz;
    const auto design = v.strategy == "tiles" ? ppl_baseline::design::tiles : ppl_baseline::design::constmem;
    return [&s, kind, design] {
      const char* err = ppl_baseline::coulomb_cuda(
          reinterpret_cast<const ppl_baseline::atom_xyzq*>(s.device.data.data()), int(s.device.size()), s.g.dims[0],
          s.g.dims[1], s.g.dims[2], float(s.g.spacing), s.out.data(), kind, design, Kokkos::Cuda().cuda_stream());
      if (*err) throw std::runtime_error(std::string("baseline: ") + err);
      Kokkos::fence();
    };
#endif
  }
  std::shared_ptr<const potential_strategy> strategy = make_strategy(v.strategy, v.params);
  // Set-up (staging the atoms) once per variant, apart from the timed computes.
  std::shared_ptr<const potential_plan> plan = strategy->prepare({s.host, s.g, coulomb_interaction()});
  return [&s, strategy, plan] { strategy->compute(*plan, s.out, write_mode::overwrite); };
}

void run_variant(benchmark::State& state, const scenario_spec* spec, const variant* v) {
  const scenario& s = scenario_data(*spec);
  const auto once = runner(s, *v);
  static std::map<std::string, verification> verified;  // once per (scenario, variant)
  const std::string key = spec->name + "/" + v->label;
  auto it = verified.find(key);
  if (it == verified.end()) {
    Kokkos::deep_copy(s.out, std::nanf(""));
    once();  // also the warm-up
    it = verified.emplace(key, verify(s)).first;
  }
  const verification& ver = it->second;
  if (!ver.ok) {
    state.SkipWithError(("verification failed: relative L2 error " + std::to_string(ver.rel_l2)).c_str());
    return;
  }
  double total = 0.0;
  for (auto _ : state) {
    Kokkos::fence();
    const auto t0 = std::chrono::steady_clock::now();
    once();
    Kokkos::fence();
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(dt);
    total += dt;
  }
  const double evals = double(s.host.size()) * double(s.g.size());
  const double rate = total > 0 ? evals * double(state.iterations()) / total : 0.0;
  const system_info info = query_system_info();
  state.counters["evals_per_s"] = rate;
  if (const double ceiling = rsqrt_ceiling_per_s(info); ceiling > 0)
    state.counters["rsqrt_ceiling_fraction"] = rate / ceiling;
  else
    state.counters["evals_per_s_per_core"] = rate / std::max(1, info.concurrency);
  state.counters["verify_rel_l2"] = ver.rel_l2;
  state.counters["verify_max_rel"] = ver.max_rel;
  state.counters["atoms"] = double(s.host.size());
  state.counters["points"] = double(s.g.size());
  state.SetLabel(params_text(v->params));
}

// What the potential job's `strategy: auto` picks for the scenario.
std::shared_ptr<const potential_strategy> auto_strategy(const scenario& s) {
  const potential_choice c = choose_potential_strategy(summarize_problem(s.g, s.host.size(), coulomb_interaction()));
  return make_strategy(c.strategy, c.parameters);
}

struct end_to_end_case {
  std::string label, strategy;  // strategy "auto": the potential job's rule
  parameter_values params;
};

// Per iteration the phases apart (each ends at a fence): set-up, the output's allocation, the compute, the copy
// back; their medians are counters, the iteration time is their sum. Untimed beside them, upload_ms: the atoms'
// host-to-device copy alone (what the set-up moves, without its allocations), so transfers + compute can be told
// from what allocating costs.
void run_end_to_end(benchmark::State& state, const scenario_spec* spec, const end_to_end_case* c) {
  const scenario& s = scenario_data(*spec);
  const auto strategy = c->strategy == "auto" ? auto_strategy(s) : make_strategy(c->strategy, c->params);
  Kokkos::View<float*, Kokkos::HostSpace> map("end_to_end_map", s.g.size());
  std::vector<double> phase[5];
  auto once = [&](bool record) {
    auto t = std::chrono::steady_clock::now();
    auto lap = [&](int k) {
      Kokkos::fence();
      const auto now = std::chrono::steady_clock::now();
      if (record) phase[k].push_back(std::chrono::duration<double>(now - t).count());
      t = now;
    };
    const auto plan = strategy->prepare({s.host, s.g, coulomb_interaction()});
    lap(0);
    const auto out_buffer = make_cached_view<float>(s.g.size());  // as the plan's own buffers (device_buffers.hpp)
    const potential_view out = out_buffer.view;
    lap(1);
    strategy->compute(*plan, out, write_mode::overwrite);
    lap(2);
    Kokkos::deep_copy(map, out);
    lap(3);
  };
  once(false);  // warm-up
  const device_buffer_stats before = device_buffer_statistics();
  for (auto _ : state) {
    Kokkos::fence();
    const auto t0 = std::chrono::steady_clock::now();
    once(true);
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    const auto u0 = std::chrono::steady_clock::now();
    Kokkos::deep_copy(s.device.data, s.device.host);
    Kokkos::fence();
    phase[4].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - u0).count());
  }
  const device_buffer_stats after = device_buffer_statistics();
  state.counters["allocations"] = double(after.allocations - before.allocations);
  state.counters["reuses"] = double(after.reuses - before.reuses);
  // The map that came back, checked as run_variant checks its own (through the scenario's output view).
  Kokkos::deep_copy(s.out, map);
  const verification ver = verify(s);
  if (!ver.ok) state.SkipWithError(("verification failed: relative L2 error " + std::to_string(ver.rel_l2)).c_str());
  const char* names[5] = {"setup_ms", "alloc_out_ms", "compute_ms", "copy_back_ms", "upload_ms"};
  for (int k = 0; k < 5; ++k) {
    auto& v = phase[k];
    if (v.empty()) continue;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    state.counters[names[k]] = 1e3 * v[v.size() / 2];
  }
  state.counters["verify_rel_l2"] = ver.rel_l2;
  state.counters["points"] = double(s.g.size());
}

const bool registered = [] {
  static const std::vector<variant> all = variants();
  for (const scenario_spec& spec : scenario_specs())
    for (const variant& v : all) {
      if ((v.sweep && !spec.sweeps) || (v.slow && !spec.slow_ok)) continue;
      benchmark::RegisterBenchmark(("potential/" + spec.name + "/" + v.label).c_str(), run_variant, &spec, &v)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->MinTime(0.2);
    }
  static const std::vector<end_to_end_case> end_to_end = {
      {"auto", "auto", {}},
      {"gather_coalesced", "gather_coalesced", {}},
      {"gather_atom_split", "gather_atom_split", {}},
      {"gather_atom_split/combine=atomic", "gather_atom_split", {{"combine", "atomic"}}}};
  for (const scenario_spec& spec : scenario_specs())
    if (spec.name == "pmpp_slice_z10")
      for (const end_to_end_case& c : end_to_end)
        benchmark::RegisterBenchmark(("end_to_end/" + spec.name + "/" + c.label).c_str(), run_end_to_end, &spec, &c)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond)
            ->MinTime(0.2);
  return true;
}();

}  // namespace
}  // namespace ppl::bench
