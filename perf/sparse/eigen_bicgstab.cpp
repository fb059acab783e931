// Eigen 3.4 BiCGSTAB<SparseMatrix<double, RowMajor>, DiagonalPreconditioner> (see eigen_bicgstab.hpp). Eigen runs
// the row-major sparse x dense products on `threads` OpenMP threads; its vector updates are serial.
#define EIGEN_NO_CUDA
#include "eigen_bicgstab.hpp"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>
#include <chrono>
#include <memory>

namespace ppl::bench {
namespace {

using sp_matrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

struct cached_matrix {
  const host_csr* source = nullptr;
  std::size_t nnz = 0;
  sp_matrix A;
};
std::unique_ptr<cached_matrix> cache;

const sp_matrix& eigen_matrix(const host_csr& h) {
  if (cache && cache->source == &h && cache->nnz == h.values.size()) return cache->A;
  cache = std::make_unique<cached_matrix>();
  cache->source = &h;
  cache->nnz = h.values.size();
  auto& A = cache->A;
  A.resize(h.rows, h.cols);
  std::vector<int> counts(h.rows);
  for (int i = 0; i < h.rows; ++i) counts[i] = int(h.row_map[i + 1] - h.row_map[i]);
  A.reserve(Eigen::Map<const Eigen::VectorXi>(counts.data(), h.rows));
  for (int i = 0; i < h.rows; ++i)
    for (auto k = h.row_map[i]; k < h.row_map[i + 1]; ++k) A.insert(i, h.entries[k]) = h.values[k];
  A.makeCompressed();
  return A;
}

}  // namespace

eigen_run eigen_bicgstab(const host_csr& h, const std::vector<double>& bv, int iterations, int threads) {
  Eigen::setNbThreads(threads);
  const auto& A = eigen_matrix(h);
  const Eigen::Map<const Eigen::VectorXd> b(bv.data(), Eigen::Index(bv.size()));
  Eigen::BiCGSTAB<sp_matrix, Eigen::DiagonalPreconditioner<double>> solver;
  solver.compute(A);
  solver.setMaxIterations(iterations);
  solver.setTolerance(0.0);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(b.size());
  const auto t0 = std::chrono::steady_clock::now();
  x = solver.solveWithGuess(b, x);
  const auto t1 = std::chrono::steady_clock::now();
  eigen_run r;
  r.seconds = std::chrono::duration<double>(t1 - t0).count();
  r.iterations = int(solver.iterations());
  r.true_residual = (b - A * x).norm() / b.norm();
  return r;
}

void eigen_release() {
  cache.reset();
}

}  // namespace ppl::bench
