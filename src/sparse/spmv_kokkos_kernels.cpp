// `kokkos_kernels`: the vendor-neutral peer, KokkosSparse::spmv with its default controls ("N"), and its own
// transpose mode ("T", atomics on GPUs) instead of an explicit transpose. Kokkos Kernels 3.4's spmv takes no
// execution space instance: this strategy runs on the default execution space only (require_default_space).
// KokkosSparse_spmv.hpp is not self-contained: Kokkos_Core.hpp and <string> must come first.
// clang-format off
#include <Kokkos_Core.hpp>
#include <string>
#include <KokkosSparse_spmv.hpp>
// clang-format on

#include "spmv_factories.hpp"

namespace ppl {
namespace {

class spmv_kokkos_kernels final : public spmv_strategy {
 public:
  void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override {
    require_default_space(space, "kokkos_kernels");
    Kokkos::Profiling::pushRegion("ppl::spmv[kokkos_kernels]");
    KokkosSparse::spmv("N", 1.0, A, x, 0.0, y);
    Kokkos::Profiling::popRegion();
  }
  void apply_transpose(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override {
    require_default_space(space, "kokkos_kernels");
    Kokkos::Profiling::pushRegion("ppl::spmv[kokkos_kernels]");
    // KK 3.4's "T" path scales y by beta (0 * NaN = NaN) instead of overwriting it: clear y first.
    Kokkos::deep_copy(y, 0.0);
    KokkosSparse::spmv("T", 1.0, A, x, 0.0, y);
    Kokkos::Profiling::popRegion();
  }
  std::string describe() const override { return "KokkosSparse::spmv (default controls)"; }
};

}  // namespace

std::unique_ptr<spmv_strategy> make_kokkos_kernels_spmv(const no_parameters&) {
  return std::make_unique<spmv_kokkos_kernels>();
}

}  // namespace ppl
