#pragma once
// Factories of the job kinds; src/jobs/register.cpp lists them in the job registry.
#include <memory>

#include "ppl/jobs/job.hpp"

namespace ppl {

std::unique_ptr<job> make_info_job(const config_node& c);
std::unique_ptr<job> make_ions_job(const config_node& c);
std::unique_ptr<job> make_potential_job(const config_node& c);
std::unique_ptr<job> make_solve_job(const config_node& c);
std::unique_ptr<job> make_sweep_job(const config_node& c);

}  // namespace ppl
