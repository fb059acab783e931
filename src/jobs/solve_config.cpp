// Reading and checking the `job: solve` configuration (solve_config.hpp, docs/config.md section "solve").
#include "solve_config.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/io/atomic_file.hpp"

namespace ppl {
namespace {

std::optional<config_node> optional_map(const config_node& c, const std::string& key) {
  auto n = c.find(key);
  if (n && !n->is_map()) throw input_error(n->where() + ": '" + n->path() + "' must be a map");
  return n;
}

std::optional<std::string> output_path(const config_node& out, const std::string& key) {
  if (!out.has(key)) return std::nullopt;
  return out.output_file(key);
}

void read_matrix(const config_node& root, solve_config& s) {
  const auto m = root.child("matrix");
  if (!m.is_map()) throw input_error(m.where() + ": 'matrix' must be a map with 'file' or 'generator'");
  s.matrix_where = m.where();
  const bool file = m.has("file"), gen = m.has("generator");
  if (file == gen) throw input_error(m.where() + ": 'matrix' needs exactly one of: file, generator");
  if (file) {
    s.matrix_file = m.input_file("file");
    return;
  }
  s.generator = m.get_choice("generator", "", {"convection_diffusion", "convection_diffusion_3x"});
  s.gen.components = s.generator == "convection_diffusion_3x" ? 3 : 1;
  s.gen.n = m.get_in<int>("n", 32, 2, 100000);
  s.gen.peclet = m.get_in<double>("peclet", 1.0, 0.0, 1e6);
  if (s.gen.components == 3) s.gen.coupling = m.get_in<double>("coupling", 1.0, 0.0, 1e6);
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
    return;
  }
  s.rhs = root.get_choice("rhs", "ones", {"ones", "manufactured"}) == "manufactured"
              ? solve_config::rhs_kind::manufactured
              : solve_config::rhs_kind::ones;
}

void read_solver(const config_node& root, solve_config& s) {
  auto c = optional_map(root, "solver");
  auto& o = s.options;
  o.preconditioner = preconditioner_kind::none;
  o.progress_every = 100;
  if (!c) return;
  s.method = c->get<std::string>("method", s.method);
  solvers().get(s.method, c->where("method") + ": solver.method");  // unknown names list what exists
  o.rtol = c->get_in<double>("rtol", o.rtol, 0.0, 1.0);
  o.atol = c->get_in<double>("atol", o.atol, 0.0, std::numeric_limits<double>::max());
  if (o.rtol == 0.0 && o.atol == 0.0)
    throw input_error(c->where() + ": solver.rtol and solver.atol are both 0: the solve could never converge");
  o.max_iters = c->get_in<int>("max_iters", o.max_iters, 0, std::numeric_limits<int>::max());
  o.preconditioner = c->get_choice("preconditioner", "none", {"none", "jacobi"}) == "jacobi"
                         ? preconditioner_kind::jacobi
                         : preconditioner_kind::none;
  o.profile = c->get<bool>("profile", false);
  o.breakdown_tol = c->get_in<double>("breakdown_tol", o.breakdown_tol, 0.0, 1.0);
  o.progress_every = c->get_in<int>("progress_every", o.progress_every, 0, std::numeric_limits<int>::max());
  if (auto g = c->find("initial_guess")) {
    if (g->is_map()) {
      s.x0_file = g->input_file("file");
      s.x0_where = g->where();
    } else {
      c->get_choice("initial_guess", "zero", {"zero"});
    }
  }
}

void read_spmv(const config_node& root, solve_config& s) {
  auto c = optional_map(root, "spmv");
  s.spmv_name = spmv_strategies().find("auto") ? "auto" : "kokkos_kernels";
  if (c) s.spmv_name = c->get<std::string>("strategy", s.spmv_name);
  const auto& entry =
      spmv_strategies().get(s.spmv_name, c ? c->where("strategy") + ": spmv.strategy" : "spmv.strategy");
  s.spmv = entry.factory(c ? &*c : nullptr);
}

}  // namespace

double file_manufactured_solution(std::size_t i) {
  return 1.0 + 0.5 * std::sin(double(i) / 10.0);
}

solve_config read_solve_config(const config_node& root) {
  solve_config s;
  read_matrix(root, s);
  read_rhs(root, s);
  read_solver(root, s);
  read_spmv(root, s);
  if (auto out = optional_map(root, "output")) {
    s.solution_path = output_path(*out, "solution");
    s.history_path = output_path(*out, "history");
    s.summary_path = output_path(*out, "summary");
  }
  return s;
}

}  // namespace ppl
