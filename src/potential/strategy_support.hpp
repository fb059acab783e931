#pragma once
// What the potential strategies share and nobody else needs: their factories (for register.cpp), the profiling
// region every launch sits in, and parameter reading.
#include <Kokkos_Core.hpp>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>

#include "ppl/jobs/config.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/parameters.hpp"
#include "ppl/potential/potential_strategy.hpp"

namespace ppl::potential_detail {

// The declared parameter spaces (registry entries and factories share them).
const parameter_space& gather_parameters();
const parameter_space& gather_coarsened_parameters();
const parameter_space& gather_coalesced_parameters();
const parameter_space& gather_atom_split_parameters();
const parameter_space& gather_constmem_cuda_parameters();
const parameter_space& gather_hybrid_rsqrt_cuda_parameters();
const parameter_space& cutoff_binned_parameters();
const parameter_space& cutoff_large_bins_parameters();
const parameter_space& cutoff_binned_cuda_parameters();
// The strategy's parameters read through its space, with this backend's defaults.
parameter_reader read_parameters(const parameter_space& space, const config_node* params);

std::unique_ptr<potential_strategy> make_reference(const config_node* params);
std::unique_ptr<potential_strategy> make_cutoff_reference(const config_node* params);
std::unique_ptr<potential_strategy> make_scatter(const config_node* params);
std::unique_ptr<potential_strategy> make_gather(const config_node* params);
std::unique_ptr<potential_strategy> make_gather_coarsened(const config_node* params);
std::unique_ptr<potential_strategy> make_gather_coalesced(const config_node* params);
std::unique_ptr<potential_strategy> make_gather_atom_split(const config_node* params);
std::unique_ptr<potential_strategy> make_cutoff_binned(const config_node* params);
std::unique_ptr<potential_strategy> make_cutoff_large_bins(const config_node* params);
#if defined(KOKKOS_ENABLE_CUDA)
std::unique_ptr<potential_strategy> make_gather_constmem_cuda(const config_node* params);
std::unique_ptr<potential_strategy> make_gather_hybrid_rsqrt_cuda(const config_node* params);
std::unique_ptr<potential_strategy> make_cutoff_binned_cuda(const config_node* params);
#endif

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
