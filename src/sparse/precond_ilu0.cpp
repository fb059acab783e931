// `ilu0`: M = L U, the ILU(0) factorisation of A (include/ppl/sparse/ilu0.hpp), exact (Kokkos Kernels' spiluk) or
// by parallel fixed-point sweeps, with level-scheduled, sequential or Jacobi-sweep triangular solves: declared
// parameters, `auto` choosing by the build's memory (docs/solver.md, "ILU(0)"). BiCG's M^-T products solve with the
// transposed factors, built on its first transpose application. The solves run on the default execution space only
// (Kokkos Kernels 3.4's sptrsv takes no execution space instance): another space is a ppl::error.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <string>

#include "ppl/core/error.hpp"
#include "ppl/sparse/ilu0.hpp"
#include "preconditioners.hpp"

namespace ppl::precond_detail {
namespace {

struct ilu0_params {
  std::string factorization = "auto";
  int factor_sweeps = 3;
  std::string triangular_solve = "auto";
  int solve_sweeps = 2;
  static const parameter_fields<ilu0_params>& fields();
};

const parameter_fields<ilu0_params>& ilu0_params::fields() {
  static const auto f =
      parameter_fields<ilu0_params>()
          .choice("factorization", &ilu0_params::factorization, {"auto", "exact", "parallel"},
                  "exact: Kokkos Kernels' spiluk, level by level; parallel: fixed-point sweeps over all entries at "
                  "once (Chow & Patel); auto: on a GPU parallel, or exact where the sweeps leave A - LU on A's pattern "
                  "above 0.1 of A in the Frobenius norm; exact on the host")
          .integer("factor_sweeps", &ilu0_params::factor_sweeps, 0, 10000,
                   "sweeps of the parallel factorisation, each one launch over all entries (a row of L merged with a "
                   "column of U per entry); exact ignores it")
          .choice("triangular_solve", &ilu0_params::triangular_solve,
                  {"auto", "level_scheduled", "sequential", "jacobi"},
                  "level_scheduled: sptrsv, a launch per level; sequential: a host loop (host builds); jacobi: "
                  "solve_sweeps Jacobi sweeps per factor; auto: on a GPU jacobi, or level_scheduled where the last "
                  "sweep of a probe solve raises its residual; on the host sequential or level_scheduled by the "
                  "thread rule")
          .integer("solve_sweeps", &ilu0_params::solve_sweeps, 0, 10000,
                   "Jacobi sweeps per triangular factor after x = D^-1 b (each a half SpMV); other solves ignore it");
  return f;
}

ilu0_options options_of(const ilu0_params& p) {
  ilu0_options o;
  o.factorization = p.factorization == "exact"      ? ilu0_factorization_method::exact
                    : p.factorization == "parallel" ? ilu0_factorization_method::parallel
                                                    : ilu0_factorization_method::automatic;
  o.solve = p.triangular_solve == "level_scheduled" ? ilu0_triangular_solve::level_scheduled
            : p.triangular_solve == "sequential"    ? ilu0_triangular_solve::sequential
            : p.triangular_solve == "jacobi"        ? ilu0_triangular_solve::jacobi
                                                    : ilu0_triangular_solve::automatic;
  o.factor_sweeps = p.factor_sweeps;
  o.solve_sweeps = p.solve_sweeps;
  return o;
}

void require_default_space(const execution& space) {
  if (!space.is_default())
    throw error(exit_code::failure, "preconditioner 'ilu0' runs only on the default execution space (" +
                                        execution().name() + "), not on " + space.name());
}

class ilu0 final : public preconditioner {
 public:
  ilu0(const crs_matrix& A, const ilu0_options& o) : f_(A, o) {}
  std::string name() const override { return "ilu0"; }
  std::string describe() const override {
    const auto& s = f_.stats();
    char residual[32];
    std::snprintf(residual, sizeof residual, "%.2g", s.factor_residual);
    std::string factors =
        s.factorization == ilu0_factorization_method::parallel
            ? "parallel factors (" + std::to_string(s.factor_sweeps) + " sweeps, residual " + residual + ")"
            : "exact factors";
    if (s.factorization_fell_back)
      factors += " (auto: the parallel sweeps left a residual of " + std::string(residual) + ")";
    std::string solves = s.solve == ilu0_triangular_solve::jacobi
                             ? "jacobi solves (" + std::to_string(s.solve_sweeps) + " sweeps)"
                         : s.solve == ilu0_triangular_solve::level_scheduled ? "level_scheduled solves"
                                                                             : "sequential solves";
    if (s.solve_fell_back) solves += " (auto: jacobi sweeps grew the residual)";
    return "ilu0: " + factors + ", " + solves;
  }
  void apply(const execution& space, const_vector_view r, vector_view z) const override {
    require_default_space(space);
    f_.apply(r, z);
  }
  void apply_transpose(const execution& space, const_vector_view r, vector_view z) const override {
    require_default_space(space);
    f_.apply_transpose(r, z);
  }

 private:
  ilu0_factorization f_;
};

std::unique_ptr<preconditioner> make_ilu0(const crs_matrix& A, const ilu0_params& p) {
  ilu0_params::fields().check(p);
  auto M = std::make_unique<ilu0>(A, options_of(p));
  Kokkos::fence();
  return M;
}

}  // namespace

preconditioner_registry::entry ilu0_entry() {
  return preconditioner_registry::entry::named("ilu0")
      .with_description(
          "M = L U, incomplete LU without fill-in (exact by Kokkos Kernels spiluk or by parallel sweeps; sptrsv, a "
          "host loop or Jacobi sweeps for the solves)")
      .with_backends("all")
      .with_factory(preconditioner_from_values<ilu0_params>(make_ilu0))
      .with_capabilities({precond_transpose})
      .with_parameters(ilu0_params::fields().space())
      .with_check(ilu0_check);
}

}  // namespace ppl::precond_detail
