// `ilu0`: M = L U, the ILU(0) factorisation of A (include/ppl/sparse/ilu0.hpp: Kokkos Kernels' spiluk with fill
// level 0 for the set-up, two triangular solves per application). BiCG's M^-T products solve with the transposed
// factors, built on its first transpose application. The solves run on the default execution space only (Kokkos
// Kernels 3.4's sptrsv takes no execution space instance): another space is a ppl::error.
#include <Kokkos_Core.hpp>

#include "ppl/core/error.hpp"
#include "ppl/sparse/ilu0.hpp"
#include "preconditioners.hpp"

namespace ppl::precond_detail {
namespace {

void require_default_space(const execution& space) {
  if (!space.is_default())
    throw error(exit_code::failure, "preconditioner 'ilu0' runs only on the default execution space (" +
                                        execution().name() + "), not on " + space.name());
}

class ilu0 final : public preconditioner {
 public:
  explicit ilu0(const crs_matrix& A) : f_(A) {}
  std::string name() const override { return "ilu0"; }
  void apply(const execution& space, const_vector_view r, vector_view z) const override {
    require_default_space(space);
    f_.apply(r, z);
  }
  void apply_transpose(const execution& space, const_vector_view r, vector_view z) const override {
    require_default_space(space);
    f_.apply_transpose(r, z);
  }

 private:
  ilu0_factorization f_;
};

std::unique_ptr<preconditioner> make_ilu0(const crs_matrix& A, const no_parameters&) {
  auto M = std::make_unique<ilu0>(A);
  Kokkos::fence();
  return M;
}

}  // namespace

preconditioner_registry::entry ilu0_entry() {
  return preconditioner_registry::entry::named("ilu0")
      .with_description("M = L U, incomplete LU without fill-in (Kokkos Kernels spiluk; sptrsv or a host loop for the solves)")
      .with_backends("all")
      .with_factory(preconditioner_from_values<no_parameters>(make_ilu0))
      .with_capabilities({precond_transpose})
      .with_parameters(no_parameters::fields().space())
      .with_check(ilu0_check);
}

}  // namespace ppl::precond_detail
