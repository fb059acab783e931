#pragma once
// CSR sparse matrix-vector product strategies (config `spmv.strategy`). One interface, one registry
// (src/sparse/register.cpp); the name is the config value, test parameter, benchmark label and Kokkos profiling
// region "ppl::spmv[<name>]".
#include <functional>
#include <memory>
#include <string>

#include "ppl/core/config.hpp"
#include "ppl/core/registry.hpp"
#include "ppl/sparse/csr.hpp"

namespace ppl {

class spmv_strategy {
 public:
  virtual ~spmv_strategy() = default;
  // Called once per matrix before apply (choose a mapping, build an explicit transpose lazily, ...).
  virtual void prepare(const crs_matrix& A) { (void)A; }
  // y = A x. Does not fence (Krylov loops chain kernels on one stream).
  virtual void apply(const crs_matrix& A, const_vector_view x, vector_view y) = 0;
  // y = A^T x (BiCG). The default builds and caches an explicit transpose on first use and calls apply on it.
  virtual void apply_transpose(const crs_matrix& A, const_vector_view x, vector_view y);
  // A short description of the chosen mapping (e.g. "vector, 8 threads/row, 16 rows/team").
  virtual std::string describe() const = 0;

 protected:
  crs_matrix transpose_;
  const void* transpose_of_ = nullptr;
};

using spmv_factory = std::function<std::unique_ptr<spmv_strategy>(const config_node* params)>;
using spmv_registry = registry<spmv_factory>;
const spmv_registry& spmv_strategies();

}  // namespace ppl
