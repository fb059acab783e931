// The preconditioner seam (include/ppl/sparse/preconditioner.hpp): every solver runs any preconditioner class
// through apply / apply_transpose, and the shortcuts a solver takes (BiCGSTAB fusing a diagonal M into its updates,
// r standing in for z when M = I) give the same iterates as the plain applications.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "krylov_test_support.hpp"
#include "ppl/core/error.hpp"
#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl::test {
namespace {

// Wraps a preconditioner and hides its shortcuts (inverse_diagonal, is_identity), so solvers take their general
// path: apply() into a vector of its own. Counts the applications.
class plain_wrapper final : public preconditioner {
 public:
  plain_wrapper(std::unique_ptr<preconditioner> inner, int* applies, bool transpose = true)
      : inner_(std::move(inner)), applies_(applies), transpose_(transpose) {}
  std::string name() const override { return "plain_" + inner_->name(); }
  void apply(const execution& space, const_vector_view r, vector_view z) const override {
    ++*applies_;
    inner_->apply(space, r, z);
  }
  void apply_transpose(const execution& space, const_vector_view r, vector_view z) const override {
    if (!transpose_) return preconditioner::apply_transpose(space, r, z);
    ++*applies_;
    inner_->apply_transpose(space, r, z);
  }

 private:
  std::unique_ptr<preconditioner> inner_;
  int* applies_;
  bool transpose_;
};

solver_result solve_with(const std::string& method, const crs_matrix& A, const_vector_view b, solver_options o,
                         std::vector<double>* x_out = nullptr) {
  // `scalar`: its transpose product (an explicit, sorted A^T) sums in a fixed order; kokkos_kernels' "T" mode uses
  // atomics with 2 threads, so two runs would differ in the last bits.
  auto spmv = make_spmv_strategy("scalar");
  spmv->prepare(A);
  vector_view x("x", A.numRows());
  const auto r = make_solver(method, o)->solve(execution(), A, *spmv, b, x);
  if (x_out) *x_out = to_host_vector(x);
  return r;
}

class preconditioner_seam : public ::testing::TestWithParam<std::string> {
 protected:
  crs_matrix A = read_matrix_market(shared_matrix("2dcyl1.mtx"));
  vector_view b = [this] {
    std::mt19937_64 rng(99);
    return to_device_vector(random_vector(A.numRows(), rng));
  }();
};

// The general path with the Jacobi preconditioner reproduces the solver's own Jacobi path bit for bit (the fused
// kernels compute d_i * z_i as vec::multiply does), and applies M where the algorithm says. Two shortcuts round
// differently and are compared to 1e-9: BiCG's for M = I sums one dot in another order, and BiCGSTAB's Jacobi
// keeps only p_hat, updated as D^-1 (r - beta omega v) + beta p_hat instead of D^-1 of the updated p.
TEST_P(preconditioner_seam, general_path_matches_the_shortcut_for_jacobi_and_none) {
  for (const std::string kind : {"jacobi", "none"}) {
    solver_options o;
    o.max_iters = 20;
    o.preconditioner = kind;
    std::vector<double> x_short, x_plain;
    const auto shortcut = solve_with(GetParam(), A, b, o, &x_short);
    int applies = 0;
    o.custom_preconditioner = [&](const crs_matrix& M) {
      return std::make_unique<plain_wrapper>(make_preconditioner(kind, M), &applies);
    };
    const auto plain = solve_with(GetParam(), A, b, o, &x_plain);
    EXPECT_EQ(plain.iterations, shortcut.iterations) << kind;
    EXPECT_GE(applies, plain.iterations) << kind;
    if ((GetParam() == "bicg" && kind == "none") || (GetParam() == "bicgstab" && kind == "jacobi")) {
      // BiCG's shortcut takes rho = (r, r~) from its update kernel, the general path from a separate dots3 over
      // (z, r~); BiCGSTAB's forms p_hat without p. The same numbers in exact arithmetic, so close, not bitwise.
      ASSERT_EQ(plain.history.size(), shortcut.history.size());
      for (std::size_t k = 0; k < plain.history.size(); ++k)
        EXPECT_NEAR(plain.history[k], shortcut.history[k], 1e-9 * shortcut.history[k]) << k;
      double dx = 0, xx = 0;
      for (std::size_t i = 0; i < x_plain.size(); ++i) {
        dx = std::max(dx, std::fabs(x_plain[i] - x_short[i]));
        xx = std::max(xx, std::fabs(x_short[i]));
      }
      EXPECT_LE(dx, 1e-9 * xx) << kind;
      continue;
    }
    EXPECT_EQ(plain.history, shortcut.history) << kind;
    EXPECT_EQ(x_plain, x_short) << kind;
  }
}

INSTANTIATE_TEST_SUITE_P(solvers, preconditioner_seam, ::testing::ValuesIn(solvers().names()));

// The registry: every entry builds, its preconditioner bears its name and has the capabilities it declares, its
// declared parameters are the expected ones (none for none and jacobi; ilu0's four), its check accepts a good matrix,
// and it applies on every space it claims.
TEST(preconditioner_registry, entries_build_and_have_their_declared_capabilities) {
  const auto sys = make_convection_diffusion({4, 1, 1.0, 1.0});
  EXPECT_EQ(preconditioners().names(), (std::vector<std::string>{"none", "jacobi", "ilu0"}));
  const auto r = to_host_vector(sys.b);
  for (const auto& e : preconditioners().entries()) {
    const auto M = e.factory(sys.A, {});
    EXPECT_EQ(M->name(), e.name);
    EXPECT_EQ(M->is_identity(), e.can(precond_identity)) << e.name;
    EXPECT_EQ(M->inverse_diagonal().data() != nullptr, e.can(precond_diagonal)) << e.name;
    std::vector<std::string> declared, expected;
    for (const auto& p : e.parameters) declared.push_back(p.name);
    if (e.name == "ilu0") expected = {"factorization", "factor_sweeps", "triangular_solve", "solve_sweeps"};
    EXPECT_EQ(declared, expected) << e.name;
    if (e.check) e.check(to_host(sys.A));
    std::vector<double> z_default;
    for (const auto& space : execution::all()) {
      vector_view z("z", r.size());
      if (!space.is_default() && !e.can(precond_every_space)) {
        EXPECT_THROW(M->apply(space, sys.b, z), error) << e.name << " on " << space.name();
        continue;
      }
      M->apply(space, sys.b, z);
      if (e.can(precond_transpose)) M->apply_transpose(space, sys.b, z);
      space.fence();
      if (z_default.empty())
        z_default = to_host_vector(z);
      else
        EXPECT_EQ(to_host_vector(z), z_default) << e.name << " on " << space.name();
    }
  }
  EXPECT_EQ(make_preconditioner("jacobi", sys.A)->inverse_diagonal().extent(0), std::size_t(sys.A.numRows()));
  const auto msg = ppl_test::error_of<input_error>([&] { make_preconditioner("ilut", sys.A); });
  EXPECT_NE(msg.find("unknown preconditioner 'ilut'; available in this build: none, jacobi, ilu0"), std::string::npos)
      << msg;
}

// The configuration-time checks name the first row the set-up would refuse (1-based), as the set-up does.
TEST(preconditioner_registry, checks_name_the_first_bad_row) {
  struct bad {
    std::string precond;
    std::vector<std::vector<double>> A;
    std::string expect;
  };
  for (const auto& c : std::vector<bad>{
           {"jacobi",
            {{2, 0, 0}, {0, 0, 1}, {0, 1, 2}},
            "row 2 (1-based) has no diagonal entry; preconditioner: jacobi"},
           {"ilu0", {{2, 0, 0}, {0, 0, 1}, {0, 1, 2}}, "row 2 (1-based) has no diagonal entry; preconditioner: ilu0"},
           {"ilu0", {{1, 1}, {1, 1}}, "row 2 (1-based) has a zero pivot in the ILU(0) factorisation"}}) {
    const host_csr A = csr_from_dense(c.A);
    const auto* e = preconditioners().find(c.precond);
    ASSERT_NE(e, nullptr);
    ASSERT_TRUE(e->check) << c.precond;
    const auto msg = ppl_test::error_of<input_error>([&] { e->check(A); });
    EXPECT_NE(msg.find(c.expect), std::string::npos) << msg;
    EXPECT_THROW(e->factory(to_device(A), {}), input_error) << c.precond;  // the set-up refuses the same matrix
  }
  EXPECT_FALSE(preconditioners().find("none")->check);
}

// BiCG needs M^-T: a preconditioner without it is refused by name, as an input error.
TEST(preconditioner_seam_names, bicg_refuses_a_preconditioner_without_a_transpose) {
  const auto sys = make_convection_diffusion({4, 1, 1.0, 1.0});
  solver_options o;
  int applies = 0;
  o.custom_preconditioner = [&](const crs_matrix& M) {
    return std::make_unique<plain_wrapper>(make_preconditioner("jacobi", M), &applies, false);
  };
  const auto msg = ppl_test::error_of<input_error>([&] { solve_with("bicg", sys.A, sys.b, o); });
  EXPECT_NE(msg.find("preconditioner 'plain_jacobi' has no transpose application"), std::string::npos) << msg;
  EXPECT_TRUE(is_converged(solve_with("bicgstab", sys.A, sys.b, o).outcome));
}

}  // namespace
}  // namespace ppl::test
