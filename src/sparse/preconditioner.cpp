// The preconditioner seam (include/ppl/sparse/preconditioner.hpp): the choice by name and the default transpose
// application.
#include "ppl/sparse/preconditioner.hpp"

#include "ppl/core/error.hpp"

namespace ppl {

void preconditioner::apply_transpose(const execution&, const_vector_view, vector_view) const {
  throw input_error("preconditioner '" + name() +
                    "' has no transpose application (M^-T), which this solver needs (bicg); use another "
                    "preconditioner or solver");
}

std::unique_ptr<preconditioner> make_preconditioner(const std::string& name, const crs_matrix& A,
                                                    const parameter_values& params) {
  return preconditioners().get(name, "solver.preconditioner").factory(A, params);
}

}  // namespace ppl
