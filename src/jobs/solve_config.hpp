#pragma once
// The `job: solve` configuration, read and checked before any work (docs/config.md, section "solve").
#include <memory>
#include <optional>
#include <string>

#include "ppl/core/config.hpp"
#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl {

struct solve_config {
  // matrix: a file, or a generator
  std::string matrix_file;   // resolved against the job file's folder; empty with a generator
  std::string matrix_where;  // file:line of the matrix key, prefixed to reader errors
  std::string generator;     // convection_diffusion | convection_diffusion_3x
  convection_diffusion_params gen;

  enum class rhs_kind { ones, manufactured, file } rhs = rhs_kind::ones;
  std::string rhs_file, rhs_where;
  std::string x0_file, x0_where;  // empty: zero initial guess

  std::string method = "bicgstab";
  solver_options options;

  std::string spmv_name;
  std::unique_ptr<spmv_strategy> spmv;  // built by the factory from the `spmv` map

  std::optional<std::string> solution_path, history_path, summary_path;  // relative to the current folder
};

solve_config read_solve_config(const config_node& root);

// The manufactured solution used with a matrix file (generators bring their own): x*_i = 1 + sin(i / 10) / 2.
double file_manufactured_solution(std::size_t i);

}  // namespace ppl
