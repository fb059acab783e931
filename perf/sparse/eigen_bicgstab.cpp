// Eigen 3.4 BiCGSTAB<SparseMatrix<double, RowMajor>, DiagonalPreconditioner> (see eigen_bicgstab.hpp). Eigen runs
// the row-major sparse x dense products on `threads` OpenMP threads; its vector updates are serial.
#define EIGEN_NO_CUDA
#include "eigen_bicgstab.hpp"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>
#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <stdexcept>

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
  if (h.values.size() > std::size_t(std::numeric_limits<int>::max()))
    throw std::runtime_error("eigen_bicgstab: more than 2^31 - 1 nonzeros");
  cache = std::make_unique<cached_matrix>();
  cache->source = &h;
  cache->nnz = h.values.size();
  auto& A = cache->A;
  // Compressed row-major storage is CSR: copy the three arrays (columns are sorted within rows in host_csr).
  A.resize(h.rows, h.cols);
  A.resizeNonZeros(Eigen::Index(h.values.size()));
  for (int i = 0; i <= h.rows; ++i) A.outerIndexPtr()[i] = int(h.row_map[i]);
  std::copy(h.entries.begin(), h.entries.end(), A.innerIndexPtr());
  std::copy(h.values.begin(), h.values.end(), A.valuePtr());
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
