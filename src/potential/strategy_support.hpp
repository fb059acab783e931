#pragma once
// What the potential strategies share and nobody else needs: the direct strategies' plan, the profiling region
// every launch sits in, the coarsening dispatch and the default-space guard of the CUDA-only ones.
#include <Kokkos_Core.hpp>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>

#include "ppl/core/error.hpp"
#include "ppl/core/execution.hpp"
#include "ppl/core/parameters.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/potential/strategies.hpp"

namespace ppl::potential_detail {

// The strategies' structs and typed factories are public (ppl/potential/strategies.hpp).

// Runs f(s) with the default space's instance of `space`, or throws ppl::error when `space` is another one: the
// CUDA-only strategies' kernels exist for the default space alone.
template <class F>
void on_default_space(const execution& space, const std::string& strategy, F&& f) {
  if (!space.is_default())
    throw error(exit_code::failure, strategy + " runs only on the default execution space (" +
                                        Kokkos::DefaultExecutionSpace::name() + "), not on " + space.name());
  space.visit([&](const auto& s) {
    if constexpr (std::is_same_v<std::decay_t<decltype(s)>, Kokkos::DefaultExecutionSpace>) f(s);
  });
}

// The plan of the direct (all-pairs) strategies: the atoms staged on the device (to_device).
class direct_plan : public potential_plan {
 public:
  explicit direct_plan(const potential_problem& p) : potential_plan(p), atoms(to_device(p.input, p.grid)) {}
  device_atoms atoms;
};

// Base of the direct strategies: prepare() stages the atoms; plan_of() recovers the plan (a plan made by another
// kind of strategy is a programming error).
class direct_strategy : public potential_strategy {
 public:
  std::unique_ptr<potential_plan> prepare(const potential_problem& p) const override {
    return std::make_unique<direct_plan>(p);
  }

 protected:
  static const direct_plan& plan_of(const potential_plan& p) {
    const auto* d = dynamic_cast<const direct_plan*>(&p);
    if (d == nullptr) throw error(exit_code::failure, "a direct-summation strategy was given another strategy's plan");
    return *d;
  }
};

// Runs f(host) on a host execution space: `space` itself when it can run host loops (OpenMP, Serial), else the
// default host space (the float64 references in a GPU build).
template <class F>
decltype(auto) on_host(const execution& space, F&& f) {
  return space.visit([&](const auto& s) {
    using S = std::decay_t<decltype(s)>;
    if constexpr (Kokkos::SpaceAccessibility<S, Kokkos::HostSpace>::accessible)
      return f(s);
    else
      return f(Kokkos::DefaultHostExecutionSpace());
  });
}

// Kokkos profiling region "ppl::potential[<name>]" for the lifetime of the object (the name is the registry key).
class profiling_region {
 public:
  explicit profiling_region(const std::string& strategy_name) {
    Kokkos::Profiling::pushRegion("ppl::potential[" + strategy_name + "]");
  }
  ~profiling_region() { Kokkos::Profiling::popRegion(); }
  profiling_region(const profiling_region&) = delete;
  profiling_region& operator=(const profiling_region&) = delete;
};

// Calls f(std::integral_constant<int, C>{}) for a run-time coarsening C in {1, 2, 4, 8, 16} (validated by the
// factories), so that each strategy instantiates its kernel once per C without its own switch.
template <class F>
void with_coarsening(int c, F&& f) {
  switch (c) {
    case 1:
      f(std::integral_constant<int, 1>{});
      break;
    case 2:
      f(std::integral_constant<int, 2>{});
      break;
    case 4:
      f(std::integral_constant<int, 4>{});
      break;
    case 8:
      f(std::integral_constant<int, 8>{});
      break;
    default:
      f(std::integral_constant<int, 16>{});
      break;
  }
}

// Ceiling division for launch geometry.
constexpr long long ceil_div(long long a, long long b) {
  return (a + b - 1) / b;
}

}  // namespace ppl::potential_detail
