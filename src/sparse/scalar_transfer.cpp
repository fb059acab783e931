// The portable scalar transfer (scalar_transfer.hpp): a deep_copy, complete when begin() returns.
#include "scalar_transfer.hpp"

#include <Kokkos_Core.hpp>
#include <type_traits>
#include <vector>

namespace ppl::krylov_detail {
namespace {

class copy_transfer final : public scalar_transfer {
 public:
  explicit copy_transfer(int n) : host_(static_cast<std::size_t>(n)) {}
  double* host() override { return host_.data(); }
  void begin(const double* device) override {
    using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    const Kokkos::View<const double*, Kokkos::DefaultExecutionSpace::memory_space, unmanaged> from(device,
                                                                                                   host_.size());
    Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, unmanaged>(host_.data(), host_.size()), from);
  }
  void wait() override {}

 private:
  std::vector<double> host_;
};

}  // namespace

std::unique_ptr<scalar_transfer> make_scalar_transfer(const execution& space, int n) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value)
    return make_scalar_transfer_cuda(space.visit([](const auto& s) { return Kokkos::Cuda(s); }), n);
#endif
  (void)space;  // the copy fences everything: it follows the work of any space
  return std::make_unique<copy_transfer>(n);
}

}  // namespace ppl::krylov_detail
