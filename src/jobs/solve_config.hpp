#pragma once
// The `job: solve` configuration, read and checked before any work (docs/config.md, section "solve").
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ppl/jobs/config.hpp"
#include "ppl/core/error.hpp"
#include "ppl/sparse/csr.hpp"
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
  std::int64_t rows = 0;  // from the file's size line or the generator's parameters, known before any work

  enum class rhs_kind { ones, manufactured, file } rhs = rhs_kind::ones;
  std::string rhs_file, rhs_where;
  std::string x0_file, x0_where;  // empty: zero initial guess

  // The input files' contents, read and checked when the job is read (so `ppl validate` rejects every bad entry a
  // run would, and a run parses each file once); the run moves them to the device and frees them.
  std::shared_ptr<host_csr> matrix_host;
  std::vector<double> rhs_host, x0_host;

  std::string method = "bicgstab";
  parameter_values method_params;  // the method's declared parameters given in `solver` (GMRES: restart)
  solver_options options;          // preconditioner (a registry name) and its parameters included

  std::string spmv_name;
  parameter_values spmv_params;         // the strategy's declared parameters given in `spmv`
  std::unique_ptr<spmv_strategy> spmv;  // built by the factory from them

  std::optional<std::string> solution_path, history_path, summary_path;  // relative to the current folder
  std::optional<std::string> matrix_out_path, rhs_out_path;              // the system solved, as Matrix Market files
};

// Reads and checks the configuration and every input file (header first, then the entries, and the matrix's
// structure), so that `ppl validate` rejects what a run would before any work.
solve_config read_solve_config(const config_node& root);

// The declared parameters of `space` with the values of `given` and the defaults for the rest (the summary's).
parameter_values with_defaults(const parameter_space& space, const parameter_values& given);

// The manufactured solution used with a matrix file (generators bring their own): x*_i = 1 + sin(i / 10) / 2.
double file_manufactured_solution(std::size_t i);

}  // namespace ppl
