// `scalar`: one thread per row (Bell & Garland's CSR-scalar). Coalesces badly on GPUs (neighbouring threads read
// rows far apart) but has no reduction: the baseline of the mappings. Runs on every execution space.
#include <Kokkos_Core.hpp>

#include "spmv_factories.hpp"

namespace ppl {
namespace {

struct scalar_kernel {
  crs_matrix::row_map_type row_map;
  crs_matrix::index_type entries;
  crs_matrix::values_type values;
  const_vector_view x;
  vector_view y;

  KOKKOS_INLINE_FUNCTION void operator()(const int row) const {
    double sum = 0;
    const auto end = row_map(row + 1);
    for (auto j = row_map(row); j < end; ++j) sum += values(j) * x(entries(j));
    y(row) = sum;
  }
};

class spmv_scalar final : public spmv_strategy {
 public:
  void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override {
    Kokkos::Profiling::pushRegion("ppl::spmv[scalar]");
    const scalar_kernel k{A.graph.row_map, A.graph.entries, A.values, x, y};
    space.visit([&](const auto& s) {
      using S = std::decay_t<decltype(s)>;
      Kokkos::parallel_for("ppl::spmv[scalar]", Kokkos::RangePolicy<S>(s, 0, A.numRows()), k);
    });
    Kokkos::Profiling::popRegion();
  }
  std::string describe() const override { return "scalar, 1 thread/row"; }
};

}  // namespace

std::unique_ptr<spmv_strategy> make_scalar_spmv(const no_parameters&) {
  return std::make_unique<spmv_scalar>();
}

}  // namespace ppl
