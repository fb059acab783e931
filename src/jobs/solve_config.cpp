// Reading and checking the `job: solve` configuration (solve_config.hpp, docs/config.md section "solve").
#include "solve_config.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/core/memory_limits.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/jobs/config_helpers.hpp"
#include "ppl/jobs/parameter_config.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "ppl/sparse/solve_memory.hpp"

namespace ppl {
namespace {

// The matrix file's banner and size line, read now so that `ppl validate` rejects what a run would: a matrix that
// is not square, has no rows, or cannot hold an entry in every row (structurally singular).
void check_matrix_header(solve_config& s) {
  const auto h = prefix_input_errors(s.matrix_where + ": matrix.file", [&] {
    return read_matrix_market_header(s.matrix_file, matrix_market_object::sparse_matrix);
  });
  const std::string at = s.matrix_where + ": matrix.file: " + s.matrix_file + ":" + std::to_string(h.size_line) + ": ";
  if (h.rows != h.cols)
    throw input_error(at + "the matrix is not square (" + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
                      "): a solve needs a square system");
  if (h.rows == 0) throw input_error(at + "the matrix has no rows: nothing to solve");
  // Each stored entry of a symmetric file fills at most two rows (its mirror image the other).
  const std::int64_t max_rows_filled = h.symmetry == "general" ? h.entries : 2 * h.entries;
  if (max_rows_filled < h.rows)
    throw input_error(at + std::to_string(h.entries) + " " + h.symmetry + " entries cannot fill all " +
                      std::to_string(h.rows) + " rows: the system is structurally singular");
  if (h.symmetry == "skew-symmetric" && h.rows % 2 == 1)
    throw input_error(at + "a skew-symmetric matrix of odd order (" + std::to_string(h.rows) + ") is singular");
  s.rows = h.rows;
}

// A vector file (rhs, initial guess): its header, and its length against the matrix's rows.
void check_vector_header(const std::string& path, const std::string& where, const std::string& key, std::int64_t rows) {
  const auto h = prefix_input_errors(where + ": " + key,
                                     [&] { return read_matrix_market_header(path, matrix_market_object::vector); });
  if (h.rows != rows)
    throw input_error(where + ": " + key + ": " + path + ":" + std::to_string(h.size_line) + ": " +
                      std::to_string(h.rows) + " entries, but the matrix has " + std::to_string(rows) + " rows");
}

// A square matrix with an empty row or column is singular whatever its values: an input error naming the first
// such row or column (1-based, as in Matrix Market), before any work.
void check_structurally_nonsingular(const host_csr& A, const std::string& what) {
  std::vector<char> column_used(static_cast<std::size_t>(A.cols), 0);
  for (int r = 0; r < A.rows; ++r) {
    if (A.row_map[r] == A.row_map[r + 1])
      throw input_error(what + ": row " + std::to_string(r + 1) + " (1-based) has no entries: the system is singular");
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) column_used[A.entries[j]] = 1;
  }
  for (int c = 0; c < A.cols; ++c)
    if (!column_used[c])
      throw input_error(what + ": column " + std::to_string(c + 1) +
                        " (1-based) has no entries: the system is singular");
}

void read_matrix(const config_node& root, solve_config& s) {
  const auto m = root.child("matrix");
  const bool file = exactly_one_of(m, {"file", "generator"}) == "file";
  s.matrix_where = m.where();
  if (file) {
    s.matrix_file = m.input_file("file");
    check_matrix_header(s);
    s.matrix_host = std::make_shared<host_csr>(
        prefix_input_errors(s.matrix_where + ": matrix.file", [&] { return read_matrix_market_host(s.matrix_file); }));
    check_structurally_nonsingular(*s.matrix_host, s.matrix_where + ": matrix.file: '" + s.matrix_file + "'");
    return;
  }
  s.generator = m.get_choice("generator", "", {"convection_diffusion", "convection_diffusion_3x"});
  s.gen.components = s.generator == "convection_diffusion_3x" ? 3 : 1;
  s.gen.n = m.get_in<int>("n", 32, 2, 100000);
  s.gen.peclet = m.get_in<double>("peclet", 1.0, 0.0, 1e6);
  if (s.gen.components == 3) s.gen.coupling = m.get_in<double>("coupling", 1.0, 0.0, 1e6);
  s.rows = convection_diffusion_rows(s.gen);
  // Sizes the CSR types can hold (the generator would refuse them later, without file:line).
  if (convection_diffusion_rows(s.gen) > std::numeric_limits<int>::max() ||
      convection_diffusion_nnz(s.gen) > std::int64_t(std::numeric_limits<std::uint32_t>::max()))
    throw input_error(m.where("n") + ": 'matrix.n' = " + std::to_string(s.gen.n) + " gives " +
                      std::to_string(convection_diffusion_rows(s.gen)) + " rows and " +
                      std::to_string(convection_diffusion_nnz(s.gen)) +
                      " nonzeros, more than 32-bit indices can address");
}

void read_rhs(const config_node& root, solve_config& s) {
  auto r = root.find("rhs");
  if (!r) return;  // ones
  s.rhs_where = r->where();
  if (r->is_map()) {
    s.rhs = solve_config::rhs_kind::file;
    s.rhs_file = r->input_file("file");
    check_vector_header(s.rhs_file, s.rhs_where, "rhs.file", s.rows);
    s.rhs_host =
        prefix_input_errors(s.rhs_where + ": rhs.file", [&] { return read_matrix_market_vector_host(s.rhs_file); });
    return;
  }
  s.rhs = root.get_choice("rhs", "ones", {"ones", "manufactured"}) == "manufactured"
              ? solve_config::rhs_kind::manufactured
              : solve_config::rhs_kind::ones;
}

// The method's declared parameters are the other keys of `solver` (GMRES: restart); the preconditioner's are the keys
// of `solver.preconditioner_params`. Both are checked against the registries' declarations, and the pair against the
// capabilities (BiCG needs M^-T).
void read_solver(const config_node& root, solve_config& s) {
  auto c = optional_map(root, "solver");
  auto& o = s.options;
  o.preconditioner = "none";
  o.progress_every = 100;
  const config_node* params = c ? &*c : nullptr;
  if (c) s.method = c->get<std::string>("method", s.method);
  const auto& method = registry_entry(solvers(), s.method,
                                      c && c->has("method") ? c->where("method") + ": solver.method" : "solver.method");
  s.method_params = read_parameter_values(method.parameters, params);
  if (!c) return;
  o.rtol = c->get_in<double>("rtol", o.rtol, 0.0, 1.0);
  o.atol = c->get_in<double>("atol", o.atol, 0.0, std::numeric_limits<double>::max());
  if (o.rtol == 0.0 && o.atol == 0.0)
    throw input_error(c->where() + ": solver.rtol and solver.atol are both 0: the solve could never converge");
  o.max_iters = c->get_in<int>("max_iters", o.max_iters, 0, std::numeric_limits<int>::max());
  o.dtol = c->get<double>("dtol", o.dtol);
  if (!(o.dtol > 1.0))  // also NaN
    throw input_error(c->find("dtol")->where() + ": 'solver.dtol' = " + fmt::format("{:g}", o.dtol) +
                      " must be greater than 1: the factor by which the residual may grow before the solve stops "
                      "with diverged_dtol (.inf: never)");
  // The registry's names: an unknown one is a choice error listing them, a registered one this build cannot run
  // says which build has it.
  o.preconditioner = c->get<std::string>("preconditioner", "none");
  if (preconditioners().lookup(o.preconditioner) == nullptr)
    c->get_choice("preconditioner", "none", preconditioners().names());
  const auto& precond = preconditioners().get(
      o.preconditioner,
      c->has("preconditioner") ? c->where("preconditioner") + ": solver.preconditioner" : "solver.preconditioner");
  const auto pp = c->find("preconditioner_params");
  if (pp && !pp->is_map())
    throw input_error(pp->where() +
                      ": 'solver.preconditioner_params' must be a map of the preconditioner's parameters");
  o.preconditioner_params = read_parameter_values(precond.parameters, pp ? &*pp : nullptr);
  if (method.can(krylov_uses_transpose) && !precond.can(precond_transpose))
    throw input_error(c->where(c->has("preconditioner") ? "preconditioner" : "method") +
                      ": 'solver.preconditioner' = '" + o.preconditioner +
                      "' has no transpose application (M^-T), which solver.method '" + s.method + "' needs");
  o.profile = c->get<bool>("profile", false);
  o.breakdown_tol = c->get_in<double>("breakdown_tol", o.breakdown_tol, 0.0, 1.0);
  o.max_restarts = c->get_in<int>("max_restarts", o.max_restarts, 0, std::numeric_limits<int>::max());
  o.progress_every = c->get_in<int>("progress_every", o.progress_every, 0, std::numeric_limits<int>::max());
  if (auto g = c->find("initial_guess")) {
    if (g->is_map()) {
      s.x0_file = g->input_file("file");
      s.x0_where = g->where();
      check_vector_header(s.x0_file, s.x0_where, "solver.initial_guess.file", s.rows);
      s.x0_host = prefix_input_errors(s.x0_where + ": solver.initial_guess.file",
                                      [&] { return read_matrix_market_vector_host(s.x0_file); });
    } else {
      c->get_choice("initial_guess", "zero", {"zero"});
    }
  }
  // Constraints between a method's parameters (none today) are the factory's: build it once to hear them.
  with_parameter_errors(params, c->where(), [&] { return method.factory(o, s.method_params); });
}

void read_spmv(const config_node& root, solve_config& s) {
  auto c = optional_map(root, "spmv");
  s.spmv_name = spmv_strategies().find("auto") ? "auto" : "kokkos_kernels";
  if (c) s.spmv_name = c->get<std::string>("strategy", s.spmv_name);
  const auto& entry =
      registry_entry(spmv_strategies(), s.spmv_name, c ? c->where("strategy") + ": spmv.strategy" : "spmv.strategy");
  const config_node* params = c ? &*c : nullptr;
  s.spmv_params = read_parameter_values(entry.parameters, params);
  s.spmv = with_parameter_errors(params, "spmv", [&] { return entry.factory(s.spmv_params); });
}

// The configuration-time checks of the chosen entries on a matrix file (Jacobi's diagonal, ILU(0)'s pivots, ...),
// each error prefixed with the file.
void check_matrix_file(const solve_config& s) {
  if (!s.matrix_host) return;
  const std::string what = s.matrix_where + ": matrix.file: '" + s.matrix_file + "'";
  auto run = [&](const matrix_check& check) {
    if (check) prefix_input_errors(what, [&] { check(*s.matrix_host); });
  };
  run(spmv_strategies().get(s.spmv_name, "spmv.strategy").check);
  run(solvers().get(s.method, "solver.method").check);
  run(preconditioners().get(s.options.preconditioner, "solver.preconditioner").check);
}

// The memory the run will allocate (solve_memory.hpp) against what this machine has: the device's on a GPU build,
// the host's (physical memory, ulimit, cgroup) for what lives there. More is bad input naming the key that sizes the
// largest part (GMRES' basis: solver.restart), before anything is allocated.
void check_solve_memory(const config_node& root, const solve_config& s) {
  solve_memory_problem p;
  p.rows = s.rows;
  p.nnz = s.matrix_host ? std::int64_t(s.matrix_host->values.size()) : convection_diffusion_nnz(s.gen);
  p.method = s.method;
  const auto restart = s.method_params.find("restart");
  if (restart != s.method_params.end()) p.gmres_restart = std::get<int>(restart->second);
  p.preconditioner = s.options.preconditioner;
  if (p.preconditioner == "ilu0") {  // `auto` factors in parallel on a GPU (ilu0.hpp)
    const auto f = s.options.preconditioner_params.find("factorization");
    const std::string factorization =
        f != s.options.preconditioner_params.end() ? std::get<std::string>(f->second) : std::string("auto");
    p.ilu0_parallel = factorization == "parallel" || (factorization == "auto" && default_space_is_gpu());
  }
  p.job_vectors = 2 + (s.rhs == solve_config::rhs_kind::manufactured ? 2 : 0) + (s.x0_file.empty() ? 0 : 1);
  p.host_matrix_copy = s.matrix_host != nullptr;
  p.host_vectors = int(!s.rhs_host.empty()) + int(!s.x0_host.empty());
  const auto need = estimate_solve_memory(p);

  const bool gpu = default_space_is_gpu();
  std::vector<solve_memory_item> host_items = need.host;
  if (!gpu) host_items.insert(host_items.end(), need.device.begin(), need.device.end());
  auto check = [&](const std::vector<solve_memory_item>& items, const memory_limit& limit, const char* memory) {
    double total = 0;
    const solve_memory_item* largest = nullptr;
    for (const auto& i : items) {
      total += i.bytes;
      if (largest == nullptr || i.bytes > largest->bytes) largest = &i;
    }
    if (limit.bytes <= 0 || total <= limit.bytes || largest == nullptr) return;
    // The key that sizes the largest part, where the job file sets it (or the map it would be in).
    const auto solver = root.find("solver");
    const auto m = root.child("matrix");
    std::string where = root.where(), key = "'" + largest->key + "'";
    if (largest->key == "solver.restart") {
      const bool given = solver && solver->is_map() && solver->has("restart");
      where = given ? solver->where("restart") : solver ? solver->where() : root.where();
      key = fmt::format("'solver.restart' = {}{}", p.gmres_restart, given ? "" : " (the default)");
    } else if (largest->key == "matrix") {
      const bool generated = s.matrix_file.empty();
      where = generated && m.has("n") ? m.where("n") : m.where();
      key = generated ? fmt::format("'matrix.n' = {}", s.gen.n) : "'matrix.file' (" + s.matrix_file + ")";
    } else if (solver && solver->is_map()) {
      const std::string name = largest->key.substr(largest->key.find('.') + 1);
      where = solver->has(name) ? solver->where(name) : solver->where();
    }
    throw input_error(
        fmt::format("{}: {}: the solve needs {} of {} ({} rows; the largest part, {}: {}), more than "
                    "the {} of the {}",
                    where, key, memory_size_text(total), memory, s.rows, largest->what,
                    memory_size_text(largest->bytes), memory_size_text(limit.bytes), limit.what));
  };
  if (gpu) check(need.device, default_space_memory_limit(), "device memory");
  check(host_items, host_memory_limit(), "host memory");
}

}  // namespace

