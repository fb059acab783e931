#pragma once
// A prepared potential map for the Python module: the strategy (named or auto), its plan over the atoms and lattice,
// the units, and the buffers a trajectory's frames are combined in on the device. Positions may change between
// computes (the plan is prepared again, with the same strategy and buffers); the charges stay.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <memory>
#include <string>

#include "bindings.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl::python {

// The strategy a call asked for ("auto" or a registry name with its parameters), made for the problem.
struct made_strategy {
  std::unique_ptr<potential_strategy> strategy;
  std::string requested, name, parameters_yaml, reason;
  interaction pair;  // auto may compute Coulomb by MSM
};
made_strategy make_strategy(const atoms& a, const lattice& g, const interaction& pair, const std::string& strategy,
                            const parameter_values& params, double tolerance);

class map_plan : live_object {
 public:
  map_plan(atoms a, const lattice& g, const interaction& pair, const std::string& strategy,
           const parameter_values& params, const physics_options& physics, double tolerance);

  // New positions (N, 3): the plan is prepared again before the next compute.
  void move(const py::handle& positions);
  // The raw map (e/A, vacuum) into `out` (the lattice's size, default memory space), overwriting or adding.
  void compute_raw(potential_view out, write_mode mode);
  // This frame combined into the plan's accumulator: sum (mean), min or max.
  void add_frame(const std::string& combine);
  // The combination so far in the plan's units (mean: the sum over the frames' count), into `out`.
  void combined(potential_view out) const;

  const lattice& grid() const { return grid_; }
  const atoms& input() const { return atoms_; }
  const physics_options& physics() const { return physics_; }
  const made_strategy& strategy() const { return made_; }
  const potential_plan& plan() const { return *plan_; }
  double setup_seconds = 0, compute_seconds = 0;
  int frames = 0;
  std::string combine;
  void reset_frames() { frames = 0, combine.clear(); }

 private:
  void prepare();
  atoms atoms_;
  lattice grid_;
  physics_options physics_;
  made_strategy made_;
  std::unique_ptr<potential_plan> plan_;
  bool stale_ = false;
  potential_view accumulator_, frame_;
};

// The unit scale (and nothing else: no exclusion radius) applied on the device: out = float(double(out) x s).
void scale_on_device(potential_view v, double s);

}  // namespace ppl::python
