// ppl as a library: a Coulomb potential map of random atoms checked against the float64 reference, then a BiCGSTAB
// + Jacobi solve of a generated convection-diffusion system, both with typed parameters and no job file.
#include <ppl/core/kokkos_session.hpp>
#include <ppl/potential/reference.hpp>
#include <ppl/potential/strategies.hpp>
#include <ppl/sparse/generators.hpp>
#include <ppl/sparse/krylov.hpp>
#include <ppl/sparse/spmv_strategy.hpp>

#include <cmath>
#include <cstdio>

int main(int argc, char** argv) {
  ppl::kokkos_session session(argc, argv);  // takes the --kokkos-* flags
  const ppl::execution space;                // the build's default execution space

  // The map: 2,000 random atoms on a 40 x 40 x 20 lattice, 0.5 A apart, 2 A of padding.
  const double lo[3] = {0, 0, 0}, hi[3] = {20, 20, 10};
  const ppl::atoms atoms = ppl::random_atoms(2000, lo, hi, -1.0, 1.0, 7);
  const ppl::lattice grid = ppl::lattice_around(atoms, 0.5, 2.0);
  const ppl::interaction coulomb = ppl::coulomb_interaction();
  ppl::gather_coalesced_params params;
  params.coarsening = 4;
  const auto strategy = ppl::make_gather_coalesced(params);
  const auto plan = strategy->prepare({atoms, grid, coulomb});
  ppl::potential_view map("map", grid.size());
  strategy->compute(space, *plan, map, ppl::write_mode::overwrite);
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), map);
  const std::vector<double> want = ppl::reference_potential(atoms, grid, coulomb);
  double d2 = 0, r2 = 0;
  for (std::size_t i = 0; i < want.size(); ++i) d2 += (got(i) - want[i]) * (got(i) - want[i]), r2 += want[i] * want[i];
  const double map_error = std::sqrt(d2 / r2);
  std::printf("map: %zu points, relative L2 error %.2e against float64\n", grid.size(), map_error);

  // The solve: 29^3 = 24,389 rows, 27 nonzeros per row, BiCGSTAB + Jacobi to 1e-10.
  ppl::convection_diffusion_params cd;
  cd.n = 30;
  const ppl::generated_system sys = ppl::make_convection_diffusion(cd);
  auto spmv = ppl::make_spmv_strategy("auto");
  spmv->prepare(sys.A);
  ppl::solver_options options;
  options.rtol = 1e-10;
  options.preconditioner = "jacobi";
  const auto solver = ppl::make_bicgstab(options);
  ppl::vector_view x("x", sys.A.numRows());
  const ppl::solver_result r = solver->solve(space, sys.A, *spmv, sys.b, x);
  std::printf("solve: %s in %d iterations, true residual %.2e\n", ppl::to_string(r.outcome).c_str(), r.iterations,
              r.true_residual);
  return map_error < 1e-5 && ppl::is_converged(r.outcome) && r.true_residual <= 1e-10 ? 0 : 1;
}
