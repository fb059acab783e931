// `jacobi`: M = diag(A), applied as z = M^-1 r with vec::multiply (M^-T = M^-1). The inverse diagonal is built once
// per solve; a zero, missing or non-finite diagonal is a bad input, reported with the first such row, 1-based as in
// Matrix Market files: by the configuration-time check for a matrix file (`ppl validate`), by the set-up on the
// device for any matrix. BiCGSTAB fuses the application into its updates through inverse_diagonal().
#include <cmath>
#include <limits>
#include <string>

#include "ppl/core/error.hpp"
#include "ppl/core/huge_pages.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/vector_ops.hpp"
#include "preconditioners.hpp"

namespace ppl {
namespace {

const char* what_is_wrong(bool present, double d) {
  return !present ? "has no diagonal entry" : d == 0.0 ? "has a zero diagonal" : "has a non-finite diagonal";
}

std::string row_error(int row, bool present, double d) {
  return "row " + std::to_string(row + 1) + " (1-based) " + what_is_wrong(present, d) +
         "; preconditioner: jacobi needs a nonzero diagonal in every row (use preconditioner: none)";
}

struct inverse_diagonal_functor {
  crs_matrix::row_map_type row_map;
  crs_matrix::index_type entries;
  crs_matrix::values_type values;
  vector_view dinv;
  // Sums the diagonal entries of row i (duplicates count once each, as in A x), stores 1/a_ii, and keeps the
  // smallest row whose diagonal cannot be inverted.
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& first_bad) const {
    double d = 0.0;
    for (auto k = row_map(i); k < row_map(i + 1); ++k)
      if (entries(k) == i) d += values(k);
    const bool ok = d != 0.0 && kmath::isfinite(d);
    dinv(i) = ok ? 1.0 / d : 0.0;
    if (!ok && i < first_bad) first_bad = i;
  }
};

}  // namespace

vector_view jacobi_inverse_diagonal(const crs_matrix& A) {
  const int n = A.numRows();
  if (A.numCols() != n)
    throw input_error("jacobi: the matrix is not square (" + std::to_string(n) + " x " + std::to_string(A.numCols()) +
                      ")");
  vector_view dinv(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::jacobi::dinv"), n);
  advise_huge_pages(dinv);
  int first_bad = std::numeric_limits<int>::max();
  Kokkos::parallel_reduce("ppl::jacobi::inverse_diagonal", Kokkos::RangePolicy<sparse_space>(0, n),
                          inverse_diagonal_functor{A.graph.row_map, A.graph.entries, A.values, dinv},
                          Kokkos::Min<int>(first_bad));
  if (first_bad != std::numeric_limits<int>::max()) {
    // Say what is wrong with that row (zero / missing / not finite): one host look at its entries.
    const int row = first_bad;
    auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                  Kokkos::subview(A.graph.row_map, std::make_pair(row, row + 2)));
    auto cols = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), Kokkos::subview(A.graph.entries, std::pair<std::size_t, std::size_t>(rm(0), rm(1))));
    auto vals = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), Kokkos::subview(A.values, std::pair<std::size_t, std::size_t>(rm(0), rm(1))));
    bool present = false;
    double d = 0.0;
    for (std::size_t k = 0; k < cols.extent(0); ++k)
      if (cols(k) == row) {
        present = true;
        d += vals(k);
      }
    throw input_error("jacobi preconditioner: row " + std::to_string(row + 1) + " (1-based) " +
                      what_is_wrong(present, d) +
                      "; Jacobi needs a nonzero diagonal in every row (use preconditioner: none)");
  }
  return dinv;
}

namespace precond_detail {
namespace {

class jacobi final : public preconditioner {
 public:
  explicit jacobi(const crs_matrix& A) : dinv_(jacobi_inverse_diagonal(A)) {}
  std::string name() const override { return "jacobi"; }
  void apply(const execution& space, const_vector_view r, vector_view z) const override {
    vec::multiply(space, dinv_, r, z);
  }
  void apply_transpose(const execution& space, const_vector_view r, vector_view z) const override {
    apply(space, r, z);
  }
  const_vector_view inverse_diagonal() const override { return dinv_; }

 private:
  const_vector_view dinv_;
};

std::unique_ptr<preconditioner> make_jacobi(const crs_matrix& A, const no_parameters&) {
  return std::make_unique<jacobi>(A);
}

// The set-up's refusal, on the host matrix of a file: the first row without a finite nonzero diagonal.
void check_jacobi(const host_csr& A) {
  for (int r = 0; r < A.rows; ++r) {
    double d = 0;
    bool present = false;
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j)
      if (A.entries[j] == r) present = true, d += A.values[j];
    if (!present || d == 0.0 || !std::isfinite(d)) throw input_error(row_error(r, present, d));
  }
}

}  // namespace

preconditioner_registry::entry jacobi_entry() {
  return preconditioner_registry::entry::named("jacobi")
      .with_description("M = diag(A), z = D^-1 r (fused into BiCGSTAB's updates); needs a nonzero diagonal in every row")
      .with_backends("all")
      .with_factory(preconditioner_from_values<no_parameters>(make_jacobi))
      .with_capabilities({precond_diagonal, precond_transpose, precond_every_space})
      .with_parameters(no_parameters::fields().space())
      .with_check(check_jacobi);
}

}  // namespace precond_detail
}  // namespace ppl
