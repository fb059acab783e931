// ILU(0) costs (docs/solver.md, "ILU(0)"): the set-up and one application M^-1 r of each variant, beside one SpMV
// of the same matrix (KokkosSparse::spmv) for scale. A variant is labelled by the `ilu0` preconditioner's parameters,
// <factorization>/<triangular_solve> as a job names them: exact/level_scheduled (spiluk + sptrsv), exact/sequential
// (host memory only), exact/jacobi, parallel/jacobi (the fixed-point factors and Jacobi solves with their default
// sweeps, or PPL_BENCH_ILU0_SWEEPS="factor,solve"), parallel/level_scheduled (set-up only: its application is
// exact/level_scheduled's), and auto (what `preconditioner: ilu0` builds on this build, its checks included).
// Matrices: 2dcyl1, ani4 and nsjac from data/, generated 27-per-row systems of PPL_BENCH_ILU0_N elements per
// direction (default "40,64"; 100 gives 970,299 rows), Peclet 1 or, as "cd27_n100_pe1000", another Peclet number.
//
// ilu0_setup/<matrix>/<variant>: one factorisation per repetition, counters = its phases (seconds), level sets,
// rows per numeric launch, the parallel factors' residual and the Jacobi solves' last-sweep ratios (the checks of
// `auto`). ilu0_apply/<matrix>/<variant> and spmv/<matrix>: 20 applications per repetition, each timed between fences
// (manual time per application).
#include <benchmark/benchmark.h>

#include <KokkosSparse_CrsMatrix.hpp>  // sorts first and brings Kokkos_Core.hpp, which KokkosSparse_spmv.hpp assumes
#include <KokkosSparse_spmv.hpp>
#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/ilu0.hpp"
#include "ppl/sparse/matrix_market.hpp"

