// Every registered solver with `preconditioner: ilu0` on 2dcyl1, ani4 and a generated system: converged, with the
// TRUE residual recomputed on the host in float64; BiCGSTAB's count within the band of an independent host
// BiCGSTAB right-preconditioned with the host ILU(0) (tests/sparse/host_ilu0.hpp), and below BiCGSTAB + Jacobi's.
// The same for the parallel factors with Jacobi solves (against host sweeps), and BiCGSTAB with each ILU(0) variant
// on the hard systems: a convection-dominated generated one (Peclet 1000) and nsjac (a Navier-Stokes Jacobian).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/ilu0.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "ppl/sparse/spmv_strategy.hpp"
#include "sparse/host_ilu0.hpp"
#include "sparse/host_krylov.hpp"
#include "sparse/krylov/krylov_test_support.hpp"

namespace ppl::test {
namespace {

struct ilu_system {
  crs_matrix A;
  host_csr A_host;
  std::vector<double> b;
};

// b = A x* with a fixed pseudo-random x* for the files (as tests/sparse/krylov/test_solvers.cpp), the generator's
// manufactured b otherwise. Built once per process.
const ilu_system& system_named(const std::string& name) {
  static std::map<std::string, ilu_system> cache;
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  ilu_system s;
  if (name == "cd27_pe10" || name == "cd27_pe1000") {
    convection_diffusion_params p;
    p.n = name == "cd27_pe10" ? 12 : 16;  // mesh Peclet numbers 0.4 and 31
    p.peclet = name == "cd27_pe10" ? 10.0 : 1000.0;
    auto g = make_convection_diffusion(p);
    s.A = g.A;
    s.b = to_host_vector(g.b);
  } else {
    s.A = read_matrix_market(shared_matrix(name + ".mtx"));
    std::mt19937_64 rng(4242);
    s.b = host_spmv(to_host(s.A), random_vector(s.A.numRows(), rng));
  }
  s.A_host = to_host(s.A);
  return cache.emplace(name, std::move(s)).first->second;
}
struct release : ::testing::Environment {
  void TearDown() override {
    // Device views must go before Kokkos::finalize: drop the cached systems' matrices.
    for (const char* n : {"2dcyl1", "ani4", "cd27_pe10", "cd27_pe1000", "nsjac"})
      const_cast<ilu_system&>(system_named(n)).A = crs_matrix();
  }
};
[[maybe_unused]] auto* const release_env = ::testing::AddGlobalTestEnvironment(new release);

// Textbook right-preconditioned BiCGSTAB on the host (x0 = 0, r_hat = b; as oracle::bicgstab but with any M^-1),
// stopping on the recursive residual <= rtol ||b||. Returns the iterations, -1 without convergence.
int host_bicgstab(const host_csr& A, const std::vector<double>& b, double rtol, int max_iters,
                  const std::function<std::vector<double>(const std::vector<double>&)>& Minv) {
  const std::size_t n = b.size();
  std::vector<double> x(n, 0.0), r = b, rhat = b, p(n, 0.0), v(n, 0.0), s(n);
  const double bnorm = std::sqrt(oracle::dot(b, b));
  double rho = 1, alpha = 1, omega = 1;
  for (int it = 1; it <= max_iters; ++it) {
    const double rho_new = oracle::dot(rhat, r);
    const double beta = (rho_new / rho) * (alpha / omega);
    rho = rho_new;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
    const auto ph = Minv(p);
    v = oracle::multiply(A, ph);
    alpha = rho / oracle::dot(rhat, v);
    for (std::size_t i = 0; i < n; ++i) s[i] = r[i] - alpha * v[i];
    const auto sh = Minv(s);
    const auto t = oracle::multiply(A, sh);
    omega = oracle::dot(t, s) / oracle::dot(t, t);
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * ph[i] + omega * sh[i];
    for (std::size_t i = 0; i < n; ++i) r[i] = s[i] - omega * t[i];
    if (std::sqrt(oracle::dot(r, r)) <= rtol * bnorm) return it;
    if (!std::isfinite(rho) || !std::isfinite(alpha) || !std::isfinite(omega)) return -1;
  }
  return -1;
}

// The ILU(0) variants by name: `exact`, `exact_level_scheduled` (the host oracle's operator on every backend:
// a GPU's `automatic` would solve by Jacobi sweeps) and `parallel` (Jacobi solves) through the registry's parameters,
// `gpu_auto` through ilu0_options::automatic_as_gpu (what `auto` chooses on a GPU, with its checks and fallbacks).
const parameter_values& variant_parameters(const std::string& variant) {
  static const std::map<std::string, parameter_values> v = {
      {"exact", {{"factorization", std::string("exact")}}},
      {"exact_level_scheduled",
       {{"factorization", std::string("exact")}, {"triangular_solve", std::string("level_scheduled")}}},
      {"parallel", {{"factorization", std::string("parallel")}, {"triangular_solve", std::string("jacobi")}}}};
  return v.at(variant);
}

class ilu0_variant final : public preconditioner {
 public:
  ilu0_variant(const crs_matrix& A, const ilu0_options& o) : f(A, o) {}
  std::string name() const override { return "ilu0"; }
  void apply(const execution&, const_vector_view r, vector_view z) const override { f.apply(r, z); }
  ilu0_factorization f;
};

solver_result solve(const std::string& method, const ilu_system& s, const std::string& pc, std::vector<double>& x,
                    const std::string& variant = "") {
  solver_options o;
  o.rtol = 1e-8;
  o.max_iters = 5000;
  o.preconditioner = pc;
  if (variant == "gpu_auto") {
    o.custom_preconditioner = [](const crs_matrix& A) {
      ilu0_options io;
      io.automatic_as_gpu = true;
      return std::make_unique<ilu0_variant>(A, io);
    };
  } else if (!variant.empty()) {
    o.preconditioner_params = variant_parameters(variant);
  }
  auto spmv = make_spmv_strategy("kokkos_kernels");
  spmv->prepare(s.A);
  vector_view xd("x", s.A.numRows());
  const auto r = make_solver(method, o)->solve(execution(), s.A, *spmv, to_device_vector(s.b), xd);
  x = to_host_vector(xd);
  return r;
}

class ilu0_solve : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(ilu0_solve, converges_to_the_true_residual) {
  const auto& [method, system] = GetParam();
  const auto& s = system_named(system);
  std::vector<double> x;
  const auto r = solve(method, s, "ilu0", x);
  ASSERT_TRUE(is_converged(r.outcome)) << to_string(r.outcome) << " after " << r.iterations << " iterations";
  // The host recomputation; 1e-10 of slack covers its own rounding on these systems (test_solvers.cpp bounds it).
  EXPECT_LE(host_relative_residual(s.A_host, s.b, x), 1e-8 + 1e-10);
  EXPECT_GT(r.times.precond_setup, 0.0);
  RecordProperty("iterations", r.iterations);
  std::printf("  %s + ilu0 on %s: %d iterations\n", method.c_str(), system.c_str(), r.iterations);
}

std::string param_name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(all, ilu0_solve,
                         ::testing::Combine(::testing::ValuesIn(solvers().names()),
                                            ::testing::Values("2dcyl1", "ani4", "cd27_pe10")),
                         param_name);

// BiCGSTAB + ILU(0) against the host BiCGSTAB + host ILU(0) (band as in test_solvers.cpp: max(3, 20%)), and fewer
// iterations than BiCGSTAB + Jacobi on the two real matrices.
TEST(ilu0_bicgstab, matches_the_host_oracle_and_beats_jacobi) {
  for (const std::string name : {"2dcyl1", "ani4"}) {
    const auto& s = system_named(name);
    const auto f = oracle::ilu0(s.A_host);
    const int oracle_its = host_bicgstab(s.A_host, s.b, 1e-8, 5000, [&](const std::vector<double>& v) {
      return oracle::triangular_solve(f.U, oracle::triangular_solve(f.L, v, true, true), false, false);
    });
    ASSERT_GT(oracle_its, 0) << name;
    std::vector<double> x;
    const auto ilu = solve("bicgstab", s, "ilu0", x, "exact_level_scheduled");  // the oracle's operator
    const auto jac = solve("bicgstab", s, "jacobi", x);
    ASSERT_TRUE(is_converged(ilu.outcome) && is_converged(jac.outcome)) << name;
    std::printf("  %s: BiCGSTAB + ILU(0) %d iterations (host oracle %d), + Jacobi %d\n", name.c_str(), ilu.iterations,
                oracle_its, jac.iterations);
    EXPECT_LE(std::abs(ilu.iterations - oracle_its), std::max(3, oracle_its / 5)) << name;
    EXPECT_LT(ilu.iterations, jac.iterations) << name;
  }
}

// Host BiCGSTAB with the host Chow-Patel factors (3 sweeps) and host Jacobi solves (2 sweeps), the defaults of
// `factorization: parallel, triangular_solve: jacobi`: ppl's count within the band, and below BiCGSTAB + Jacobi's.
TEST(ilu0_parallel_bicgstab, matches_the_host_oracle_and_beats_jacobi) {
  for (const std::string name : {"2dcyl1", "ani4", "cd27_pe10"}) {
    const auto& s = system_named(name);
    const auto f = oracle::parallel_ilu0(s.A_host, 3);
    const int oracle_its = host_bicgstab(s.A_host, s.b, 1e-8, 5000, [&](const std::vector<double>& v) {
      return oracle::jacobi_triangular_solve(f.U, oracle::jacobi_triangular_solve(f.L, v, true, 2), false, 2);
    });
    ASSERT_GT(oracle_its, 0) << name;
    std::vector<double> x;
    const auto ilu = solve("bicgstab", s, "ilu0", x, "parallel");
    ASSERT_TRUE(is_converged(ilu.outcome)) << name << ": " << to_string(ilu.outcome);
    EXPECT_LE(host_relative_residual(s.A_host, s.b, x), 1e-8 + 1e-10) << name;
    const auto jac = solve("bicgstab", s, "jacobi", x);
    std::printf("  %s: BiCGSTAB + ILU(0) parallel/jacobi %d iterations (host oracle %d), + Jacobi %d\n", name.c_str(),
                ilu.iterations, oracle_its, jac.iterations);
    EXPECT_LE(std::abs(ilu.iterations - oracle_its), std::max(3, oracle_its / 5)) << name;
    EXPECT_LT(ilu.iterations, jac.iterations) << name;
  }
}

// Every solver with the parallel factors and Jacobi solves on the easy systems (BiCG through apply_transpose).
TEST(ilu0_parallel_solvers, every_solver_converges_to_the_true_residual) {
  for (const auto& method : solvers().names())
    for (const std::string name : {"2dcyl1", "ani4", "cd27_pe10"}) {
      const auto& s = system_named(name);
      std::vector<double> x;
      const auto r = solve(method, s, "ilu0", x, "parallel");
      EXPECT_TRUE(is_converged(r.outcome)) << method << " on " << name << ": " << to_string(r.outcome);
      EXPECT_LE(host_relative_residual(s.A_host, s.b, x), 1e-8 + 1e-10) << method << " on " << name;
      std::printf("  %s + ilu0 parallel on %s: %d iterations\n", method.c_str(), name.c_str(), r.iterations);
    }
}

// BiCGSTAB with each variant converges to the true residual; on the hard systems the parallel paths diverge (below)
// and only `exact` and `gpu_auto` (which falls back to it) are run.
class ilu0_variants : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(ilu0_variants, bicgstab_converges_to_the_true_residual) {
  const auto& [variant, system] = GetParam();
  const auto& s = system_named(system);
  std::vector<double> x;
  const auto r = solve("bicgstab", s, "ilu0", x, variant);
  ASSERT_TRUE(is_converged(r.outcome)) << to_string(r.outcome) << " after " << r.iterations << " iterations";
  EXPECT_LE(host_relative_residual(s.A_host, s.b, x), 1e-8 + 1e-10);
  RecordProperty("iterations", r.iterations);
  std::printf("  bicgstab + ilu0 %s on %s: %d iterations\n", variant.c_str(), system.c_str(), r.iterations);
}

std::string variant_name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(easy, ilu0_variants,
                         ::testing::Combine(::testing::Values("exact", "parallel", "gpu_auto"),
                                            ::testing::Values("2dcyl1", "ani4", "cd27_pe10")),
                         variant_name);
INSTANTIATE_TEST_SUITE_P(hard, ilu0_variants,
                         ::testing::Combine(::testing::Values("exact", "gpu_auto"),
                                            ::testing::Values("cd27_pe1000", "nsjac")),
                         variant_name);

// What `auto` does on a GPU: where the parallel paths precondition (the easy systems) it keeps them; on the hard
// systems its checks see the sweeps diverge (factors: ||A - L U|| above ilu0_parallel_residual_limit; solves: a
// last sweep that raises the probe's residual) and it falls back to the exact factors and level-scheduled solves.
// Forced, the parallel paths do not converge there (BiCGSTAB stops with a growing residual), which is why.
TEST(ilu0_hard_systems, automatic_falls_back_where_the_parallel_paths_diverge) {
  ilu0_options o;
  o.automatic_as_gpu = true;
  for (const std::string name : {"2dcyl1", "ani4", "cd27_pe10"}) {
    const ilu0_factorization f(system_named(name).A, o);
    EXPECT_EQ(f.stats().factorization, ilu0_factorization_method::parallel) << name;
    EXPECT_EQ(f.stats().solve, ilu0_triangular_solve::jacobi) << name;
    EXPECT_LE(f.stats().factor_residual, ilu0_parallel_residual_limit) << name;
  }
  for (const std::string name : {"cd27_pe1000", "nsjac"}) {
    const auto& s = system_named(name);
    const ilu0_factorization f(s.A, o);
    const auto& st = f.stats();
    std::printf("  %s: parallel residual %.3g, Jacobi last-sweep ratios L %.3g U %.3g\n", name.c_str(),
                st.factor_residual, st.jacobi_ratio_L, st.jacobi_ratio_U);
    EXPECT_TRUE(st.factorization_fell_back) << name;
    EXPECT_GT(st.factor_residual, ilu0_parallel_residual_limit) << name;
    EXPECT_EQ(st.factorization, ilu0_factorization_method::exact) << name;
    EXPECT_TRUE(st.solve_fell_back) << name;
    EXPECT_EQ(st.solve, ilu0_triangular_solve::level_scheduled) << name;
    std::vector<double> x;
    const auto forced = solve("bicgstab", s, "ilu0", x, "parallel");
    const auto jac = solve("bicgstab", s, "jacobi", x);
    std::printf("  %s: BiCGSTAB + ILU(0) parallel/jacobi: %s after %d; + Jacobi: %s after %d\n", name.c_str(),
                to_string(forced.outcome).c_str(), forced.iterations, to_string(jac.outcome).c_str(), jac.iterations);
    EXPECT_FALSE(is_converged(forced.outcome)) << name;
  }
}

}  // namespace
}  // namespace ppl::test
