// `none`: M = I. Solvers see is_identity() and use r where z would be, so apply() runs only where a solver has no
// such shortcut (a copy queued on the execution space, without a fence).
#include <Kokkos_Core.hpp>

#include "ppl/sparse/vector_ops.hpp"
#include "preconditioners.hpp"

namespace ppl::precond_detail {
namespace {

class identity final : public preconditioner {
 public:
  std::string name() const override { return "none"; }
  void apply(const execution& space, const_vector_view r, vector_view z) const override { vec::copy(space, z, r); }
  void apply_transpose(const execution& space, const_vector_view r, vector_view z) const override {
    apply(space, r, z);
  }
  bool is_identity() const override { return true; }
};

std::unique_ptr<preconditioner> make_none(const crs_matrix&, const no_parameters&) {
  return std::make_unique<identity>();
}

}  // namespace

preconditioner_registry::entry none_entry() {
  return preconditioner_registry::entry::named("none")
      .with_description("M = I: no preconditioning (solvers use r for z, no copy)")
      .with_backends("all")
      .with_factory(preconditioner_from_values<no_parameters>(make_none))
      .with_capabilities({precond_identity, precond_transpose, precond_every_space})
      .with_parameters(no_parameters::fields().space());
}

}  // namespace ppl::precond_detail
