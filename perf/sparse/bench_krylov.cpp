// Krylov solver time per iteration against its memory floor, on generated convection-diffusion systems (27 and
// 81 nonzeros per row), for every solver x SpMV strategy (Jacobi preconditioned, as the 2016 study's stenosis
// case), plus Eigen's BiCGSTAB + DiagonalPreconditioner on the host with 1 and all threads: the study's "GPU vs
// one core vs all cores" comparison on one machine.
//
// Each benchmark runs a fixed number of iterations (tolerances 0), timed by the solver's own loop timer (the loop
// ends with a fence) and reported per iteration (manual time). Before the first repetition: the SpMV strategy
// verified against KokkosSparse::spmv (counter spmv_rel_err), one profiled solve (phase fractions; also the
// warm-up); after every run the gap between the true and the recursive residual (counter residual_gap). The
// floor: bytes one iteration must move (docs/solver.md derives it from the kernels) at the device-copy bandwidth
// measured in the same run (counter copy_GBps). Environment: PPL_BENCH_KRYLOV_ROWS=500000,1000000 (row targets),
// PPL_BENCH_KRYLOV_EIGEN_ROWS (row targets of the Eigen runs; default: the same), PPL_BENCH_KRYLOV_ITERS
// (iterations per solve; Eigen runs a tenth of them, at least 5).
#include <benchmark/benchmark.h>

#include <KokkosBlas1_dot.hpp>
#include <KokkosSparse_spmv.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "eigen_bicgstab.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "ppl/sparse/spmv_strategy.hpp"
#include "ppl/sparse/vector_ops.hpp"

#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