namespace ppl::bench {
namespace {

std::vector<std::string> matrices() {
  std::vector<std::string> out = {"2dcyl1", "ani4", "nsjac"};
  const char* env = std::getenv("PPL_BENCH_ILU0_N");
  std::stringstream ss(env ? env : "40,64");
  for (std::string item; std::getline(ss, item, ',');) out.push_back("cd27_n" + item);
  return out;
}

// One matrix at a time stays in memory (released by a Kokkos finalize hook: Views must go before Kokkos does, whatever
// --benchmark_filter ran).
std::unique_ptr<crs_matrix> current;
std::string current_name;

const crs_matrix& matrix_named(const std::string& name) {
  if (current_name != name) {
    static const bool hooked = (Kokkos::push_finalize_hook([] { current.reset(); }), true);
    (void)hooked;
    current.reset();
    if (name.rfind("cd27_n", 0) == 0) {
      convection_diffusion_params p;
      p.n = std::stoi(name.substr(6));
      if (const auto pe = name.find("_pe"); pe != std::string::npos) p.peclet = std::stod(name.substr(pe + 3));
      current = std::make_unique<crs_matrix>(make_convection_diffusion_matrix(p));
    } else {
      const char* data = std::getenv("PPL_DATA_DIR");
      current = std::make_unique<crs_matrix>(
          read_matrix_market(std::string(data ? data : "data") + "/matrices/" + name + ".mtx.gz"));
    }
    current_name = name;
  }
  return *current;
}

void bm_setup(benchmark::State& st, std::string name, ilu0_options o) {
  const auto& A = matrix_named(name);
  ilu0_stats s;
  for (auto _ : st) {
    Kokkos::Timer t;
    ilu0_factorization f(A, o);
    Kokkos::fence();
    st.SetIterationTime(t.seconds());
    s = f.stats();
  }
  st.counters["parallel_factors"] = s.factorization == ilu0_factorization_method::parallel;
  st.counters["jacobi_solves"] = s.solve == ilu0_triangular_solve::jacobi;
  st.counters["factor_sweeps"] = s.factor_sweeps;
  st.counters["solve_sweeps"] = s.solve_sweeps;
  st.counters["factor_residual"] = s.factor_residual;
  st.counters["jacobi_ratio_L"] = s.jacobi_ratio_L;
  st.counters["jacobi_ratio_U"] = s.jacobi_ratio_U;
  st.counters["rows"] = A.numRows();
  st.counters["nnz"] = double(A.nnz());
  st.counters["symbolic_s"] = s.symbolic;
  st.counters["numeric_s"] = s.numeric;
  st.counters["solve_levels_s"] = s.solve_symbolic;
  st.counters["factor_levels"] = s.factor_levels;
  st.counters["largest_level"] = s.largest_level;
  st.counters["rows_per_launch"] = s.rows_per_launch;
  st.counters["L_levels"] = s.L_levels;
  st.counters["U_levels"] = s.U_levels;
}

void bm_apply(benchmark::State& st, std::string name, ilu0_options o) {
  const auto& A = matrix_named(name);
  ilu0_factorization f(A, o);
  vector_view r("r", A.numRows()), z("z", A.numRows());
  Kokkos::deep_copy(r, 1.0);
  f.apply(r, z);
  Kokkos::fence();
  for (auto _ : st) {
    Kokkos::Timer t;
    f.apply(r, z);
    Kokkos::fence();
    st.SetIterationTime(t.seconds());
  }
  st.counters["rows"] = A.numRows();
}

void bm_spmv(benchmark::State& st, std::string name) {
  const auto& A = matrix_named(name);
  vector_view x("x", A.numRows()), y("y", A.numRows());
  Kokkos::deep_copy(x, 1.0);
  KokkosSparse::spmv("N", 1.0, A, x, 0.0, y);
  Kokkos::fence();
  for (auto _ : st) {
    Kokkos::Timer t;
    KokkosSparse::spmv("N", 1.0, A, x, 0.0, y);
    Kokkos::fence();
    st.SetIterationTime(t.seconds());
  }
  st.counters["rows"] = A.numRows();
}

// Manual time in ms, 3 repetitions of `iterations` runs each.
template <class... Args>
void add(const std::string& name, int iterations, Args&&... args) {
  benchmark::RegisterBenchmark(name.c_str(), std::forward<Args>(args)...)
      ->UseManualTime()
      ->Iterations(iterations)
      ->Repetitions(3)
      ->Unit(benchmark::kMillisecond);
}

ilu0_options variant(ilu0_factorization_method f, ilu0_triangular_solve t) {
  ilu0_options o;
  o.factorization = f;
  o.solve = t;
  if (const char* env = std::getenv("PPL_BENCH_ILU0_SWEEPS")) {
    std::stringstream ss(env);
    char comma = 0;
    ss >> o.factor_sweeps >> comma >> o.solve_sweeps;
  }
  return o;
}

const bool registered = [] {
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible;
  using F = ilu0_factorization_method;
  using T = ilu0_triangular_solve;
  struct entry {
    std::string label;
    ilu0_options options;
    bool apply;  // parallel/level_scheduled applies as exact/level_scheduled does
  };
  std::vector<entry> variants{{"exact/level_scheduled", variant(F::exact, T::level_scheduled), true}};
  if (host) variants.push_back({"exact/sequential", variant(F::exact, T::sequential), true});
  variants.push_back({"exact/jacobi", variant(F::exact, T::jacobi), true});
  variants.push_back({"parallel/jacobi", variant(F::parallel, T::jacobi), true});
  variants.push_back({"parallel/level_scheduled", variant(F::parallel, T::level_scheduled), false});
  variants.push_back({"auto", variant(F::automatic, T::automatic), true});
  for (const auto& m : matrices()) {
    for (const auto& v : variants) add("ilu0_setup/" + m + "/" + v.label, 1, bm_setup, m, v.options);
    add("spmv/" + m, 20, bm_spmv, m);
    for (const auto& v : variants)
      if (v.apply) add("ilu0_apply/" + m + "/" + v.label, 20, bm_apply, m, v.options);
  }
  return true;
}();

}  // namespace
}  // namespace ppl::bench
