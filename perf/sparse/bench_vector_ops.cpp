// bench_vector_ops: the Krylov vector kernels one at a time (src/sparse/vector_ops.cpp), each in the form
// BiCGSTAB + Jacobi calls it, against the device copy bandwidth of the same run. A BiCGSTAB iteration is two SpMVs
// and these kernels; this says which of them runs below the memory rate, without a solver around it.
//
// GB/s counts each vector the kernel reads or writes once (passes x 8 bytes x rows; docs/solver.md, "Passes over
// memory"). Timing: a sample is `batch` back-to-back calls between two fences (10 on GPUs, 1 on the host), divided
// by batch; 3 warm-up calls first. Reported: median, p10, p90; GB/s and fraction_of_copy use the median.
// Sizes: PPL_SPMV_ROWS (default 0.5M-3M on GPUs, 0.25M and 1M on the host); repeats: PPL_SPMV_REPEATS.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "ppl/sparse/vector_ops.hpp"
#include "spmv_bench_support.hpp"

namespace ppl::bench {
namespace {

constexpr bool host_space = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible;
constexpr int batch = host_space ? 1 : 10;

// The vectors of one BiCGSTAB iteration, filled with bounded values (the updates' coefficients keep them bounded
// over any number of calls).
struct vectors {
  vector_view r, rh, v, p, sh, t, x, d;
  vec::scalar_view s;
  explicit vectors(std::int64_t n)
      : r("r", n), rh("rh", n), v("v", n), p("p", n), sh("sh", n), t("t", n), x("x", n), d("d", n), s("s", 16) {
    double value = 0.5;
    for (auto* w : {&r, &rh, &v, &p, &sh, &t, &x, &d}) Kokkos::deep_copy(*w, value += 0.125);
  }
};

struct kernel {
  std::string name;
  int passes;  // vectors read + vectors written
  std::function<void(vectors&)> call;
};

std::vector<kernel> kernels() {
  using vec::dev_coef;
  const auto k = [](double c) { return dev_coef::constant(c); };
  return {
      {"scaled_axpy_pcz", 5,
       [k](vectors& w) { vec::scaled_axpy_pcz(execution(), w.d, w.r, k(-0.25), w.v, k(0.5), w.p, w.s); }},
      {"dots3", 2, [](vectors& w) { vec::dots3(execution(), w.rh, w.v, w.s, 0); }},
      {"axpby_jacobi", 5, [k](vectors& w) { vec::axpby(execution(), k(0.5), w.v, k(0.5), w.r, w.s, w.d, w.sh); }},
      {"xr_update_dots", 8,
       [k](vectors& w) {
         vec::xr_update_dots(execution(), k(1e-3), w.p, k(1e-3), w.sh, w.x, k(-0.5), w.t, w.r, w.rh, w.s, 3);
       }},
  };
}

void bench_kernel(benchmark::State& state, const kernel& kern, std::int64_t rows) {
  vectors w(rows);
  for (int i = 0; i < 3; ++i) kern.call(w);
  Kokkos::fence();
  std::vector<double> t;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int b = 0; b < batch; ++b) kern.call(w);
    Kokkos::fence();
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / batch;
    state.SetIterationTime(dt);
    t.push_back(dt);
  }
  const auto st = stats_of(t);
  const double bytes = 8.0 * kern.passes * static_cast<double>(rows);
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["passes"] = kern.passes;
  state.counters["GBps"] = bytes / st.median * 1e-9;
  state.counters["median_us"] = st.median * 1e6;
  state.counters["p10_us"] = st.p10 * 1e6;
  state.counters["p90_us"] = st.p90 * 1e6;
  if (measured_copy_gbps() > 0) state.counters["fraction_of_copy"] = bytes / st.median * 1e-9 / measured_copy_gbps();
}

[[maybe_unused]] const bool registered = [] {
  register_copy_benchmark();
  for (const std::int64_t rows : row_counts())
    for (const kernel& kern : kernels()) {
      const std::string name = "vec/" + kern.name + "/rows" + std::to_string(rows);
      benchmark::RegisterBenchmark(name.c_str(), [kern, rows](benchmark::State& st) { bench_kernel(st, kern, rows); })
          ->UseManualTime()
          ->Iterations(repeats())
          ->Unit(benchmark::kMicrosecond);
    }
  return true;
}();

}  // namespace
}  // namespace ppl::bench
