// The preconditioner seam (include/ppl/sparse/preconditioner.hpp): names, the choice by kind, and the default
// transpose application.
#include "ppl/sparse/preconditioner.hpp"

#include "ppl/core/error.hpp"
#include "preconditioners.hpp"

namespace ppl {

std::string to_string(preconditioner_kind p) {
  switch (p) {
    case preconditioner_kind::none:
      return "none";
    case preconditioner_kind::jacobi:
      return "jacobi";
    case preconditioner_kind::ilu0:
      return "ilu0";
  }
  return "unknown";
}

void preconditioner::apply_transpose(const_vector_view, vector_view) const {
  throw input_error("preconditioner '" + name() +
                    "' has no transpose application (M^-T), which this solver needs (bicg); use another "
                    "preconditioner or solver");
}

std::unique_ptr<preconditioner> make_preconditioner(preconditioner_kind kind, const crs_matrix& A) {
  switch (kind) {
    case preconditioner_kind::none:
      return precond_detail::make_none();
    case preconditioner_kind::jacobi:
      return precond_detail::make_jacobi(A);
    case preconditioner_kind::ilu0:
      return precond_detail::make_ilu0(A);
  }
  throw error(exit_code::failure, "make_preconditioner: unknown kind");
}

}  // namespace ppl
