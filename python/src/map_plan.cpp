// The Python module's prepared maps (map_plan.hpp).
#include "map_plan.hpp"

#include "ppl/core/error.hpp"
#include "ppl/potential/strategy_choice.hpp"
#include "ppl/potential/verification.hpp"

namespace ppl::python {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

made_strategy make_strategy(const atoms& a, const lattice& g, const interaction& pair, const std::string& strategy,
                            const parameter_values& params, double tolerance) {
  made_strategy m;
  m.requested = strategy;
  if (strategy == "auto") {
    if (!params.empty())
      throw input_error(
          "strategy_params: need a named strategy; strategy='auto' chooses the strategy and its "
          "parameters");
    auto_strategy c = make_auto_strategy(a, g, pair, tolerance, "strategy");
    m.strategy = std::move(c.strategy);
    m.name = c.name, m.parameters_yaml = c.parameters_yaml, m.reason = c.reason, m.pair = c.pair;
  } else {
    try {
      m.strategy = make_potential_strategy(strategy, params, pair, "strategy", g.periodic);
    } catch (const parameter_error& e) {
      throw input_error(std::string("strategy_params: ") + e.what());
    }
    m.name = strategy, m.reason = "named in the call", m.pair = pair;
  }
  try {
    m.strategy->check({a, g, m.pair});
  } catch (const input_error& e) {
    throw input_error("strategy " + m.name + ": " + e.what());
  }
  return m;
}

map_plan::map_plan(atoms a, const lattice& g, const interaction& pair, const std::string& strategy,
                   const parameter_values& params, const physics_options& physics, double tolerance)
    : atoms_(std::move(a)), grid_(g), physics_(physics) {
  try {
    check_lattice(grid_);
  } catch (const input_error& e) {
    throw input_error(std::string("lattice: ") + e.what());
  }
  if (grid_.periodic && !pair.is_cutoff())
    throw input_error("lattice: a periodic lattice needs a cutoff interaction (Coulomb and MSM are not periodic)");
  made_ = make_strategy(atoms_, grid_, pair, strategy, params, tolerance);
  prepare();
}

void map_plan::prepare() {
  py::gil_scoped_release release;
  Kokkos::fence();
  const auto t0 = std::chrono::steady_clock::now();
  plan_.reset();  // its device buffers go back to the cache for the new plan
  plan_ = made_.strategy->prepare({atoms_, grid_, made_.pair});
  Kokkos::fence();
  setup_seconds = seconds_since(t0);
  stale_ = false;
}

void map_plan::move(const py::handle& positions) {
  set_positions(atoms_, positions);
  stale_ = true;
}

void map_plan::compute_raw(potential_view out, write_mode mode) {
  if (out.extent(0) != grid_.size()) throw error(exit_code::failure, "map_plan: output of the wrong size");
  if (stale_) prepare();
  py::gil_scoped_release release;
  const auto t0 = std::chrono::steady_clock::now();
  made_.strategy->compute(*plan_, out, mode);  // fences
  compute_seconds = seconds_since(t0);
}

void map_plan::add_frame(const std::string& how) {
  if (how != "mean" && how != "sum" && how != "min" && how != "max")
    throw input_error("combine: '" + how + "' is not one of mean, sum, min, max");
  if (frames > 0 && how != combine)
    throw input_error("combine: '" + how + "' after " + std::to_string(frames) + " frames combined by '" + combine +
                      "' (reset() first)");
  if (accumulator_.extent(0) != grid_.size())
    accumulator_ = potential_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::python::frames"), grid_.size());
  combine = how;
  const bool additive = how == "mean" || how == "sum";
  if (frames == 0 || additive) {
    compute_raw(accumulator_, frames == 0 ? write_mode::overwrite : write_mode::accumulate);
  } else {
    if (frame_.extent(0) != grid_.size())
      frame_ = potential_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::python::frame"), grid_.size());
    compute_raw(frame_, write_mode::overwrite);
    py::gil_scoped_release release;
    const auto acc = accumulator_;
    const auto f = frame_;
    const bool take_min = how == "min";
    Kokkos::parallel_for(
        "ppl::python::combine", Kokkos::RangePolicy<>(0, grid_.size()), KOKKOS_LAMBDA(const std::size_t i) {
          acc(i) = take_min ? (f(i) < acc(i) ? f(i) : acc(i)) : (f(i) > acc(i) ? f(i) : acc(i));
        });
    Kokkos::fence();
  }
  ++frames;
}

void map_plan::combined(potential_view out) const {
  if (frames == 0) throw input_error("combined: no frame has been added (add_frame)");
  Kokkos::deep_copy(out, accumulator_);
  scale_on_device(out, physics_.scale() / (combine == "mean" ? double(frames) : 1.0));
}

void scale_on_device(potential_view v, double s) {
  if (s == 1.0) return;
  Kokkos::parallel_for(
      "ppl::python::scale", Kokkos::RangePolicy<>(0, v.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) { v(i) = float(double(v(i)) * s); });
  Kokkos::fence();
}

}  // namespace ppl::python
