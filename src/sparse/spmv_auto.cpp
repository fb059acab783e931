// `auto`: the vector mapping with threads per row chosen from the matrix's mean nonzeros per row at prepare()
// (rule in auto_threads_per_row, stated and checked against the sweep in docs/solver.md).
#include <cmath>

#include "spmv_vector.hpp"

namespace ppl {

int auto_threads_per_row(double mean_nnz) {
  // The power of two nearest (in log2) to mean_nnz / 2, clamped to [2, 32]: 27 per row -> 16, 81 -> 32, 7 -> 4.
  if (!(mean_nnz > 4)) return 2;
  const int p = static_cast<int>(std::lround(std::log2(mean_nnz / 2)));
  return p >= 5 ? 32 : (1 << p);
}

// 27 per row -> 8, 81 -> 16: the fastest on the H200 (perf/results/h200-run4).
int cuda_threads_per_row(double mean_nnz) {
  int t = 1;
  while (t < 32 && 2 * t * 3 <= mean_nnz) t *= 2;
  return t;
}

namespace {

class spmv_auto final : public spmv_vector_mapping {
 public:
  explicit spmv_auto(int rows_per_team) : spmv_vector_mapping("auto", vector_mapping{2, rows_per_team}) {}
  void prepare(const crs_matrix& A) override {
    const double mean = A.numRows() > 0 ? static_cast<double>(A.nnz()) / A.numRows() : 0.0;
    m_.threads_per_row = auto_threads_per_row(mean);
    prepared_ = true;
  }
  void apply(const crs_matrix& A, const_vector_view x, vector_view y) override {
    if (!prepared_) prepare(A);  // a caller that skipped prepare still gets the rule
    spmv_vector_mapping::apply(A, x, y);
  }

 private:
  bool prepared_ = false;
};

}  // namespace

std::unique_ptr<spmv_strategy> make_spmv_auto(const config_node* params) {
  int rows_per_team = 0;
  if (params != nullptr) rows_per_team = params->get_in<int>("rows_per_team", 0, 0, 1024);
  return std::make_unique<spmv_auto>(rows_per_team);
}

}  // namespace ppl
