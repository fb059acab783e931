#pragma once
// The factories of the preconditioners, one per file (precond_<name>.cpp); make_preconditioner() in
// preconditioner.cpp picks one by kind. Private to src/sparse/.
#include <memory>

#include "ppl/sparse/preconditioner.hpp"

namespace ppl::precond_detail {

std::unique_ptr<preconditioner> make_none();
std::unique_ptr<preconditioner> make_jacobi(const crs_matrix& A);
std::unique_ptr<preconditioner> make_ilu0(const crs_matrix& A);

}  // namespace ppl::precond_detail
