// `job: solve`: a sparse system from a Matrix Market file or a generator, solved by a Krylov solver on an SpMV
// strategy; prints a summary and writes the solution (Matrix Market array), the residual history (CSV) and a
// summary (JSON). Exit 4 (not_converged) when the solver stops without meeting its tolerance; the outputs are
// written either way. Keys: docs/config.md, section "solve".
#include <fmt/format.h>

#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_nrminf.hpp>
#include <KokkosBlas1_scal.hpp>
#include <KokkosSparse_spmv.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>
#include <utility>

#include "ppl/core/error.hpp"
#include "ppl/core/huge_pages.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/job_kinds.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "solve_config.hpp"
#include "solve_run.hpp"

namespace ppl {
namespace {

vector_view host_function_vector(std::size_t n, double (*f)(std::size_t), const std::string& label) {
  vector_view v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
  advise_huge_pages(v);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < n; ++i) h(i) = f(i);
  Kokkos::deep_copy(v, h);
  return v;
}

class solve_job final : public job {
 public:
  explicit solve_job(const config_node& c) : cfg_(read_solve_config(c)), job_file_(c.job_file()) {}
  int run(job_context& ctx) override;

 private:
  void write_outputs(const solve_system& sys, const solver_result& r, vector_view x,
                     const nlohmann::ordered_json& summary) const;

  solve_config cfg_;
  std::string job_file_;
};

}  // namespace

solve_system load_solve_system(solve_config& cfg) {
  solve_system s;
  Kokkos::Timer t;
  if (!cfg.matrix_file.empty()) {
    s.A = to_device(*cfg.matrix_host, cfg.matrix_file);  // read and checked with the job file
    cfg.matrix_host.reset();
    s.description = cfg.matrix_file;
  } else {
    auto g = make_convection_diffusion(cfg.gen);
    s.A = g.A;
    s.description = g.description;
    if (cfg.rhs == solve_config::rhs_kind::manufactured) {
      s.b = g.b;
      s.x_exact = g.x_exact;
    }
  }
  const std::size_t n = s.A.numRows();
  switch (cfg.rhs) {
    case solve_config::rhs_kind::ones:
      s.b = make_large_view<vector_view>("ppl::solve::b", n);
      Kokkos::deep_copy(s.b, 1.0);
      break;
    case solve_config::rhs_kind::manufactured:
      if (!s.x_exact.data()) {  // a matrix file: our own x*, b = A x*
        s.x_exact = host_function_vector(n, file_manufactured_solution, "ppl::solve::x_exact");
        s.b = make_large_view<vector_view>("ppl::solve::b", n);
        KokkosSparse::spmv("N", 1.0, s.A, s.x_exact, 0.0, s.b);
      }
      break;
    case solve_config::rhs_kind::file:
      s.b = to_device(cfg.rhs_host, "ppl::solve::b");  // its length was checked with the job file
      break;
  }
  // Powers of two that keep the solve's norms in range (system_scaling.hpp); before prepare(), which may keep
  // what it derives from A's values.
  double x0_max = 0;
  for (double v : cfg.x0_host) x0_max = std::max(x0_max, std::fabs(v));
  s.scaling =
      choose_system_scaling(n ? KokkosBlas::nrminf(s.A.values) : 0.0, n ? KokkosBlas::nrminf(s.b) : 0.0, x0_max);
  if (s.scaling.matrix_exponent != 0) KokkosBlas::scal(s.A.values, s.scaling.matrix(), s.A.values);
  if (!s.scaling.identity()) {
    vector_view b = make_large_view<vector_view>("ppl::solve::b", n);
    Kokkos::deep_copy(b, s.b);  // a generator's b may be shared with its other views
    KokkosBlas::scal(b, s.scaling.residual(), b);
    s.b = b;
  }
  cfg.spmv->prepare(s.A);
  Kokkos::fence();
  s.seconds = t.seconds();
  return s;
}

host_csr solve_system::matrix() const {
  host_csr h = to_host(A);
  if (scaling.matrix_exponent != 0)
    for (double& v : h.values) v = std::ldexp(v, -scaling.matrix_exponent);
  return h;
}

