#pragma once
// Eigen's BiCGSTAB with a diagonal (Jacobi) preconditioner on a host CSR matrix: the CPU peer of ppl's solver in
// bench_krylov. Kept in its own translation unit (no Kokkos, EIGEN_NO_CUDA) so nvcc never compiles Eigen for a GPU.
#include <vector>

#include "ppl/sparse/matrix_market.hpp"

namespace ppl::bench {

struct eigen_run {
  double seconds = 0;  // BiCGSTAB solve only (the preconditioner setup is outside)
  int iterations = 0;
  double true_residual = 0;  // ||b - A x|| / ||b||
};

// Runs `iterations` iterations (tolerance 0) with Eigen's OpenMP parallelism set to `threads`. The Eigen matrix is
// built on the first call for a given host_csr and reused.
eigen_run eigen_bicgstab(const host_csr& A, const std::vector<double>& b, int iterations, int threads);

// Frees the cached Eigen matrix.
void eigen_release();

}  // namespace ppl::bench
