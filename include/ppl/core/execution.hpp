#pragma once
// Where ppl's kernels run, passed in at the public entry points (compute, SpMV, solve, placement) as Kokkos Kernels,
// Cabana and ArborX take an execution-space instance: the build's default space (an instance may carry a CUDA
// stream), or, in builds whose default space works in host memory, also Kokkos::Serial: a second backend in the same
// build, on the same data. A strategy runs its kernels with `space.visit([&](auto s) { ... RangePolicy<decltype(s)>
// (s, 0, n) ... })`, so each kernel is instantiated for every space of the build.
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#if defined(KOKKOS_ENABLE_SERIAL) && !defined(KOKKOS_ENABLE_CUDA) && !defined(KOKKOS_ENABLE_HIP) && \
    !defined(KOKKOS_ENABLE_SYCL) && !defined(KOKKOS_ENABLE_OPENMPTARGET)
#define PPL_HAS_SERIAL_EXECUTION 1
#endif

namespace ppl {

class execution {
 public:
#if defined(PPL_HAS_SERIAL_EXECUTION)
  static constexpr bool default_is_serial = std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Serial>;
  using variant = std::conditional_t<default_is_serial, std::variant<Kokkos::Serial>,
                                     std::variant<Kokkos::DefaultExecutionSpace, Kokkos::Serial>>;
#else
  using variant = std::variant<Kokkos::DefaultExecutionSpace>;
#endif

  // The default space's default instance (Kokkos must be initialised when one is made).
  execution() : space_(Kokkos::DefaultExecutionSpace()) {}
  execution(const Kokkos::DefaultExecutionSpace& s) : space_(s) {}  // NOLINT: implicit, as Kokkos spaces convert
#if defined(PPL_HAS_SERIAL_EXECUTION)
  template <class S, class = std::enable_if_t<std::is_same_v<S, Kokkos::Serial> && !default_is_serial>>
  execution(const S& s) : space_(s) {}  // NOLINT
#endif

  // Calls f(space) with the concrete Kokkos execution space instance.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), space_);
  }
  bool is_default() const { return space_.index() == 0; }
  std::string name() const {
    return visit([](const auto& s) { return std::string(std::decay_t<decltype(s)>::name()); });
  }
  void fence() const {
    visit([](const auto& s) { s.fence(); });
  }
  // Every space this build offers, the default first (tests run the registries over it).
  static std::vector<execution> all() {
    std::vector<execution> out{execution()};
#if defined(PPL_HAS_SERIAL_EXECUTION)
    if constexpr (!default_is_serial) out.push_back(execution(Kokkos::Serial()));
#endif
    return out;
  }

 private:
  variant space_;
};

}  // namespace ppl
