#pragma once
// `job: potential`: the configuration, read and checked completely before any work (docs/config.md, "potential").
#include <memory>
#include <optional>
#include <string>

#include "ppl/core/config.hpp"
#include "ppl/potential/atoms.hpp"
#include "ppl/potential/lattice.hpp"
#include "ppl/potential/physics.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/potential/verification.hpp"

namespace ppl {

struct potential_job_config {
  std::string job_file;
  atoms input;  // already read / generated
  lattice grid;
  bool single_plane = false;
  physics_options physics;
  interaction pair;  // physics.interaction
  std::string strategy_name;
  std::unique_ptr<potential_strategy> strategy;
  std::optional<std::string> dx, mrc, raw, parboil_cutcp, summary;  // output paths (relative to the working folder)
  verification_options verification;
  int warmup = 1, repeats = 3;
};

// Reads every key of the job (the strategy factory reads strategy_params), loads the atoms and checks that the
// outputs can be written. Bad input -> input_error naming file:line:col and the key.
potential_job_config read_potential_job(const config_node& root);

}  // namespace ppl
