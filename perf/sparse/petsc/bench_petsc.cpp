// PETSc side by side (docs/solver.md, perf/results/petsc-openmp): the same systems, right-hand sides and tolerance
// definition solved by PETSc's KSP (Debian's petsc-dev, 3.18) and by ppl, iterations and time per iteration of each.
//
// Systems: 2dcyl1 and ani4 from data/ with b = A x*, x*_i = 1 + sin(i/10)/2 (ppl's `rhs: manufactured` for a file),
// and generated convection-diffusion systems with the generator's manufactured b (`cd27_<n>`: 27 per row,
// `cd81_<n>`: 81 per row), built by ppl's generator in every process. x0 = 0, rtol 1e-8, atol 0: both sides stop
// when the (recursive) unpreconditioned residual is <= rtol ||b|| (PETSc: right preconditioning,
// KSP_NORM_UNPRECONDITIONED, so KSPConvergedDefault compares with ||b||), and ||b - A x|| / ||b|| is recomputed
// afterwards for both.
//
// PETSc: KSPBCGS + PCJACOBI, KSPBCGS + PCILU, KSPGMRES(30) + PCJACOBI and + PCILU (ILU(0), natural ordering, PETSc's
// defaults). On more than one MPI rank PCILU does not exist for MPIAIJ; the ILU rows then use PCBJACOBI with ILU(0)
// on each rank's block (PETSc's default sub-preconditioner), a different preconditioner, and say so.
// ppl: every registered solver with jacobi and ilu0, `auto` SpMV.
//
// One JSON object per line on stdout (rank 0). Each configuration is set up and solved `--repeats` times from
// scratch; the medians are reported. Modes: default both sides (run with 1 MPI rank), --petsc-only (any number of
// ranks), --ppl-only. perf/sparse/petsc_side_by_side.sh runs the one-core and all-core configurations.
#include <petscksp.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ppl/core/kokkos_session.hpp"
#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace {

constexpr double rtol = 1e-8;
constexpr int max_iters = 20000;