std::vector<double> solve_system::rhs() const {
  std::vector<double> h = to_host(b);
  if (!scaling.identity())
    for (double& v : h) v = std::ldexp(v, -(scaling.matrix_exponent + scaling.solution_exponent));
  return h;
}

solve_run run_solve(const solve_config& cfg, const solve_system& sys, const solver_options& options) {
  const std::size_t n = sys.A.numRows();
  solve_run out;
  out.x = make_large_view<vector_view>("ppl::solve::x", n);
  if (!cfg.x0_file.empty()) Kokkos::deep_copy(out.x, to_device(cfg.x0_host, "ppl::solve::x0"));
  const system_scaling& sc = sys.scaling;
  auto scaled = options;
  if (!sc.identity()) {
    if (sc.solution_exponent != 0 && !cfg.x0_file.empty()) KokkosBlas::scal(out.x, sc.solution(), out.x);
    scaled.atol = options.atol * sc.residual();
  }
  auto solver = make_solver(cfg.method, scaled, cfg.method_params);
  out.result = solver->solve(execution(), sys.A, *cfg.spmv, sys.b, out.x);
  if (!sc.identity()) {  // back to the units of the input: x = x' / s_x, r = r' / (s_A s_x)
    if (sc.solution_exponent != 0) KokkosBlas::scal(out.x, 1.0 / sc.solution(), out.x);
    auto& r = out.result;
    const int e = -(sc.matrix_exponent + sc.solution_exponent);
    r.b_norm = std::ldexp(r.b_norm, e);
    r.residual_norm = std::ldexp(r.residual_norm, e);
    r.true_residual_norm = std::ldexp(r.true_residual_norm, e);
    if (!(r.b_norm > 0)) r.true_residual = r.true_residual_norm;
    for (double& h : r.history) h = std::ldexp(h, e);
  }
  if (sys.x_exact.data()) {
    vector_view e("ppl::solve::error", n);
    Kokkos::deep_copy(e, out.x);
    KokkosBlas::axpy(-1.0, sys.x_exact, e);
    out.error_l2 = std::sqrt(KokkosBlas::dot(e, e) / KokkosBlas::dot(sys.x_exact, sys.x_exact));
    out.error_max = KokkosBlas::nrminf(e);
  }
  return out;
}

