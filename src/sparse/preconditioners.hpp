#pragma once
// The preconditioners' registry entries, each defined in its own file (precond_<name>.cpp) with its class, factory,
// declared parameters, capabilities and configuration-time check; src/sparse/precond_register.cpp lists them.
// Private to src/sparse/.
#include "ppl/sparse/preconditioner.hpp"

namespace ppl::precond_detail {

preconditioner_registry::entry none_entry();
preconditioner_registry::entry jacobi_entry();
preconditioner_registry::entry ilu0_entry();

}  // namespace ppl::precond_detail
