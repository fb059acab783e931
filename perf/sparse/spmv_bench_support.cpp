#include "spmv_bench_support.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <sstream>

#include "ppl/sparse/generators.hpp"

namespace ppl::bench {
namespace {

constexpr bool host_space = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible;

std::unique_ptr<bench_matrix>& cache() {
  static std::unique_ptr<bench_matrix> m;
  static bool hooked = false;
  if (!hooked) {
    Kokkos::push_finalize_hook([] { m.reset(); });  // Views must go before Kokkos does
    hooked = true;
  }
  return m;
}

}  // namespace

const bench_matrix& matrix_for(int components, std::int64_t rows) {
  auto& c = cache();
  const int n = convection_diffusion_n_for_rows(rows, components);
  if (c && c->components == components && c->n == n) return *c;
  c.reset();
  auto m = std::make_unique<bench_matrix>();
  m->components = components;
  m->n = n;
  convection_diffusion_params p;
  p.n = n;
  p.components = components;
  p.peclet = 10.0;
  m->A = make_convection_diffusion_matrix(p);
  // x in [-1, 1], fixed pseudo-random (a smooth x would make the check blind to a shifted index).
  std::vector<double> x(m->A.numCols());
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  for (auto& v : x) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    v = static_cast<double>(s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
  }
  m->x = to_device(x, "bench::x");
  const host_csr h = to_host(m->A);
  m->y_ref.assign(h.rows, 0.0);
  m->bound.assign(h.rows, 0.0);
  m->terms.assign(h.rows, 0);
#pragma omp parallel for schedule(static)
  for (int r = 0; r < h.rows; ++r) {
    double y = 0, b = 0;
    for (auto j = h.row_map[r]; j < h.row_map[r + 1]; ++j) {
      y += h.values[j] * x[h.entries[j]];
      b += std::abs(h.values[j] * x[h.entries[j]]);
    }
    m->y_ref[r] = y, m->bound[r] = b, m->terms[r] = static_cast<int>(h.row_map[r + 1] - h.row_map[r]);
  }
  c = std::move(m);
  return *c;
}

double spmv_bytes(const crs_matrix& A) {
  return 12.0 * static_cast<double>(A.nnz()) + sizeof(crs_matrix::size_type) * (A.numRows() + 1.0) + 8.0 * A.numCols() +
         8.0 * A.numRows();
}

double max_error_over_tolerance(const bench_matrix& m, const_vector_view y) {
  const auto h = to_host(y);
  const double eps = std::numeric_limits<double>::epsilon();
  double worst = 0;
  for (std::size_t r = 0; r < h.size(); ++r) {
    const double tol = 2.0 * (m.terms[r] + 1) * eps * m.bound[r];
    const double err = std::abs(h[r] - m.y_ref[r]);
    if (!(err <= tol)) return std::numeric_limits<double>::infinity();  // also catches NaN
    if (tol > 0) worst = std::max(worst, err / tol);
  }
  return worst;
}

time_stats stats_of(std::vector<double> t) {
  time_stats s;
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  auto at = [&](double q) { return t[static_cast<std::size_t>(std::lround(q * (t.size() - 1)))]; };
  s.min = t.front(), s.max = t.back(), s.p10 = at(0.1), s.p90 = at(0.9);
  s.median = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  return s;
}

std::vector<std::int64_t> row_counts() {
  std::vector<std::int64_t> out;
  if (const char* e = std::getenv("PPL_SPMV_ROWS")) {
    std::stringstream ss(e);
    for (std::string t; std::getline(ss, t, ',');)
      if (!t.empty()) out.push_back(std::stoll(t));
  }
  if (out.empty()) {
    if (host_space)
      out = {250000, 1000000};
    else
      out = {500000, 1000000, 2000000, 3000000};
  }
  return out;
}

int repeats() {
  if (const char* e = std::getenv("PPL_SPMV_REPEATS")) return std::max(1, std::atoi(e));
  return host_space ? 20 : 100;
}

std::size_t copy_bytes() {
  double gib = 2.0;
  if (const char* e = std::getenv("PPL_COPY_GIB")) gib = std::atof(e);
  return static_cast<std::size_t>(gib * 1024 * 1024 * 1024);
}

double& measured_copy_gbps() {
  static double v = 0;
  return v;
}

namespace {

// The copy bandwidth: fenced deep copies of copy_bytes() (read + write counted), one per iteration.
void bench_copy(benchmark::State& state) {
  const std::size_t n = copy_bytes() / sizeof(double);
  Kokkos::View<double*, sparse_space> src(Kokkos::ViewAllocateWithoutInitializing("copy::src"), n);
  Kokkos::View<double*, sparse_space> dst(Kokkos::ViewAllocateWithoutInitializing("copy::dst"), n);
  Kokkos::deep_copy(src, 1.0);
  Kokkos::deep_copy(dst, src);  // warm-up (first touch)
  Kokkos::fence();
  std::vector<double> t;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    Kokkos::deep_copy(dst, src);
    Kokkos::fence();
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(dt);
    t.push_back(dt);
  }
  const auto s = stats_of(t);
  const double bytes = 2.0 * n * sizeof(double);  // read + write
  measured_copy_gbps() = bytes / s.median * 1e-9;
  state.counters["GBps"] = measured_copy_gbps();
  state.counters["bytes"] = bytes;
  state.counters["median_ms"] = s.median * 1e3;
  state.counters["p10_ms"] = s.p10 * 1e3;
  state.counters["p90_ms"] = s.p90 * 1e3;
}

}  // namespace

void register_copy_benchmark() {
  benchmark::RegisterBenchmark("copy/deep_copy", bench_copy)
      ->UseManualTime()
      ->Iterations(host_space ? 5 : 20)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace ppl::bench