namespace {

int solve_job::run(job_context& ctx) {
  const auto sys = load_solve_system(cfg_);
  const std::size_t n = sys.A.numRows();
  const double nnz_per_row = n ? double(sys.A.nnz()) / double(n) : 0.0;
  ctx.out << fmt::format("solve: {} rows, {} nonzeros ({:.2f} per row), loaded in {:.3f} s\n", n, sys.A.nnz(),
                         nnz_per_row, sys.seconds);
  // The method's parameters, given or default: GMRES(30).
  const auto method_params = with_defaults(solvers().get(cfg_.method, "solver.method").parameters, cfg_.method_params);
  std::string method_text;
  for (const auto& [name, v] : method_params) method_text += (method_text.empty() ? "" : ", ") + value_text(v);
  // The preconditioner's parameters, given or default, by name (several choices read better named).
  const auto precond_params =
      with_defaults(preconditioners().get(cfg_.options.preconditioner, "solver.preconditioner").parameters,
                    cfg_.options.preconditioner_params);
  std::string precond_text;
  for (const auto& [name, v] : precond_params)
    precond_text += (precond_text.empty() ? "" : ", ") + name + ": " + value_text(v);
  ctx.out << fmt::format(
      "  matrix: {}\n  spmv:   {} ({})\n  solver: {}{}, preconditioner {}, rtol {:g}, atol {:g}, dtol {:g}, "
      "max_iters {}\n",
      sys.description, cfg_.spmv_name, cfg_.spmv->describe(), cfg_.method,
      method_text.empty() ? "" : "(" + method_text + ")",
      cfg_.options.preconditioner + (precond_text.empty() ? "" : " (" + precond_text + ")"), cfg_.options.rtol,
      cfg_.options.atol, cfg_.options.dtol, cfg_.options.max_iters);
  auto options = cfg_.options;
  if (!ctx.quiet)
    options.progress = [&](int k, double rel) {
      ctx.out << fmt::format("  iteration {:>7}  ||r||/||b|| = {:.3e}\n", k, rel) << std::flush;
    };
  else
    options.progress_every = 0;
  const auto run = run_solve(cfg_, sys, options);
  const auto& r = run.result;
  const vector_view x = run.x;
  const double err_l2 = run.error_l2, err_max = run.error_max;
  const double per_iter = r.iterations ? r.times.iterate / r.iterations : 0.0;
  ctx.out << fmt::format(
      "  outcome: {}{} after {} iterations ({} residual replacements, {} restarts after a "
      "breakdown, at most {})\n",
      to_string(r.outcome), r.breakdown.empty() ? "" : " (" + r.breakdown + ")", r.iterations, r.restarts,
      r.breakdown_restarts, cfg_.options.max_restarts);
  ctx.out << fmt::format("  true residual ||b - Ax||/||b|| = {:.3e} (recursive {:.3e})\n", r.true_residual,
                         r.b_norm > 0 ? r.residual_norm / r.b_norm : r.residual_norm);
  if (err_l2 >= 0) ctx.out << fmt::format("  error vs x*: relative L2 {:.3e}, max {:.3e}\n", err_l2, err_max);
  if (!precond_text.empty()) ctx.out << fmt::format("  preconditioner: {}\n", r.preconditioner);
  ctx.out << fmt::format(
      "  time: total {:.4f} s (setup {:.4f}, of it preconditioner {:.4f}; iterations {:.4f}, {:.3f} ms per "
      "iteration)\n",
      r.times.total, r.times.setup, r.times.precond_setup, r.times.iterate, 1e3 * per_iter);
  if (r.times.profiled) {
    const double sum = r.times.spmv + r.times.dot + r.times.update + r.times.precond + r.times.host;
    auto pct = [&](double v) { return sum > 0 ? 100.0 * v / sum : 0.0; };
    ctx.out << fmt::format(
        "  phases: spmv {:.1f}%, dot {:.1f}%, update {:.1f}%, precond {:.1f}%, host {:.1f}% "
        "(fenced; {:.4f} s)\n",
        pct(r.times.spmv), pct(r.times.dot), pct(r.times.update), pct(r.times.precond), pct(r.times.host), sum);
  } else {
    ctx.out << "  phases: not measured (solver.profile: true fences each phase to time it)\n";
  }

  // The summary (docs/summary.schema.json): the common header, the files and the solve's own part.
  using json = nlohmann::ordered_json;
  json j = json::parse(summary_header_json(query_system_info(), "solve", job_file_));
  j["outputs"] = json::array();
  // Listed without size or write time: the summary is written among them.
  const std::pair<const std::optional<std::string>*, const char*> files[] = {
      {&cfg_.solution_path, "matrix_market_array"},
      {&cfg_.history_path, "csv"},
      {&cfg_.summary_path, "json"},
      {&cfg_.matrix_out_path, "matrix_market"},
      {&cfg_.rhs_out_path, "matrix_market_array"}};
  for (const auto& [path, format] : files)
    if (*path) j["outputs"].push_back({{"path", **path}, {"format", format}, {"bytes", nullptr}, {"write_s", nullptr}});
  json solver = {{"method", cfg_.method},
                 {"preconditioner", cfg_.options.preconditioner},
                 {"rtol", cfg_.options.rtol},
                 {"atol", cfg_.options.atol},
                 {"max_iters", cfg_.options.max_iters},
                 {"breakdown_tol", cfg_.options.breakdown_tol},
                 {"max_restarts", cfg_.options.max_restarts},
                 {"dtol", cfg_.options.dtol}};
  for (const auto& [name, v] : method_params)  // GMRES: "restart"
    solver[name] = std::visit([](const auto& value) { return json(value); }, v);
  if (!precond_params.empty()) {  // ILU(0): its parameters and what `auto` chose
    json pp = json::object();
    for (const auto& [name, v] : precond_params)
      pp[name] = std::visit([](const auto& value) { return json(value); }, v);
    solver["preconditioner_params"] = std::move(pp);
    solver["preconditioner_built"] = r.preconditioner;
  }
  json timing = {{"load_s", sys.seconds},
                 {"total_s", r.times.total},
                 {"setup_s", r.times.setup},
                 {"precond_setup_s", r.times.precond_setup},
                 {"iterate_s", r.times.iterate},
                 {"finish_s", r.times.finish},
                 {"per_iteration_s", r.iterations ? json(per_iter) : json(nullptr)},
                 {"profiled", r.times.profiled},
                 {"phases_s", nullptr}};
  if (r.times.profiled)
    timing["phases_s"] = {{"spmv", r.times.spmv},
                          {"dot", r.times.dot},
                          {"update", r.times.update},
                          {"precond", r.times.precond},
                          {"host", r.times.host}};
  j["solve"] = {
      {"matrix", {{"source", sys.description}, {"rows", n}, {"nnz", sys.A.nnz()}, {"nnz_per_row", nnz_per_row}}},
      {"spmv", {{"strategy", cfg_.spmv_name}, {"mapping", cfg_.spmv->describe()}}},
      {"solver", std::move(solver)},
      {"outcome", to_string(r.outcome)},
      {"converged", is_converged(r.outcome)},
      {"breakdown", r.breakdown.empty() ? json(nullptr) : json(r.breakdown)},
      {"iterations", r.iterations},
      {"restarts", r.restarts},
      {"breakdown_restarts", r.breakdown_restarts},
      {"b_norm", r.b_norm},
      {"true_residual_norm", r.true_residual_norm},
      {"true_residual_relative", r.true_residual},
      {"recursive_residual_norm", r.residual_norm},
      {"recursive_residual_relative", r.b_norm > 0 ? r.residual_norm / r.b_norm : r.residual_norm},
      {"timing", std::move(timing)},
      {"error_vs_exact", err_l2 >= 0 ? json({{"relative_l2", err_l2}, {"max_abs", err_max}}) : json(nullptr)}};
  write_outputs(sys, r, x, j);
  for (const auto& p :
       {cfg_.solution_path, cfg_.history_path, cfg_.summary_path, cfg_.matrix_out_path, cfg_.rhs_out_path})
    if (p) ctx.out << "wrote " << *p << "\n";
  return is_converged(r.outcome) ? 0 : static_cast<int>(exit_code::not_converged);
}

void solve_job::write_outputs(const solve_system& sys, const solver_result& r, vector_view x,
                              const nlohmann::ordered_json& summary) const {
  // Staged and committed together after the last one is complete: a failure on the way leaves all the old files.
  output_set set;
  if (cfg_.solution_path)
    write_matrix_market_vector(*cfg_.solution_path, x,
                               "ppl solve: " + cfg_.method + " on " + sys.description + ", " + to_string(r.outcome));
  if (cfg_.history_path)
    write_file_atomically(*cfg_.history_path, [&](std::ostream& o) {
      o << "iteration,residual_norm,relative_residual\n";
      for (std::size_t k = 0; k < r.history.size(); ++k)
        o << fmt::format("{},{:.17g},{:.17g}\n", k, r.history[k],
                         r.b_norm > 0 ? r.history[k] / r.b_norm : r.history[k]);
    });
  // The system as solved, so that another tool (scipy.io.mmread, PETSc, MATLAB) can check the solution.
  if (cfg_.matrix_out_path)
    write_matrix_market(*cfg_.matrix_out_path, sys.matrix(), "ppl solve: A of " + sys.description);
  if (cfg_.rhs_out_path)
    write_matrix_market_vector(*cfg_.rhs_out_path, sys.rhs(), "ppl solve: b of " + sys.description);
  if (cfg_.summary_path)
    write_file_atomically(*cfg_.summary_path, [&](std::ostream& o) { o << summary.dump(2) << "\n"; });
  set.commit();
}

}  // namespace

std::unique_ptr<job> make_solve_job(const config_node& c) {
  return std::make_unique<solve_job>(c);
}

}  // namespace ppl
