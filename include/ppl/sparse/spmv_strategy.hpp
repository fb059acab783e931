#pragma once
// CSR sparse matrix-vector product strategies (config `spmv.strategy`). One interface, one registry
// (src/sparse/register.cpp); the name is the config value, test parameter, benchmark label and Kokkos profiling
// region "ppl::spmv[<name>]". Each strategy declares its parameters as a struct
// (include/ppl/sparse/spmv_strategies.hpp, with the typed factories); the registry's factory takes them by name.
#include <functional>
#include <memory>
#include <string>

#include "ppl/core/execution.hpp"
#include "ppl/core/parameters.hpp"
#include "ppl/core/registry.hpp"
#include "ppl/sparse/csr.hpp"

namespace ppl {

class spmv_strategy {
 public:
  virtual ~spmv_strategy() = default;
  // Called once per matrix before apply (choose a mapping, build an explicit transpose lazily, ...).
  virtual void prepare(const crs_matrix& A) { (void)A; }
  // y = A x on `space` (an execution space whose kernels reach the matrix's memory: the default one, or in
  // host builds also Serial). Does not fence (Krylov loops chain kernels on one stream). Strategies without the
  // `every_space` capability (wrappers of Kokkos Kernels, CUDA kernels) take only the default space and throw
  // ppl::error for another.
  virtual void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) = 0;
  // y = A^T x (BiCG). The default builds an explicit transpose on first use (sorted_transpose, on the default
  // space: rows sorted so results are reproducible; for a symmetric pattern only the values are new), caches it per
  // matrix (identified by the address of its values and its shape: a matrix whose values change in place needs a
  // fresh strategy) and calls apply on it.
  virtual void apply_transpose(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y);
  // A short description of the chosen mapping (e.g. "vector, 8 threads/row, 16 rows/team").
  virtual std::string describe() const = 0;

 protected:
  // The cached explicit transpose of the matrix whose values start at transpose_of_ (built on first use).
  const crs_matrix& cached_transpose(const crs_matrix& A);
  crs_matrix transpose_;
  const void* transpose_of_ = nullptr;
};

// The registry's factory: the strategy from its parameters by name (absent ones keep their defaults; a bad or
// undeclared one throws parameter_error). Built from a typed factory with from_values<P>.
using spmv_factory = std::function<std::unique_ptr<spmv_strategy>(const parameter_values& params)>;
using spmv_registry = registry<spmv_factory, matrix_check>;
const spmv_registry& spmv_strategies();

// The capability of a strategy that runs on every space of execution::all() (the others: the default space only).
inline const std::string spmv_every_space = "every_space";

// The strategy `name` with parameters by name (e.g. {{"threads_per_row", 8}}): tests, benchmarks and code. An
// unknown name, a bad value or an undeclared parameter throws ppl::input_error.
std::unique_ptr<spmv_strategy> make_spmv_strategy(const std::string& name, const parameter_values& params = {});

}  // namespace ppl
