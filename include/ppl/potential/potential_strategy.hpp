#pragma once
// Direct Coulomb summation strategies: V(g) = sum_a q_a / |r_g - r_a| (raw e/A; units and permittivity are applied
// by the job afterwards). One interface, one registry (src/potential/register.cpp): the registry name is the config
// value `strategy`, the test parameter, the benchmark label and the Kokkos profiling region
// "ppl::potential[<name>]".
//
// Singularity rule (all strategies, the reference too): an atom closer than 1e-4 A to a lattice point (r^2 < 1e-8 A^2)
// contributes nothing to that point, so no Inf/NaN can appear; the exclusion radius of the job is applied after.
#include <Kokkos_Core.hpp>
#include <functional>
#include <memory>
#include <string>

#include "ppl/core/config.hpp"
#include "ppl/core/registry.hpp"
#include "ppl/potential/atoms.hpp"
#include "ppl/potential/lattice.hpp"

namespace ppl {

constexpr double coincidence_radius2 = 1e-8;  // A^2; see the singularity rule above

struct atom4 {
  float x, y, z, q;  // position relative to the lattice origin, charge
};

// Atoms on the device, shifted by -origin in float64 before rounding to float32.
struct device_atoms {
  Kokkos::View<atom4*> data;
  Kokkos::View<atom4*, Kokkos::HostSpace> host;  // same contents, for strategies that stage through host/constant memory
  std::size_t size() const { return data.extent(0); }
};
device_atoms to_device(const atoms& a, const lattice& g);

// Lattice values, x fastest (lattice::index), float32 on the default memory space.
using potential_view = Kokkos::View<float*>;

class potential_strategy {
 public:
  virtual ~potential_strategy() = default;
  // Overwrites `out` (size g.size()) with the potential of `a` on `g`. `host_atoms` is the float64 original
  // (used by host strategies such as the reference). Must fence before returning.
  virtual void compute(const atoms& host_atoms, const device_atoms& a, const lattice& g, potential_view out) = 0;
  // Pair evaluations done for this lattice and atom count (for atom-evaluations/s).
  virtual double evaluations(std::size_t n_atoms, const lattice& g) const {
    return double(n_atoms) * double(g.size());
  }
};

// `params` is the strategy's own parameter map (may be empty); a factory reads what it needs from it, so unknown
// parameters are reported by the config check.
using potential_factory = std::function<std::unique_ptr<potential_strategy>(const config_node* params)>;
using potential_registry = registry<potential_factory>;
const potential_registry& potential_strategies();

}  // namespace ppl
