// What every SpMV strategy shares: the explicit, cached transpose used by the default apply_transpose, the guard of
// the default-space-only strategies, and the construction of a strategy by name.
#include "ppl/sparse/spmv_strategy.hpp"

#include "ppl/core/error.hpp"
#include "ppl/sparse/transpose.hpp"
#include "spmv_factories.hpp"

namespace ppl {

const crs_matrix& spmv_strategy::cached_transpose(const crs_matrix& A) {
  const bool same = transpose_of_ == A.values.data() && transpose_.numRows() == A.numCols() &&
                    transpose_.numCols() == A.numRows() && transpose_.nnz() == A.nnz();
  if (!same) {
    transpose_ = sorted_transpose(A);  // deterministic: the same products on every run
    transpose_of_ = A.values.data();
    prepare(transpose_);
  }
  return transpose_;
}

void spmv_strategy::apply_transpose(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) {
  apply(space, cached_transpose(A), x, y);
}

void require_default_space(const execution& space, const std::string& strategy) {
  if (!space.is_default())
    throw error(exit_code::failure, "spmv strategy '" + strategy + "' runs only on the default execution space (" +
                                        execution().name() + "), not on " + space.name());
}

std::unique_ptr<spmv_strategy> make_spmv_strategy(const std::string& name, const parameter_values& params) {
  return spmv_strategies().get(name, "spmv.strategy").factory(params);
}

}  // namespace ppl
