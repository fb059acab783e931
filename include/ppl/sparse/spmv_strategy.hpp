#pragma once
// CSR sparse matrix-vector product strategies (config `spmv.strategy`). One interface, one registry
// (src/sparse/register.cpp); the name is the config value, test parameter, benchmark label and Kokkos profiling
// region "ppl::spmv[<name>]".
#include <functional>
#include <memory>
#include <string>

#include "ppl/jobs/config.hpp"
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
  // y = A^T x (BiCG). The default builds an explicit transpose on first use (sorted_transpose: rows sorted so
  // results are reproducible; for a symmetric pattern only the values are new), caches it per matrix (identified by the
  // address of its values and its shape: a matrix whose values change in place needs a fresh strategy) and calls apply
  // on it.
  virtual void apply_transpose(const crs_matrix& A, const_vector_view x, vector_view y);
  // A short description of the chosen mapping (e.g. "vector, 8 threads/row, 16 rows/team").
  virtual std::string describe() const = 0;

 protected:
  // The cached explicit transpose of the matrix whose values start at transpose_of_ (built on first use).
  const crs_matrix& cached_transpose(const crs_matrix& A);
  crs_matrix transpose_;
  const void* transpose_of_ = nullptr;
};

// `params` is the `spmv` map of a job (the factory reads its own keys, e.g. threads_per_row; the caller reads
// `strategy`), or nullptr for the defaults.
using spmv_factory = std::function<std::unique_ptr<spmv_strategy>(const config_node* params)>;
using spmv_registry = registry<spmv_factory>;
const spmv_registry& spmv_strategies();

// Convenience for tests, benchmarks and code: the strategy `name` with parameters given as a YAML map
// (e.g. "threads_per_row: 8"); unknown keys and bad values throw ppl::input_error.
std::unique_ptr<spmv_strategy> make_spmv_strategy(const std::string& name, const std::string& params_yaml = "");

}  // namespace ppl
