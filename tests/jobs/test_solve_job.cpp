// `job: solve` end to end: job files written to a fresh temporary folder, loaded and run as `ppl run` does; the
// outputs are read back and checked against an independent host computation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppl/core/error.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/sparse/generators.hpp"
#include "sparse/krylov/krylov_test_support.hpp"
#include "support/ppl_test.hpp"

namespace ppl::test {
namespace {

namespace fs = std::filesystem;

class solve_job : public ::testing::Test {
 protected:
  fs::path dir;
  void SetUp() override {
    tmp = std::make_unique<ppl_test::temp_dir>();
    dir = tmp->path;
    fs::create_directories(dir / "in");
  }
  void TearDown() override { tmp.reset(); }
  std::unique_ptr<ppl_test::temp_dir> tmp;

  std::string write(const std::string& name, const std::string& text) {
    const auto p = dir / name;
    std::ofstream(p) << text;
    return p.string();
  }
  // Runs like `ppl run`: returns the exit code, output text in `log`.
  int run(const std::string& job_path, std::string& log, const std::vector<std::string>& overrides = {}) {
    auto j = load_job(job_path, overrides);
    std::ostringstream out;
    job_context ctx{out, false};
    const int rc = j->run(ctx);
    log = out.str();
    return rc;
  }
  std::string out(const std::string& name) const { return (dir / name).string(); }
};

TEST_F(solve_job, generated_manufactured_system_writes_solution_history_and_summary) {
  const auto job = write("job.yaml",
                         "job: solve\n"
                         "matrix: {generator: convection_diffusion, n: 10, peclet: 1.0}\n"
                         "rhs: manufactured\n"
                         "solver: {method: bicgstab, rtol: 1.0e-10, preconditioner: jacobi,\n"
                         "         progress_every: 5, profile: true}\n"
                         "spmv: {strategy: kokkos_kernels}\n"
                         "output:\n"
                         "  solution: " +
                             out("x.mtx") +
                             "\n"
                             "  history: " +
                             out("history.csv") +
                             "\n"
                             "  summary: " +
                             out("summary.json") + "\n");
  std::string log;
  ASSERT_EQ(run(job, log), 0) << log;
  EXPECT_NE(log.find("outcome: converged_rtol"), std::string::npos) << log;
  EXPECT_NE(log.find("iteration       5"), std::string::npos) << log;  // progress line
  EXPECT_NE(log.find("phases: spmv"), std::string::npos) << log;

  // The solution solves the same system, checked on the host.
  const auto sys = make_convection_diffusion({10, 1, 1.0, 1.0});
  const auto x = read_matrix_market_vector_host(out("x.mtx"));
  ASSERT_EQ(x.size(), std::size_t(sys.A.numRows()));
  EXPECT_LE(host_relative_residual(to_host(sys.A), to_host_vector(sys.b), x), 1.0e-10 * 1.01);

  nlohmann::json whole;
  std::ifstream(out("summary.json")) >> whole;
  EXPECT_EQ(whole["schema"], "ppl.summary/1");
  EXPECT_EQ(whole["job"], "solve");
  EXPECT_EQ(whole["outputs"].size(), 3u);  // x.mtx, history, summary
  const auto& s = whole["solve"];
  EXPECT_EQ(s["outcome"], "converged_rtol");
  EXPECT_EQ(s["matrix"]["rows"], 729);
  EXPECT_EQ(s["spmv"]["strategy"], "kokkos_kernels");
  EXPECT_EQ(s["solver"]["preconditioner"], "jacobi");
  EXPECT_LE(s["true_residual_relative"].get<double>(), 1.0e-10);
  // The absolute norm is the relative one times ||b||.
  EXPECT_NEAR(s["true_residual_norm"].get<double>(),
              s["true_residual_relative"].get<double>() * s["b_norm"].get<double>(),
              1e-12 * s["true_residual_norm"].get<double>());
  EXPECT_LT(s["error_vs_exact"]["relative_l2"].get<double>(), 1e-6);
  EXPECT_TRUE(s["timing"]["profiled"].get<bool>());
  EXPECT_EQ(s["breakdown_restarts"], 0);
  EXPECT_EQ(s["solver"]["max_restarts"], 10);
  EXPECT_NE(log.find("0 restarts after a breakdown, at most 10"), std::string::npos) << log;
  EXPECT_GT(s["timing"]["phases_s"]["spmv"].get<double>(), 0.0);

  std::ifstream h(out("history.csv"));
  std::string line;
  int lines = 0;
  std::getline(h, line);
  EXPECT_EQ(line, "iteration,residual_norm,relative_residual");
  while (std::getline(h, line)) ++lines;
  EXPECT_EQ(lines, s["iterations"].get<int>() + 1);
}

// output.matrix and output.rhs write the system as solved; ppl's own reader gets it back bit for bit (17
// significant digits), and it is the system the solution solves. (tests/cli/solve_mmread.sh reads the same files
// with scipy.io.mmread.) GMRES with restart and dtol from the job.
TEST_F(solve_job, output_matrix_and_rhs_write_the_generated_system) {
  const auto job = write("job.yaml",
                         "job: solve\n"
                         "matrix: {generator: convection_diffusion_3x, n: 5, peclet: 30}\n"
                         "rhs: manufactured\n"
                         "solver: {method: gmres, restart: 7, dtol: 1.0e3, rtol: 1.0e-10, preconditioner: jacobi}\n"
                         "output: {matrix: " +
                             out("A.mtx") + ", rhs: " + out("b.mtx") + ", solution: " + out("x.mtx") +
                             ", summary: " + out("s.json") + "}\n");
  std::string log;
  ASSERT_EQ(run(job, log), 0) << log;
  EXPECT_NE(log.find("solver: gmres(7), preconditioner jacobi"), std::string::npos) << log;
  EXPECT_NE(log.find("dtol 1000"), std::string::npos) << log;
  EXPECT_NE(log.find("wrote " + out("A.mtx")), std::string::npos) << log;
  const auto sys = make_convection_diffusion({5, 3, 30.0, 1.0});
  const host_csr expect = to_host(sys.A), got = read_matrix_market_host(out("A.mtx"));
  EXPECT_EQ(got.rows, expect.rows);
  EXPECT_EQ(got.row_map, expect.row_map);
  EXPECT_EQ(got.entries, expect.entries);
  EXPECT_EQ(got.values, expect.values);
  const auto b = read_matrix_market_vector_host(out("b.mtx"));
  EXPECT_EQ(b, to_host_vector(sys.b));
  EXPECT_LE(host_relative_residual(got, b, read_matrix_market_vector_host(out("x.mtx"))), 1.0e-10 * 1.01);
  nlohmann::json whole;
  std::ifstream(out("s.json")) >> whole;
  const auto& s = whole["solve"];
  EXPECT_EQ(s["solver"]["method"], "gmres");
  EXPECT_EQ(s["solver"]["restart"], 7);
  EXPECT_EQ(s["solver"]["dtol"], 1000.0);
  EXPECT_GT(s["timing"]["precond_setup_s"].get<double>(), 0.0);  // Jacobi's inverse diagonal, inside setup
  EXPECT_LE(s["timing"]["precond_setup_s"].get<double>(), s["timing"]["setup_s"].get<double>());
}

TEST_F(solve_job, matrix_and_rhs_files_are_relative_to_the_job_file) {
  // A 4x4 nonsymmetric system, b and x0 as Matrix Market files beside the job, in a subfolder.
  write("in/A.mtx",
        "%%MatrixMarket matrix coordinate real general\n4 4 8\n1 1 4\n2 2 5\n3 3 6\n4 4 7\n"
        "1 2 1\n2 3 -1\n3 4 2\n4 1 0.5\n");
  write("in/b.mtx", "%%MatrixMarket matrix array real general\n4 1\n1\n2\n3\n4\n");
  write("in/x0.mtx", "%%MatrixMarket matrix array real general\n4 1\n0.1\n0.1\n0.1\n0.1\n");
  const auto job = write("in/job.yaml",
                         "job: solve\nmatrix: {file: A.mtx}\nrhs: {file: b.mtx}\n"
                         "solver: {method: bicg, rtol: 1.0e-12, initial_guess: {file: x0.mtx}}\n"
                         "output: {solution: " +
                             out("x.mtx") + "}\n");
  std::string log;
  ASSERT_EQ(run(job, log), 0) << log;
  const auto A = csr_from_dense({{4, 1, 0, 0}, {0, 5, -1, 0}, {0, 0, 6, 2}, {0.5, 0, 0, 7}});
  EXPECT_LE(host_relative_residual(A, {1, 2, 3, 4}, read_matrix_market_vector_host(out("x.mtx"))), 1.01e-12);
}

TEST_F(solve_job, not_converging_exits_4_and_still_writes_the_summary) {
  const auto job = write("job.yaml",
                         "job: solve\nmatrix: {generator: convection_diffusion_3x, n: 6}\n"
                         "solver: {max_iters: 2}\noutput: {summary: " +
                             out("s.json") + "}\n");
  std::string log;
  EXPECT_EQ(run(job, log, {"spmv.strategy=kokkos_kernels"}), 4) << log;
  nlohmann::json whole;
  std::ifstream(out("s.json")) >> whole;
  const auto& s = whole["solve"];
  EXPECT_EQ(s["outcome"], "diverged_max_iters");
  EXPECT_EQ(s["iterations"], 2);
  EXPECT_EQ(s["matrix"]["rows"], 375);
}

TEST_F(solve_job, a_bad_key_names_file_and_line) {
  const auto job = write("job.yaml",
                         "job: solve\nmatrix: {generator: convection_diffusion, n: 4}\n"
                         "solver:\n  method: bicgstab\n  rtoll: 1e-6\n");
  try {
    load_job(job, {});
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("job.yaml:5:3: unknown key 'rtoll' in 'solver'"), std::string::npos)
        << e.what();
  }
}

TEST_F(solve_job, an_output_may_not_overwrite_the_matrix) {
  const auto A = write("in/A.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 2.0\n2 2 3.0\n");
  const auto job = write("job.yaml", "job: solve\nmatrix: {file: in/A.mtx}\noutput: {solution: " + A + "}\n");
  const auto msg = ppl_test::error_of<input_error>([&] { load_job(job, {}); });
  EXPECT_NE(msg.find("job.yaml:3:10: 'output.solution' would overwrite an input"), std::string::npos) << msg;
  std::ifstream in(A);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}).substr(0, 14), "%%MatrixMarket");
}