namespace ppl::bench {
namespace {

#if defined(KOKKOS_ENABLE_CUDA)
const std::vector<long> default_rows = {500000, 1000000, 2000000, 3000000};
constexpr int default_iters = 50;
#else
const std::vector<long> default_rows = {60000, 250000};
constexpr int default_iters = 20;
#endif

std::vector<long> row_targets(const char* variable = "PPL_BENCH_KRYLOV_ROWS") {
  const char* env = std::getenv(variable);
  if (!env) return variable == std::string("PPL_BENCH_KRYLOV_ROWS") ? default_rows : row_targets();
  std::vector<long> out;
  std::stringstream ss(env);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(std::stol(item));
  return out;
}

int iterations_per_solve() {
  const char* env = std::getenv("PPL_BENCH_KRYLOV_ITERS");
  return env ? std::max(1, std::atoi(env)) : default_iters;
}

struct bench_system {
  generated_system g;
  std::unique_ptr<host_csr> host;  // for Eigen, made on first use
  std::vector<double> b_host;
};

// One system at a time stays generated (the large ones take GBs); released before Kokkos::finalize.
std::unique_ptr<bench_system> current;
std::pair<int, long> current_key{0, 0};

bench_system& system_for(int components, long rows) {
  if (!current || current_key != std::make_pair(components, rows)) {
    current.reset();
    eigen_release();
    convection_diffusion_params p;
    p.components = components;
    p.n = convection_diffusion_n_for_rows(rows, components);
    current = std::make_unique<bench_system>();
    current->g = make_convection_diffusion(p);
    current_key = {components, rows};
    static bool hook = false;
    if (!hook) {
      Kokkos::push_finalize_hook([] { current.reset(); });
      hook = true;
    }
  }
  return *current;
}

// Device copy bandwidth (read + write), median of 10 fenced copies of 2 x 256 MiB (GPU) / 2 x 64 MiB (host).
double copy_bandwidth() {
  static double bw = 0;
  if (bw > 0) return bw;
#if defined(KOKKOS_ENABLE_CUDA)
  const std::size_t n = std::size_t(32) << 20;
#else
  const std::size_t n = std::size_t(8) << 20;
#endif
  vector_view a("copy_a", n), c("copy_b", n);
  Kokkos::deep_copy(a, 1.0);
  std::vector<double> t;
  for (int i = 0; i < 11; ++i) {
    Kokkos::fence();
    Kokkos::Timer timer;
    Kokkos::deep_copy(c, a);
    Kokkos::fence();
    if (i > 0) t.push_back(timer.seconds());
  }
  std::sort(t.begin(), t.end());
  bw = 2.0 * 8.0 * double(n) / t[t.size() / 2];
  return bw;
}

// Bytes one iteration moves at the least (docs/solver.md, "Memory floor"): the matrix once per SpMV (8 B value +
// 4 B column per nonzero, the row offsets), x read and y written once per SpMV, and `passes` vector passes of
// 8 B per row in the vector kernels.
// GMRES has one SpMV per step and a pass count that grows with the step's place j in the cycle; its "floor" is
// ppl's own CGS2 traffic (docs/solver.md, GMRES table), averaged over the steps of a solve of `iterations` steps
// with the default restart (the cycle restarts themselves left out): a measure of the implementation, not of the
// method's minimum.
double gmres_mean_passes(bool jacobi, int iterations) {
  const int m = gmres_params{}.restart;
  double sum = 0;
  for (int k = 0; k < iterations; ++k) {
    const int cols = k % m + 1;
    sum += (jacobi ? 3 : 0) + 2.0 * (cols + (cols + vec::multi_dot_block - 1) / vec::multi_dot_block) +
           2.0 * (cols + 2) + 2;
  }
  return sum / iterations;
}

// Vector passes (8 B per row each) of one BiCGSTAB or BiCG iteration outside its SpMVs, as the fused kernels make
// them (docs/solver.md, "Passes over memory"): BiCGSTAB 18 without a preconditioner, 22 with Jacobi (p_hat kept
// alone, D^-1 fused into both updates); BiCG 17 / 25.
double iteration_passes(const std::string& solver, bool jacobi) {
  if (solver == "bicgstab") return jacobi ? 22 : 18;
  return jacobi ? 25 : 17;
}

double floor_bytes(const std::string& solver, bool jacobi, const crs_matrix& A, double passes) {
  const double n = A.numRows(), nnz = double(A.nnz());
  const double spmv = 12.0 * nnz + double(sizeof(crs_matrix::size_type)) * (n + 1) + 16.0 * n;
  if (solver == "gmres") return spmv + 8.0 * gmres_mean_passes(jacobi, iterations_per_solve()) * n;
  return 2.0 * spmv + 8.0 * passes * n;
}

// Per row: v[0] = |y_i - yref_i|, v[1] = sum_j |a_ij x_j| (the scale of its rounding); both reduced by max.
struct spmv_error_functor {
  using value_type = double[];
  using size_type = int;
  const size_type value_count = 2;
  crs_matrix::row_map_type row_map;
  crs_matrix::index_type entries;
  crs_matrix::values_type values;
  const_vector_view x, y, yref;
  KOKKOS_INLINE_FUNCTION void init(value_type v) const { v[0] = v[1] = 0.0; }
  KOKKOS_INLINE_FUNCTION void join(PPL_KOKKOS_JOIN_VOLATILE value_type d,
                                   const PPL_KOKKOS_JOIN_VOLATILE value_type s) const {
    d[0] = d[0] > s[0] ? d[0] : s[0];
    d[1] = d[1] > s[1] ? d[1] : s[1];
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int i, value_type v) const {
    double s = 0;
    for (auto k = row_map(i); k < row_map(i + 1); ++k) s += kmath::fabs(values(k) * x(entries(k)));
    v[0] = kmath::fmax(v[0], kmath::fabs(y(i) - yref(i)));
    v[1] = kmath::fmax(v[1], s);
  }
};

// max_i |y_i - y_ref_i| / max_i sum_j |a_ij x_j| against KokkosSparse::spmv, x = the manufactured solution.
double verify_spmv(spmv_strategy& s, const crs_matrix& A, const_vector_view x) {
  vector_view y("y", A.numRows()), yref("yref", A.numRows());
  s.apply(execution(), A, x, y);
  KokkosSparse::spmv("N", 1.0, A, x, 0.0, yref);
  spmv_error_functor f{2, A.graph.row_map, A.graph.entries, A.values, x, y, yref};
  Kokkos::View<double[2], Kokkos::HostSpace> out("err");
  Kokkos::parallel_reduce("ppl::bench::verify_spmv", Kokkos::RangePolicy<sparse_space>(0, A.numRows()), f, out);
  return out(1) > 0 ? out(0) / out(1) : out(0);
}

// What the first repetition of a benchmark measures once for all of them: the SpMV check and a profiled solve.
struct first_run {
  double spmv_err = 0;
  solver_result profiled;
};
std::map<std::string, first_run> first_runs;

void bm_ppl(benchmark::State& st, const std::string& solver, const std::string& strategy, int components, long rows,
            bool jacobi) {
  auto& sys = system_for(components, rows);
  const auto& A = sys.g.A;
  auto spmv = make_spmv_strategy(strategy);
  spmv->prepare(A);
  solver_options o;
  o.rtol = 0.0;
  o.atol = 0.0;
  o.max_iters = iterations_per_solve();
  o.preconditioner = jacobi ? "jacobi" : "none";
  vector_view x("x", A.numRows());
  auto s = make_solver(solver, o);
  const std::string key = solver + "/" + strategy + "/" + std::to_string(components) + "/" + std::to_string(rows) +
                          (jacobi ? "/jacobi" : "/none");
  auto once = first_runs.find(key);
  if (once == first_runs.end()) {
    first_run f;
    f.spmv_err = verify_spmv(*spmv, A, sys.g.x_exact);
    // Profiled solve: phase fractions (fenced, so not the timed run); it also warms up.
    o.profile = true;
    f.profiled = make_solver(solver, o)->solve(execution(), A, *spmv, sys.g.b, x);
    once = first_runs.emplace(key, f).first;
  }
  const auto& profiled = once->second.profiled;
  const double spmv_err = once->second.spmv_err;
  solver_result r;
  for (auto _ : st) {
    Kokkos::deep_copy(x, 0.0);
    Kokkos::fence();
    r = s->solve(execution(), A, *spmv, sys.g.b, x);
    if (r.iterations == 0) {
      st.SkipWithError(("solver stopped at once: " + to_string(r.outcome)).c_str());
      break;
    }
    st.SetIterationTime(r.times.iterate / r.iterations);
  }
  const double t_iter = r.iterations ? r.times.iterate / r.iterations : 0.0;
  const double passes = iteration_passes(solver, jacobi);
  const double bytes = floor_bytes(solver, jacobi, A, passes), bw = copy_bandwidth();
  // 2 SpMV + 31 vector passes: the floor of an unfused iteration (x_floor31, docs/solver.md "Memory floor").
  const double bytes31 = floor_bytes(solver, jacobi, A, 31);
  const double phases =
      profiled.times.spmv + profiled.times.dot + profiled.times.update + profiled.times.precond + profiled.times.host;
  st.counters["rows"] = A.numRows();
  st.counters["nnz_per_row"] = double(A.nnz()) / A.numRows();
  st.counters["iterations"] = r.iterations;
  st.counters["floor_MB"] = bytes / 1e6;
  st.counters["copy_GBps"] = bw / 1e9;
  st.counters["floor_ms"] = 1e3 * bytes / bw;
  st.counters["passes"] = solver == "gmres" ? gmres_mean_passes(jacobi, iterations_per_solve()) : passes;
  st.counters["x_floor"] = t_iter > 0 ? t_iter / (bytes / bw) : 0.0;
  st.counters["x_floor31"] = t_iter > 0 && solver != "gmres" ? t_iter / (bytes31 / bw) : 0.0;
  st.counters["eff_GBps"] = t_iter > 0 ? bytes / t_iter / 1e9 : 0.0;
  st.counters["spmv_rel_err"] = spmv_err;
  st.counters["residual_gap"] = std::fabs(r.true_residual_norm - r.residual_norm) / r.b_norm;
  st.counters["true_residual"] = r.true_residual;
  st.counters["spmv_frac"] = phases > 0 ? profiled.times.spmv / phases : 0.0;
  st.counters["dot_frac"] = phases > 0 ? profiled.times.dot / phases : 0.0;
  st.counters["update_frac"] = phases > 0 ? profiled.times.update / phases : 0.0;
  st.counters["precond_frac"] = phases > 0 ? profiled.times.precond / phases : 0.0;
  st.counters["host_frac"] = phases > 0 ? profiled.times.host / phases : 0.0;
  st.SetLabel(spmv->describe());
}

void bm_eigen(benchmark::State& st, int components, long rows, int threads) {
  auto& sys = system_for(components, rows);
  if (!sys.host) {
    sys.host = std::make_unique<host_csr>(to_host(sys.g.A));
    auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sys.g.b);
    sys.b_host.assign(b.data(), b.data() + b.extent(0));
  }
  const int iters = std::max(5, iterations_per_solve() / 10);
  eigen_bicgstab(*sys.host, sys.b_host, 2, threads);  // warm-up (and the Eigen matrix)
  eigen_run r;
  for (auto _ : st) {
    r = eigen_bicgstab(*sys.host, sys.b_host, iters, threads);
    st.SetIterationTime(r.seconds / std::max(1, r.iterations));
  }
  st.counters["rows"] = sys.host->rows;
  st.counters["nnz_per_row"] = double(sys.host->values.size()) / sys.host->rows;
  st.counters["iterations"] = r.iterations;
  st.counters["threads"] = threads;
  st.counters["true_residual"] = r.true_residual;
}

int host_threads() {
#if defined(KOKKOS_ENABLE_OPENMP)
  return omp_get_max_threads();
#else
  return std::max(1u, std::thread::hardware_concurrency());
#endif
}

// Registered before main (perf/main.cpp runs what is registered). Names:
// <solver>/<spmv>/<jacobi|none>/cd<27|81>/rows:<target>, eigen_bicgstab/jacobi/cd<27|81>/rows:<target>/threads:<t>.
const bool registered = [] {
  for (int components : {1, 3}) {
    const std::string sys = components == 1 ? "cd27" : "cd81";
    for (long rows : row_targets()) {
      for (const auto& solver : solvers().names())
        for (const auto& strategy : spmv_strategies().names()) {
          const std::string name = solver + "/" + strategy + "/jacobi/" + sys + "/rows:" + std::to_string(rows);
          benchmark::RegisterBenchmark(name.c_str(), bm_ppl, solver, strategy, components, rows, true)
              ->UseManualTime()
              ->Iterations(1)
              ->Repetitions(5)
              ->Unit(benchmark::kMillisecond);
        }
      const std::string plain = "bicgstab/kokkos_kernels/none/" + sys + "/rows:" + std::to_string(rows);
      benchmark::RegisterBenchmark(plain.c_str(), bm_ppl, std::string("bicgstab"), std::string("kokkos_kernels"),
                                   components, rows, false)
          ->UseManualTime()
          ->Iterations(1)
          ->Repetitions(5)
          ->Unit(benchmark::kMillisecond);
    }
    std::vector<int> threads = {1};
    if (host_threads() > 1) threads.push_back(host_threads());
    for (long rows : row_targets("PPL_BENCH_KRYLOV_EIGEN_ROWS"))
      for (int t : threads) {
        const std::string name =
            "eigen_bicgstab/jacobi/" + sys + "/rows:" + std::to_string(rows) + "/threads:" + std::to_string(t);
        benchmark::RegisterBenchmark(name.c_str(), bm_eigen, components, rows, t)
            ->UseManualTime()
            ->Iterations(1)
            ->Repetitions(3)
            ->Unit(benchmark::kMillisecond);
      }
  }
  return true;
}();

}  // namespace
}  // namespace ppl::bench
