// What every SpMV strategy shares: the explicit, cached transpose used by the default apply_transpose, and the
// construction of a strategy from a YAML string.
#include "ppl/sparse/spmv_strategy.hpp"

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

void spmv_strategy::apply_transpose(const crs_matrix& A, const_vector_view x, vector_view y) {
  apply(cached_transpose(A), x, y);
}

std::unique_ptr<spmv_strategy> make_spmv_strategy(const std::string& name, const std::string& params_yaml) {
  const auto& entry = spmv_strategies().get(name, "spmv.strategy");
  if (params_yaml.empty()) return entry.factory(nullptr);
  const config_node params = config_node::from_string(params_yaml, "spmv parameters");
  auto s = entry.factory(&params);
  params.check_all_used();
  return s;
}

vector_mapping read_vector_mapping(const config_node* params, int default_threads_per_row) {
  vector_mapping v;
  v.threads_per_row = default_threads_per_row;
  if (params == nullptr) return v;
  v.threads_per_row = params->get_in<int>("threads_per_row", default_threads_per_row, 1, 32);
  // (A default of 0 means "chosen per matrix"; a value given must be a power of two.)
  if ((v.threads_per_row & (v.threads_per_row - 1)) != 0)
    throw input_error(params->where("threads_per_row") + ": threads_per_row must be a power of two in [1, 32], got " +
                      std::to_string(v.threads_per_row));
  v.rows_per_team = params->get_in<int>("rows_per_team", 0, 0, 1024);
  return v;
}

}  // namespace ppl