// ILU(0)'s parameters in the job: the text names them (given or default) and what the set-up built; the summary
// carries both.
TEST_F(solve_job, ilu0_parameters_and_what_was_built_are_reported) {
  const auto job =
      write("job.yaml",
            "job: solve\n"
            "matrix: {generator: convection_diffusion, n: 8, peclet: 10.0}\n"
            "rhs: manufactured\n"
            "solver:\n"
            "  preconditioner: ilu0\n"
            "  preconditioner_params: {factorization: parallel, triangular_solve: jacobi, solve_sweeps: 3}\n"
            "output: {summary: " +
                out("s.json") + "}\n");
  std::string log;
  ASSERT_EQ(run(job, log), 0) << log;
  EXPECT_NE(log.find("preconditioner ilu0 (factor_sweeps: 3, factorization: parallel, solve_sweeps: 3, "
                     "triangular_solve: jacobi)"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("preconditioner: ilu0: parallel factors (3 sweeps, residual "), std::string::npos) << log;
  EXPECT_NE(log.find("jacobi solves (3 sweeps)"), std::string::npos) << log;
  nlohmann::json whole;
  std::ifstream(out("s.json")) >> whole;
  const auto& solver = whole["solve"]["solver"];
  EXPECT_EQ(solver["preconditioner_params"]["factorization"], "parallel");
  EXPECT_EQ(solver["preconditioner_params"]["factor_sweeps"], 3);
  EXPECT_EQ(solver["preconditioner_params"]["solve_sweeps"], 3);
  EXPECT_EQ(solver["preconditioner_built"].get<std::string>().rfind("ilu0: parallel factors (3 sweeps", 0), 0u);
}

TEST_F(solve_job, bad_values_are_input_errors_before_any_work) {
  struct bad {
    std::string yaml, expect;
  };
  const std::vector<bad> cases = {
      {"matrix: {file: missing.mtx}\n", "job.yaml:2:10: 'matrix.file': cannot open"},
      {"matrix: {generator: poisson}\n", "'matrix.generator' = 'poisson' is not one of"},
      {"matrix: {generator: convection_diffusion, n: 1}\n", "out of range"},
      {"matrix: {generator: convection_diffusion, n: 4, coupling: 2}\n", "unknown key 'coupling'"},
      {"matrix: {generator: convection_diffusion, n: 4}\nsolver: {method: gmres2}\n", "unknown solver 'gmres2'"},
      {"matrix: {generator: convection_diffusion, n: 4}\nsolver: {method: gmres, restart: 0}\n",
       "job.yaml:3:34: 'solver.restart' = 0 is outside [1, 10000]"},
      {"matrix: {generator: convection_diffusion, n: 4}\nsolver: {dtol: 1}\n",
       "job.yaml:3:16: 'solver.dtol' = 1 must be greater than 1"},
      {"matrix: {generator: convection_diffusion, n: 4}\nsolver: {dtol: .nan}\n", "'solver.dtol' = nan must be"},
      {"matrix: {generator: convection_diffusion, n: 4}\noutput: {matrix: m.mtx, rhs: ./m.mtx}\n",
       "would overwrite another output"},
      {"matrix: {generator: convection_diffusion, n: 4}\nsolver: {preconditioner: ilu}\n",
       "is not one of: none, jacobi"},
      {"matrix: {generator: convection_diffusion, n: 4}\nspmv: {strategy: magic}\n", "unknown spmv strategy 'magic'"},
      {"matrix: {generator: convection_diffusion, n: 4}\nrhs: twos\n", "'rhs' = 'twos' is not one of"},
      {"matrix: {generator: convection_diffusion, n: 4}\noutput: {summary: /nonexistent/dir/s.json}\n",
       "output folder '/nonexistent/dir' does not exist"},
      {"matrix: {generator: convection_diffusion, n: 4}\noutput: {summary: s.json, history: ./s.json}\n",
       "job.yaml:3:10: 'output.summary' would overwrite another output './s.json' (output.history)"},
      {"matrix: {generator: convection_diffusion, n: 4}\nsolver: {rtol: 0}\n", "both 0"},
      {"matrix: {generator: convection_diffusion, n: 4}\nsolver: {max_restarts: -1}\n", "out of range"},
      {"matrix: {generator: convection_diffusion, n: 4}\nsolver: {initial_guess: ones}\n", "is not one of: zero"},
      {"matrix: {generator: convection_diffusion, n: 4}\nrhs: {file: nothere.mtx}\n", "'rhs.file': cannot open"},
      {"matrix: {generator: convection_diffusion, n: 4}\n"
       "solver: {preconditioner: ilu0, preconditioner_params: {factorization: approximate}}\n",
       "job.yaml:3:71: 'solver.preconditioner_params.factorization' = approximate is not one of auto, exact, "
       "parallel"},
      {"matrix: {generator: convection_diffusion, n: 4}\n"
       "solver: {preconditioner: ilu0, preconditioner_params: {solve_sweeps: -1}}\n",
       "'solver.preconditioner_params.solve_sweeps' = -1 is outside [0, 10000]"},
      {"matrix: {generator: convection_diffusion, n: 4}\n"
       "solver: {preconditioner: ilu0, preconditioner_params: {sweeps: 3}}\n",
       "job.yaml:3:56: unknown key 'sweeps' in 'solver.preconditioner_params'"},
  };
  for (const auto& c : cases) {
    const auto job = write("job.yaml", "job: solve\n" + c.yaml);
    try {
      load_job(job, {});
      ADD_FAILURE() << "expected an input_error for:\n" << c.yaml;
    } catch (const input_error& e) {
      EXPECT_NE(std::string(e.what()).find(c.expect), std::string::npos) << c.yaml << " -> " << e.what();
    }
  }
}

// `ppl validate` is load_job: whatever the matrix, rhs and x0 headers rule out must fail there, before any work
// (a matrix file without a banner once validated "ok" and only the run exited 2).
TEST_F(solve_job, input_file_headers_are_checked_when_the_job_is_read) {
  const std::string mm = "%%MatrixMarket matrix coordinate real general\n";
  const std::string vec3 = "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n";
  write("good.mtx", mm + "3 3 3\n1 1 1\n2 2 1\n3 3 1\n");
  write("b3.mtx", vec3);
  struct bad {
    std::string files, yaml, expect;
  };
  const std::vector<bad> cases = {
      {"A.mtx=3 3 1\n1 1 1\n", "matrix: {file: A.mtx}\n", "matrix.file: " + out("A.mtx") + ":1: bad header"},
      {"A.mtx=" + mm + "3 4 4\n1 1 1\n2 2 1\n3 3 1\n3 4 1\n", "matrix: {file: A.mtx}\n",
       "A.mtx:2: the matrix is not square (3 x 4)"},
      {"A.mtx=" + mm + "0 0 0\n", "matrix: {file: A.mtx}\n", "A.mtx:2: the matrix has no rows"},
      {"A.mtx=" + mm + "3 3 2\n1 1 1\n2 2 1\n", "matrix: {file: A.mtx}\n",
       "A.mtx:2: 2 general entries cannot fill all 3 rows: the system is structurally singular"},
      {"A.mtx=%%MatrixMarket matrix coordinate real symmetric\n5 5 2\n2 1 1\n4 3 1\n", "matrix: {file: A.mtx}\n",
       "2 symmetric entries cannot fill all 5 rows"},
      {"A.mtx=%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n3 2 1\n", "matrix: {file: A.mtx}\n",
       "a skew-symmetric matrix of odd order (3) is singular"},
      {"A.mtx=" + mm + "1000000000 1000000000 1\n1 1 1\n", "matrix: {file: A.mtx}\n", "structurally singular"},
      {"A.mtx=%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "matrix: {file: A.mtx}\n",
       "unsupported field 'complex'"},
      {"b.mtx=%%MatrixMarket matrix array real general\n4 1\n1\n2\n3\n4\n",
       "matrix: {file: good.mtx}\nrhs: {file: b.mtx}\n",
       "rhs.file: " + out("b.mtx") + ":2: 4 entries, but the matrix has 3 rows"},
      {"b.mtx=" + mm + "3 1 3\n1 1 1\n2 1 1\n3 1 1\n", "matrix: {file: good.mtx}\nrhs: {file: b.mtx}\n",
       "rhs.file: " + out("b.mtx") + ":1: expected an 'array'"},
      {"b.mtx=%%MatrixMarket matrix array real general\n27 2\n",
       "matrix: {generator: convection_diffusion, n: 4}\nrhs: {file: b.mtx}\n", "expected a vector (n x 1)"},
      {"b.mtx=" + vec3, "matrix: {generator: convection_diffusion, n: 4}\nrhs: {file: b.mtx}\n",
       "3 entries, but the matrix has 27 rows"},
      {"x.mtx=%%MatrixMarket matrix array real general\n",
       "matrix: {file: good.mtx}\nsolver: {initial_guess: {file: x.mtx}}\n",
       "solver.initial_guess.file: " + out("x.mtx") + ":1: missing size line"},
      {"x.mtx=%%MatrixMarket matrix array real general\n2 1\n1\n2\n",
       "matrix: {file: good.mtx}\nrhs: {file: b3.mtx}\nsolver: {initial_guess: {file: x.mtx}}\n",
       "solver.initial_guess.file: " + out("x.mtx") + ":2: 2 entries, but the matrix has 3 rows"},
  };
  for (const auto& c : cases) {
    const auto eq = c.files.find('=');
    write(c.files.substr(0, eq), c.files.substr(eq + 1));
    const auto job = write("job.yaml", "job: solve\n" + c.yaml);
    const std::string msg = ppl_test::error_of<input_error>([&] { load_job(job, {}); });
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.yaml << " -> " << msg;
    EXPECT_NE(msg.find("job.yaml:"), std::string::npos) << msg;  // and the job key that named the file
  }
}

// Only the entries show an empty row or column; a run refuses such a matrix before solving and writes nothing (it
// once ran the solver to max_iters on a system that has no solution).
TEST_F(solve_job, an_empty_row_or_column_is_an_input_error_before_solving) {
  const std::string mm = "%%MatrixMarket matrix coordinate real general\n";
  for (const auto& [text, expect] : std::vector<std::pair<std::string, std::string>>{
           {mm + "3 3 3\n1 1 1\n2 2 1\n2 3 1\n", "row 3 (1-based) has no entries: the system is singular"},
           {mm + "3 3 3\n1 1 1\n2 2 1\n3 2 1\n", "column 3 (1-based) has no entries: the system is singular"}}) {
    write("A.mtx", text);
    const auto job = write("job.yaml", "job: solve\nmatrix: {file: A.mtx}\noutput: {summary: " + out("s.json") + "}\n");
    std::string log;
    const std::string msg = ppl_test::error_of<input_error>([&] { run(job, log); });
    EXPECT_NE(msg.find("matrix.file: '" + out("A.mtx") + "': " + expect), std::string::npos) << msg;
    EXPECT_FALSE(fs::exists(out("s.json")));
  }
}

TEST_F(solve_job, zero_diagonal_with_jacobi_is_an_input_error_and_writes_nothing) {
  write("A.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 2\n2 3 1\n3 2 1\n3 3 2\n");
  const auto job = write("job.yaml",
                         "job: solve\nmatrix: {file: A.mtx}\nsolver: {preconditioner: jacobi}\n"
                         "output: {summary: " +
                             out("s.json") + "}\n");
  std::string log;
  try {
    run(job, log);
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("row 2 (1-based) has no diagonal entry"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(out("s.json")));
}

// The memory a solve will allocate is checked when the job is read: GMRES(10000) on 27 million rows needs 2 TiB
// for its basis, more than any machine the tests run on, so validation refuses it naming solver.restart, with the
// size it needs and the limit, before anything is allocated.
TEST_F(solve_job, a_solve_larger_than_memory_is_refused_when_the_job_is_read) {
  const auto job = write("job.yaml",
                         "job: solve\n"
                         "matrix: {generator: convection_diffusion, n: 300}\n"
                         "solver: {method: gmres, restart: 10000}\n"
                         "output: {summary: " +
                             out("s.json") + "}\n");
  const std::string msg = ppl_test::error_of<input_error>([&] { load_job(job, {}); });
  EXPECT_NE(msg.find("job.yaml:3:25: 'solver.restart' = 10000: the solve needs 1.95"), std::string::npos) << msg;
  EXPECT_NE(msg.find("TiB of "), std::string::npos) << msg;
  EXPECT_NE(msg.find("GMRES Krylov basis (10001 x 26730899 doubles)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("more than the "), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(out("s.json")));
}

namespace {

// A nonsymmetric tridiagonal system of n rows, every value times 2^e, as a Matrix Market file's text.
std::string tridiagonal(int n, int e) {
  std::string t = "%%MatrixMarket matrix coordinate real general\n" + std::to_string(n) + " " + std::to_string(n) +
                  " " + std::to_string(3 * n - 2) + "\n";
  char buf[96];
  for (int i = 1; i <= n; ++i)
    for (const auto& [j, v] : {std::pair{i - 1, -1.3}, std::pair{i, 4.0 + 0.01 * i}, std::pair{i + 1, -0.7}})
      if (j >= 1 && j <= n) {
        std::snprintf(buf, sizeof buf, "%d %d %.17g\n", i, j, std::ldexp(v, e));
        t += buf;
      }
  return t;
}

}  // namespace

// Entries like 1e300 (or 1e-300) in a well-conditioned system: the norms of the unscaled iteration would overflow
// (||b||^2 ~ 1e600: diverged_nan). The solve scales by powers of two, which changes only exponents, so it takes
// exactly the iterations of the same system at scale 1: the same relative residuals, bit for bit, and a solution
// that is the scale-1 solution times 2^-e exactly. The outputs are in the input's units (output.matrix gives the
// file's values back).
TEST_F(solve_job, huge_and_tiny_entries_solve_as_the_same_system_at_scale_one) {
  auto solve = [&](int e, const std::string& method, nlohmann::json& s, std::vector<double>& x,
                   std::vector<double>& history) {
    write("A.mtx", tridiagonal(40, e));
    const auto job =
        write("job.yaml", "job: solve\nmatrix: {file: A.mtx}\nsolver: {method: " + method +
                              ", rtol: 1.0e-12}\noutput: {solution: " + out("x.mtx") + ", history: " + out("h.csv") +
                              ", summary: " + out("s.json") + ", matrix: " + out("A_out.mtx") + "}\n");
    std::string log;
    EXPECT_EQ(run(job, log), 0) << log;
    nlohmann::json whole;
    std::ifstream(out("s.json")) >> whole;
    s = whole["solve"];
    x = read_matrix_market_vector_host(out("x.mtx"));
    history.clear();
    std::ifstream h(out("h.csv"));
    std::string line;
    std::getline(h, line);
    while (std::getline(h, line)) history.push_back(std::stod(line.substr(line.rfind(',') + 1)));
    // output.matrix is the file's matrix, not the scaled one.
    const host_csr in = read_matrix_market_host(out("A.mtx")), back = read_matrix_market_host(out("A_out.mtx"));
    EXPECT_EQ(in.values, back.values) << "scale 2^" << e;
  };
  for (const std::string method : {"bicgstab", "gmres", "bicg"}) {
    nlohmann::json s1;
    std::vector<double> x1, h1;
    solve(0, method, s1, x1, h1);
    ASSERT_EQ(s1["outcome"], "converged_rtol") << method;
    for (int e : {997, -997, 150}) {  // about 1e300, 1e-300, 1e45
      nlohmann::json s;
      std::vector<double> x, h;
      solve(e, method, s, x, h);
      SCOPED_TRACE(method + " at 2^" + std::to_string(e));
      EXPECT_EQ(s["outcome"], "converged_rtol");
      EXPECT_EQ(s["iterations"], s1["iterations"]);
      EXPECT_EQ(s["true_residual_relative"], s1["true_residual_relative"]);
      ASSERT_EQ(x.size(), x1.size());
      for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i], std::ldexp(x1[i], -e)) << "x_" << i;
      EXPECT_EQ(h, h1);  // the relative residuals: b = ones has ||b|| = sqrt(40) at every scale
      EXPECT_EQ(s["b_norm"], s1["b_norm"]);
      EXPECT_EQ(s["true_residual_norm"], s1["true_residual_norm"]);
    }
  }
}

// A right-hand side and an initial guess of 1e300 with a matrix of ordinary size: the solution is of the same size.
TEST_F(solve_job, a_huge_rhs_and_initial_guess_keep_their_units) {
  write("A.mtx", tridiagonal(12, 0));
  std::string b = "%%MatrixMarket matrix array real general\n12 1\n", x0 = b;
  for (int i = 0; i < 12; ++i) b += "1e300\n", x0 += "3e299\n";
  write("b.mtx", b);
  write("x0.mtx", x0);
  const auto job = write("job.yaml",
                         "job: solve\nmatrix: {file: A.mtx}\nrhs: {file: b.mtx}\n"
                         "solver: {rtol: 1.0e-12, initial_guess: {file: x0.mtx}}\n"
                         "output: {solution: " +
                             out("x.mtx") + ", summary: " + out("s.json") + "}\n");
  std::string log;
  ASSERT_EQ(run(job, log), 0) << log;
  nlohmann::json whole;
  std::ifstream(out("s.json")) >> whole;
  const auto& s = whole["solve"];
  EXPECT_EQ(s["outcome"], "converged_rtol");
  EXPECT_NEAR(s["b_norm"].get<double>() / (1e300 * std::sqrt(12.0)), 1.0, 1e-14);
  const auto x = read_matrix_market_vector_host(out("x.mtx"));
  const host_csr A = read_matrix_market_host(out("A.mtx"));
  // b - A x, relative, on the host with the values divided by 1e300 first (the products would overflow no sum).
  std::vector<double> xs(x.size()), bs(x.size(), 1.0);
  for (std::size_t i = 0; i < x.size(); ++i) xs[i] = x[i] / 1e300;
  EXPECT_LE(host_relative_residual(A, bs, xs), 1e-11);
}

}  // namespace
}  // namespace ppl::test
