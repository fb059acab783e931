#pragma once
// Potential-map strategies: V(g) = sum_a term(q_a, |r_g - r_a|) on a lattice, for the pair interaction the job
// chose (interaction.hpp; raw e/A: units and permittivity are applied by the job afterwards). One interface, one
// registry (src/potential/register.cpp): the registry name is the config value `strategy`, the test parameter, the
// benchmark label and the Kokkos profiling region "ppl::potential[<name>]". Each entry declares the interaction
// kinds it supports (its `capabilities`), "periodic" for periodic lattices and "z_slab" when its kernels compute a
// slab of planes (lattice::first_plane) with the same float arithmetic as the whole lattice.
//
// Two phases, in the spirit of Cabana's linked-cell lists: prepare(problem) -> plan does everything that depends
// only on the atoms, the lattice and the interaction (staging atoms on the device, binning, offset lists) and is
// timed on its own; compute(space, plan, out, mode) evaluates the map on an execution space of the build
// (ppl/core/execution.hpp: the default space, or Kokkos::Serial beside a host default), overwriting `out` or adding
// to it (ion placement adds and removes single charges on an existing map). A plan may be computed many times, on
// any of the build's spaces. Parameters are typed structs (ppl/potential/strategies.hpp).
//
// Singularity rule (all strategies, the references too): an atom closer than 1e-4 A to a lattice point (r^2 < 1e-8 A^2)
// contributes nothing to that point, so no Inf/NaN can appear; the exclusion radius of the job is applied after.
#include <Kokkos_Core.hpp>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ppl/core/device_buffers.hpp"
#include "ppl/core/execution.hpp"
#include "ppl/core/parameters.hpp"
#include "ppl/core/registry.hpp"
#include "ppl/io/atoms.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/spatial/lattice.hpp"
#include "ppl/spatial/point_charges.hpp"

namespace ppl {

constexpr double coincidence_radius2 = 1e-8;  // A^2; see the singularity rule above

// Lattice values, x fastest (lattice::index), float32 on the default memory space.
using potential_view = Kokkos::View<float*>;

// What a map is of. The atoms are read during prepare() only; a plan keeps what it needs.
struct potential_problem {
  const atoms& input;
  lattice grid;
  interaction physics;
};

enum class write_mode { overwrite, accumulate };

// A strategy's prepared state. The base holds what every plan knows; strategies derive their own.
class potential_plan {
 public:
  potential_plan(const potential_problem& p) : grid(p.grid), physics(p.physics), atom_count(p.input.size()) {}
  virtual ~potential_plan() = default;
  lattice grid;
  interaction physics;
  std::size_t atom_count;
  // Pairs the kernels evaluate per compute (atom-evaluations/s); direct summation: atoms x points.
  virtual double pairs_examined() const { return double(atom_count) * double(grid.size()); }
  // Pairs that lie within the cutoff (cutoff strategies; 0 when not counted): work efficiency = within / examined.
  virtual double pairs_within() const { return 0.0; }
  // Atom-point pairs the kernels bring in before any per-atom skip test (the binning lecture's work-efficiency
  // denominator: every atom of the neighbourhood's bins with every point of the region); at least pairs_examined().
  virtual double pairs_loaded() const { return pairs_examined(); }
  // What the plan and its last compute did, as named numbers for the job's summary (bins, overflow atoms, the host
  // and device split of a compute); empty for the direct strategies.
  virtual std::vector<std::pair<std::string, double>> breakdown() const { return {}; }
};

class potential_strategy {
 public:
  virtual ~potential_strategy() = default;
  // At configuration time (`ppl validate`, before any work): throws input_error when prepare() could not succeed,
  // e.g. bins or offset lists that would not fit the device memory (saying how much they need and how much
  // there is). The default accepts every problem.
  virtual void check(const potential_problem& /*p*/) const {}
  virtual std::unique_ptr<potential_plan> prepare(const potential_problem& p) const = 0;
  // Writes (overwrite) or adds (accumulate) the map of the plan's atoms into `out` (size plan.grid.size()) with
  // kernels on `space`, using the plan made by this strategy's prepare(). Fences `space` before returning.
  // CUDA-only strategies run on the default space only (ppl::error otherwise).
  virtual void compute(const execution& space, const potential_plan& plan, potential_view out,
                       write_mode mode) const = 0;
  void compute(const potential_plan& plan, potential_view out, write_mode mode) const {
    compute(execution(), plan, out, mode);
  }
};

// A registry factory: the strategy's parameters by name (absent ones keep their defaults), converted to its struct
// and checked (from_values); parameter_error names a bad one.
using potential_factory = std::function<std::unique_ptr<potential_strategy>(const parameter_values& params)>;
using potential_registry = registry<potential_factory>;
const potential_registry& potential_strategies();

// Making a strategy by name (job, tests, benchmarks): looks `name` up (errors name `where`), checks that it
// supports `physics` (else an input error that lists the strategies that do) and runs its factory on `params`
// (parameter_error for an undeclared or bad one). The typed factories (strategies.hpp) skip the lookup.
// `periodic`: the lattice is a periodic box (lattice::periodic), which needs the capability "periodic".
std::unique_ptr<potential_strategy> make_potential_strategy(const std::string& name, const parameter_values& params,
                                                            const interaction& physics, const std::string& where,
                                                            bool periodic = false);

// Capability names of the potential registry: the interaction kinds (config_name(interaction_kind)), "periodic"
// and "z_slab".
bool supports(const potential_registry::entry& e, const interaction& physics, bool periodic = false);

}  // namespace ppl
