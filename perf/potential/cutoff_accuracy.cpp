// cutoff_accuracy: how far each cutoff map (truncated, cutcp, shifted at rc = 8, 12, 16 A) is from the full Coulomb
// sum, on real molecules; the table of docs/cutoff.md. Both maps are float64 on the host: the Coulomb sum by
// reference_potential (all pairs), the cutoff maps by cutoff_reference_potential (cell list, the oracle of the cutoff
// strategies), on a lattice around each molecule (1 A spacing, 5 A padding, Parboil's convention), raw e/A. Printed,
// per molecule x function x radius (a markdown table):
//   rel L2 all     ||V_cut - V|| / ||V|| over every point
//   rel L2 >= 3 A  the same over the points at least 3 A from every atom (outside the molecule's atoms, where a map
//                  is usually read: V there is not dominated by the nearest atom's q/r)
//   max err kT/e   max |V_cut - V| over every point in kT/e (x 560.47254, 298.15 K, vacuum: divide by a permittivity)
//   max err / max|V|  the same relative to the largest |V| of the map (at >= 3 A)
// Usage: cutoff_accuracy [--kokkos-threads=N] MOLECULE.pqr[.gz] ...
#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_session.hpp"
#include "ppl/spatial/lattice.hpp"
#include "ppl/potential/physics.hpp"
#include "ppl/potential/reference.hpp"

namespace {

constexpr double spacing = 1.0, padding = 5.0, near_atoms = 3.0;

void run(const std::string& path) {
  const auto t0 = std::chrono::steady_clock::now();
  const ppl::atoms a = ppl::read_pqr(path);
  const ppl::lattice g = ppl::lattice_around(a, spacing, padding);
  const std::vector<double> v = ppl::reference_potential(a, g);
  // Points at least 3 A from every atom: the job's exclusion code zeroes the others.
  std::vector<float> far(g.size(), 1.0f);
  ppl::physics_options excl;
  excl.exclusion_radius = near_atoms;
  ppl::apply_physics(excl, a, g, far.data());
  double norm_all = 0, norm_far = 0, max_far = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    norm_all += v[i] * v[i];
    if (far[i] != 0.0f) norm_far += v[i] * v[i], max_far = std::max(max_far, std::abs(v[i]));
  }
  const std::string name = std::filesystem::path(path).filename().string();
  for (const double rc : {8.0, 12.0, 16.0})
    for (const auto f : {ppl::cutoff_function::truncated, ppl::cutoff_function::cutcp, ppl::cutoff_function::shifted}) {
      const std::vector<double> c = ppl::cutoff_reference_potential(a, g, ppl::cutoff_interaction(rc, f));
      double err_all = 0, err_far = 0, max_err = 0, max_err_far = 0;
      for (std::size_t i = 0; i < g.size(); ++i) {
        const double d = c[i] - v[i];
        err_all += d * d;
        max_err = std::max(max_err, std::abs(d));
        if (far[i] != 0.0f) err_far += d * d, max_err_far = std::max(max_err_far, std::abs(d));
      }
      std::cout << fmt::format("| {} | {} | {:g} | {:.3f} | {:.3f} | {:.1f} | {:.1f} | {:.3f} |\n", name,
                               ppl::config_name(f), rc, std::sqrt(err_all / norm_all), std::sqrt(err_far / norm_far),
                               max_err * ppl::kT_per_e_factor, max_err_far * ppl::kT_per_e_factor,
                               max_err_far / max_far)
                << std::flush;
    }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cerr << fmt::format(
      "{}: {} atoms, lattice {} x {} x {} ({} points, {} at >= {} A from atoms), max |V| {:.1f} "
      "kT/e at >= {} A; {:.1f} s\n",
      name, a.size(), g.dims[0], g.dims[1], g.dims[2], g.size(), std::count(far.begin(), far.end(), 1.0f), near_atoms,
      max_far * ppl::kT_per_e_factor, near_atoms, seconds);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    ppl::kokkos_session kokkos(argc, argv);
    if (argc < 2) {
      std::cerr << "usage: cutoff_accuracy [--kokkos-threads=N] MOLECULE.pqr[.gz] ...\n";
      return 2;
    }
    std::cout << "| molecule | function | rc (A) | rel L2 all | rel L2 >= 3 A | max err kT/e | max err kT/e >= 3 A | "
                 "max err / max|V| >= 3 A |\n|---|---|---|---|---|---|---|---|\n";
    for (int i = 1; i < argc; ++i) run(argv[i]);
    return 0;
  } catch (const ppl::error& e) {
    std::cerr << "cutoff_accuracy: " << e.what() << "\n";
    return 2;
  }
}
