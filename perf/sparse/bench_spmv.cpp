// bench_spmv: y = A x for every registered SpMV strategy (threads_per_row 2..32 for the vector mappings), with
// KokkosSparse::spmv (the `kokkos_kernels` strategy) and, on CUDA builds, cuSPARSE as peers, on the generated
// 27- and 81-per-row Q1 matrices, plus the device copy bandwidth, all in one run.
//
// Timing: each variant is verified once against the float64 host product (skipped with an error if any row is off
// by more than the unit tests' tolerance), warmed up, then timed `repeats` times; one sample is `batch`
// back-to-back applies between two Kokkos fences (batch 10 on GPUs, 1 on the host) divided by batch. Reported:
// median (the manual time Google Benchmark shows is the mean), p10, p90, min, max, and GB/s of the median with
// the byte count of spmv_bytes(): 12 nnz + sizeof(row map entry) (rows + 1) + 8 cols + 8 rows.
//
// Sizes: PPL_SPMV_ROWS=500000,1000000 (default: 0.5M-3M on GPUs, 0.25M and 1M on the host); repeats:
// PPL_SPMV_REPEATS; copy View size: PPL_COPY_GIB (default 2).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "ppl/sparse/spmv_strategy.hpp"
#include "spmv_bench_support.hpp"
#if defined(PPL_BENCH_CUSPARSE)
#include "cusparse_peer.hpp"
#endif

namespace ppl::bench {
namespace {

constexpr bool host_space = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible;
constexpr int batch = host_space ? 1 : 10;

struct variant {
  std::string label;        // benchmark label, e.g. vector_t8
  std::string strategy;     // registry name, or cusparse
  parameter_values params;  // the strategy's parameters by name
  int cusparse_alg = 0;
};

std::vector<variant> variants() {
  std::vector<variant> out;
  for (const auto& name : spmv_strategies().names()) {
    if (name == "vector" || name == "vector_cuda") {
      for (int t : {2, 4, 8, 16, 32}) out.push_back({name + "_t" + std::to_string(t), name, {{"threads_per_row", t}}});
    } else {
      out.push_back({name, name, {}});
    }
  }
#if defined(PPL_BENCH_CUSPARSE)
  out.push_back({"cusparse_alg1", "cusparse", {}, 1});
  out.push_back({"cusparse_alg2", "cusparse", {}, 2});
#endif
  return out;
}

std::unique_ptr<spmv_strategy> make(const variant& v) {
#if defined(PPL_BENCH_CUSPARSE)
  if (v.strategy == "cusparse") return make_cusparse_peer(v.cusparse_alg);
#endif
  return make_spmv_strategy(v.strategy, v.params);
}

using clock_type = std::chrono::steady_clock;

void bench_spmv(benchmark::State& state, const variant& v, int components, std::int64_t rows) {
  const bench_matrix& m = matrix_for(components, rows);
  auto s = make(v);
  s->prepare(m.A);
  vector_view y(Kokkos::ViewAllocateWithoutInitializing("bench::y"), m.A.numRows());
  Kokkos::deep_copy(y, std::numeric_limits<double>::quiet_NaN());
  s->apply(execution(), m.A, m.x, y);
  Kokkos::fence();
  const double err = max_error_over_tolerance(m, y);
  if (!(err <= 1.0)) {
    state.SkipWithError(("verification against the float64 host product failed: " + s->describe()).c_str());
    return;
  }
  for (int i = 0; i < 3; ++i) s->apply(execution(), m.A, m.x, y);
  Kokkos::fence();
  std::vector<double> t;
  for (auto _ : state) {
    const auto t0 = clock_type::now();
    for (int b = 0; b < batch; ++b) s->apply(execution(), m.A, m.x, y);
    Kokkos::fence();
    const double dt = std::chrono::duration<double>(clock_type::now() - t0).count() / batch;
    state.SetIterationTime(dt);
    t.push_back(dt);
  }
  const auto st = stats_of(t);
  const double bytes = spmv_bytes(m.A);
  state.SetLabel(s->describe());
  state.counters["rows"] = m.A.numRows();
  state.counters["nnz"] = static_cast<double>(m.A.nnz());
  state.counters["nnz_per_row"] = static_cast<double>(m.A.nnz()) / m.A.numRows();
  state.counters["bytes"] = bytes;
  state.counters["GBps"] = bytes / st.median * 1e-9;
  state.counters["median_ms"] = st.median * 1e3;
  state.counters["p10_ms"] = st.p10 * 1e3;
  state.counters["p90_ms"] = st.p90 * 1e3;
  state.counters["min_ms"] = st.min * 1e3;
  state.counters["max_ms"] = st.max * 1e3;
  state.counters["err_over_tol"] = err;
  if (measured_copy_gbps() > 0) state.counters["fraction_of_copy"] = bytes / st.median * 1e-9 / measured_copy_gbps();
}

[[maybe_unused]] const bool registered = [] {
  register_copy_benchmark();
  for (int components : {1, 3})
    for (const std::int64_t rows : row_counts())
      for (const variant& v : variants()) {
        const std::string name =
            "spmv/nnz" + std::to_string(27 * components) + "/rows" + std::to_string(rows) + "/" + v.label;
        benchmark::RegisterBenchmark(
            name.c_str(), [v, components, rows](benchmark::State& st) { bench_spmv(st, v, components, rows); })
            ->UseManualTime()
            ->Iterations(repeats())
            ->Unit(benchmark::kMillisecond);
      }
  return true;
}();

}  // namespace
}  // namespace ppl::bench