parameter_values with_defaults(const parameter_space& space, const parameter_values& given) {
  parameter_values out;
  for (const auto& spec : space) {
    if (const auto it = given.find(spec.name); it != given.end()) {
      out[spec.name] = it->second;
      continue;
    }
    switch (spec.type) {
      case parameter_type::integer:
        out[spec.name] = spec.default_text == "auto" ? 0 : std::stoi(spec.default_text);
        break;
      case parameter_type::real:
        out[spec.name] = std::stod(spec.default_text);
        break;
      case parameter_type::choice:
        out[spec.name] = spec.default_text;
        break;
      case parameter_type::integer3: {
        std::array<int, 3> v{};
        std::sscanf(spec.default_text.c_str(), "[%d, %d, %d]", &v[0], &v[1], &v[2]);
        out[spec.name] = v;
        break;
      }
    }
  }
  return out;
}

double file_manufactured_solution(std::size_t i) {
  return 1.0 + 0.5 * std::sin(double(i) / 10.0);
}

solve_config read_solve_config(const config_node& root) {
  solve_config s;
  read_matrix(root, s);
  read_rhs(root, s);
  read_solver(root, s);
  read_spmv(root, s);
  check_solve_memory(root, s);
  check_matrix_file(s);
  if (auto out = optional_map(root, "output")) {
    s.solution_path = optional_output_file(*out, "solution");
    s.history_path = optional_output_file(*out, "history");
    s.summary_path = optional_output_file(*out, "summary");
    s.matrix_out_path = optional_output_file(*out, "matrix");
    s.rhs_out_path = optional_output_file(*out, "rhs");
  }
  return s;
}

}  // namespace ppl