struct system {
  std::string name;
  ppl::host_csr A;
  std::vector<double> b;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

bool exists(const std::string& path) {
  return std::ifstream(path).good();
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

system make_system(const std::string& name, const std::string& data_dir) {
  system s;
  s.name = name;
  if (name.rfind("cd", 0) == 0) {
    ppl::convection_diffusion_params p;
    p.components = name.rfind("cd81_", 0) == 0 ? 3 : 1;
    p.n = std::stoi(name.substr(5));
    auto g = ppl::make_convection_diffusion(p);
    s.A = ppl::to_host(g.A);
    s.b = ppl::to_host(g.b);
  } else {
    // DIR/matrices/NAME.mtx.gz (data/), else DIR/NAME.mtx.gz (perf/sparse/freefem/generate.sh's folder); b from
    // NAME.rhs.mtx.gz beside it when there is one.
    const std::string in_data = data_dir + "/matrices/" + name,
                      stem = exists(in_data + ".mtx.gz") ? in_data : data_dir + "/" + name;
    s.A = ppl::read_matrix_market_host(stem + ".mtx.gz");
    if (exists(stem + ".rhs.mtx.gz")) {
      s.b = ppl::read_matrix_market_vector_host(stem + ".rhs.mtx.gz");
      if (static_cast<int>(s.b.size()) != s.A.rows) throw std::runtime_error(stem + ".rhs.mtx.gz: wrong length");
      return s;
    }
    std::vector<double> x(s.A.rows);
    for (int i = 0; i < s.A.rows; ++i) x[i] = 1.0 + 0.5 * std::sin(double(i) / 10.0);
    s.b.assign(s.A.rows, 0.0);
    for (int i = 0; i < s.A.rows; ++i)
      for (auto k = s.A.row_map[i]; k < s.A.row_map[i + 1]; ++k) s.b[i] += s.A.values[k] * x[s.A.entries[k]];
  }
  return s;
}

#define PPL_PETSC(call)                                                          \
  do {                                                                           \
    const PetscErrorCode ierr_ = (call);                                         \
    if (ierr_) throw std::runtime_error(std::string("PETSc error in ") + #call); \
  } while (0)

// One PETSc configuration, `repeats` times from scratch (matrix assembly excluded from the times).
nlohmann::json run_petsc(const system& s, const std::string& ksp_type, const std::string& pc_type, int repeats) {
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const PetscInt n = s.A.rows;
  // Contiguous blocks of rows, as PETSC_DECIDE would choose.
  const PetscInt lo = n * rank / size, hi = n * (rank + 1) / size;
  std::vector<PetscInt> ia(hi - lo + 1), ja;
  std::vector<PetscScalar> va;
  for (PetscInt i = lo; i < hi; ++i) {
    ia[i - lo] = static_cast<PetscInt>(ja.size());
    for (auto k = s.A.row_map[i]; k < s.A.row_map[i + 1]; ++k) {
      ja.push_back(s.A.entries[k]);
      va.push_back(s.A.values[k]);
    }
  }
  ia[hi - lo] = static_cast<PetscInt>(ja.size());
  Mat A;
  Vec b, x, r;
  PPL_PETSC(MatCreate(PETSC_COMM_WORLD, &A));
  PPL_PETSC(MatSetSizes(A, hi - lo, hi - lo, n, n));
  PPL_PETSC(MatSetType(A, MATAIJ));
  PPL_PETSC(MatSeqAIJSetPreallocationCSR(A, ia.data(), ja.data(), va.data()));
  PPL_PETSC(MatMPIAIJSetPreallocationCSR(A, ia.data(), ja.data(), va.data()));
  PPL_PETSC(MatCreateVecs(A, &x, &b));
  PPL_PETSC(VecDuplicate(b, &r));
  {
    PetscScalar* pb;
    PPL_PETSC(VecGetArray(b, &pb));
    for (PetscInt i = lo; i < hi; ++i) pb[i - lo] = s.b[i];
    PPL_PETSC(VecRestoreArray(b, &pb));
  }
  PetscReal bnorm;
  PPL_PETSC(VecNorm(b, NORM_2, &bnorm));
  const std::string pc_used = pc_type == "ilu" && size > 1 ? "bjacobi" : pc_type;
  std::vector<double> setup, solve, per_iter;
  PetscInt its = 0;
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  PetscReal true_res = 0;
  for (int rep = 0; rep < repeats; ++rep) {
    KSP ksp;
    PC pc;
    PPL_PETSC(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PPL_PETSC(KSPSetOperators(ksp, A, A));
    PPL_PETSC(KSPSetType(ksp, ksp_type.c_str()));
    if (ksp_type == KSPGMRES) PPL_PETSC(KSPGMRESSetRestart(ksp, 30));
    PPL_PETSC(KSPGetPC(ksp, &pc));
    PPL_PETSC(PCSetType(pc, pc_used.c_str()));
    // BiCG in PETSc preconditions from the left only; the stopping test is on the unpreconditioned residual either way.
    PPL_PETSC(KSPSetPCSide(ksp, ksp_type == KSPBICG ? PC_LEFT : PC_RIGHT));
    PPL_PETSC(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    PPL_PETSC(KSPSetTolerances(ksp, rtol, 0.0, 1e30, max_iters));
    PPL_PETSC(KSPSetInitialGuessNonzero(ksp, PETSC_FALSE));
    PPL_PETSC(KSPSetFromOptions(ksp));  // PETSc's own options (PETSC_OPTIONS) override the above
    PPL_PETSC(VecSet(x, 0.0));
    MPI_Barrier(PETSC_COMM_WORLD);
    double t0 = MPI_Wtime();
    PPL_PETSC(KSPSetUp(ksp));
    PPL_PETSC(PCSetUp(pc));
    MPI_Barrier(PETSC_COMM_WORLD);
    double t1 = MPI_Wtime();
    PPL_PETSC(KSPSolve(ksp, b, x));
    MPI_Barrier(PETSC_COMM_WORLD);
    const double t2 = MPI_Wtime();
    PPL_PETSC(KSPGetIterationNumber(ksp, &its));
    PPL_PETSC(KSPGetConvergedReason(ksp, &reason));
    setup.push_back(t1 - t0);
    solve.push_back(t2 - t1);
    per_iter.push_back(its ? (t2 - t1) / its : 0.0);
    PPL_PETSC(MatMult(A, x, r));
    PPL_PETSC(VecAYPX(r, -1.0, b));  // r = b - A x
    PPL_PETSC(VecNorm(r, NORM_2, &true_res));
    PPL_PETSC(KSPDestroy(&ksp));
  }
  PPL_PETSC(VecDestroy(&r));
  PPL_PETSC(VecDestroy(&x));
  PPL_PETSC(VecDestroy(&b));
  PPL_PETSC(MatDestroy(&A));
  const char* reason_name = KSPConvergedReasons[reason];
  return {{"side", "petsc"},
          {"system", s.name},
          {"rows", n},
          {"nnz", s.A.entries.size()},
          {"method", ksp_type == KSPGMRES ? "gmres(30)" : ksp_type},
          {"preconditioner", pc_used == "bjacobi" ? "bjacobi+ilu(0)"
                             : pc_used == "ilu"   ? "ilu(0)"
                                                  : pc_used},
          {"ranks", size},
          {"threads", 1},
          {"converged", reason > 0},
          {"reason", reason_name ? reason_name : "?"},
          {"iterations", its},
          {"setup_s", median(setup)},
          {"solve_s", median(solve)},
          {"per_iteration_ms", 1e3 * median(per_iter)},
          {"true_residual", true_res / bnorm}};
}

nlohmann::json run_ppl(const system& s, const std::string& method, const std::string& pc, int repeats) {
  const auto A = ppl::to_device(s.A);
  const auto b = ppl::to_device(s.b, "b");
  auto spmv =
      ppl::spmv_strategies().get(ppl::spmv_strategies().find("auto") ? "auto" : "kokkos_kernels", "spmv").factory({});
  spmv->prepare(A);
  ppl::solver_options o;
  o.rtol = rtol;
  o.max_iters = max_iters;
  o.preconditioner = pc;
  o.record_history = false;
  std::vector<double> setup, solve, per_iter;
  ppl::solver_result res;
  for (int rep = 0; rep < repeats; ++rep) {
    ppl::vector_view x("x", s.A.rows);
    res = ppl::make_solver(method, o)->solve(ppl::execution(), A, *spmv, b, x);
    setup.push_back(res.times.setup);
    solve.push_back(res.times.iterate + res.times.finish);
    per_iter.push_back(res.iterations ? res.times.iterate / res.iterations : 0.0);
  }
  return {{"side", "ppl"},
          {"system", s.name},
          {"rows", s.A.rows},
          {"nnz", s.A.entries.size()},
          {"method", method},
          {"preconditioner", pc},
          {"ranks", 1},
          {"threads", Kokkos::DefaultExecutionSpace().concurrency()},
          {"converged", ppl::is_converged(res.outcome)},
          {"reason", ppl::to_string(res.outcome)},
          {"iterations", res.iterations},
          {"setup_s", median(setup)},
          {"precond_setup_s", res.times.precond_setup},
          {"solve_s", median(solve)},
          {"per_iteration_ms", 1e3 * median(per_iter)},
          {"true_residual", res.true_residual}};
}

}  // namespace

int main(int argc, char** argv) {
  ppl::kokkos_session kokkos(argc, argv);
  PetscInitialize(&argc, &argv, nullptr, nullptr);
  int status = 0;
  try {
    bool petsc = true, ours = true;
    int repeats = 3;
    std::string systems = "2dcyl1,ani4,cd27_40,cd81_20", data_dir = "data", ksps = "bcgs,gmres", pcs = "jacobi,ilu",
                ppl_methods = "", ppl_pcs = "jacobi,ilu0";
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--help" || a == "-h") {
        std::printf(
            "bench_petsc [--systems LIST] [--repeats N] [--data DIR] [--ksp LIST] [--pc LIST] [--ppl-methods LIST]\n"
            "            [--ppl-pc LIST] [--petsc-only | --ppl-only]\n"
            "  PETSc's KSP (BCGS, GMRES(30); Jacobi, ILU(0)) beside ppl's solvers on the same systems, one JSON line\n"
            "  per configuration. LIST: comma-separated, of 2dcyl1, ani4 (Matrix Market files in DIR, default data)\n"
            "  and cd27_<n>, cd81_<n> (generated, n elements per side); default 2dcyl1,ani4,cd27_40,cd81_20. A name\n"
            "  is DIR/matrices/NAME.mtx.gz or DIR/NAME.mtx.gz, with b from NAME.rhs.mtx.gz beside it if present.\n"
            "  --ksp: PETSc KSP types (default bcgs,gmres; bicg too), --pc: jacobi, ilu (default both);\n"
            "  --ppl-methods: ppl's solvers (default all), --ppl-pc: jacobi, ilu0 (default both).\n"
            "  Repeats (default 3): set-up and solve from scratch each time; medians. Kokkos flags pass through;\n"
            "  PETSc options in PETSC_OPTIONS (e.g. -ksp_gmres_cgs_refinement_type refine_always) override ours.\n");
        PetscFinalize();
        return 0;
      }
      if (a == "--petsc-only")
        ours = false;
      else if (a == "--ppl-only")
        petsc = false;
      else if (a == "--repeats" && i + 1 < argc)
        repeats = std::max(1, std::atoi(argv[++i]));
      else if (a == "--systems" && i + 1 < argc)
        systems = argv[++i];
      else if (a == "--data" && i + 1 < argc)
        data_dir = argv[++i];
      else if (a == "--ksp" && i + 1 < argc)
        ksps = argv[++i];
      else if (a == "--pc" && i + 1 < argc)
        pcs = argv[++i];
      else if (a == "--ppl-methods" && i + 1 < argc)
        ppl_methods = argv[++i];
      else if (a == "--ppl-pc" && i + 1 < argc)
        ppl_pcs = argv[++i];
      else
        throw std::runtime_error("unknown argument " + a);
    }
    int rank = 0, size = 1;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    MPI_Comm_size(PETSC_COMM_WORLD, &size);
    if (ours && size > 1) throw std::runtime_error("ppl runs in one process: use --petsc-only with several ranks");
    for (const auto& name : split(systems)) {
      const auto s = make_system(name, data_dir);
      auto emit = [&](const nlohmann::json& j) {
        if (rank == 0) std::cout << j.dump() << std::endl;
      };
      if (petsc)
        for (const auto& ksp : split(ksps))
          for (const auto& pc : split(pcs)) emit(run_petsc(s, ksp, pc, repeats));
      if (ours)
        for (const auto& method : ppl_methods.empty() ? ppl::solvers().names() : split(ppl_methods))
          for (const auto& pc : split(ppl_pcs)) emit(run_ppl(s, method, pc, repeats));
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_petsc: " << e.what() << std::endl;
    status = 1;
  }
  PetscFinalize();
  return status;
}
