// `ilu0`: M = L U, the ILU(0) factorisation of A (include/ppl/sparse/ilu0.hpp: Kokkos Kernels' spiluk with fill
// level 0 for the set-up, two level-scheduled sptrsv solves per application). BiCG's M^-T products solve with the
// transposed factors, built on its first transpose application.
#include <Kokkos_Core.hpp>

#include "ppl/sparse/ilu0.hpp"
#include "preconditioners.hpp"

namespace ppl::precond_detail {
namespace {

class ilu0 final : public preconditioner {
 public:
  explicit ilu0(const crs_matrix& A) : f_(A) {}
  std::string name() const override { return "ilu0"; }
  void apply(const_vector_view r, vector_view z) const override { f_.apply(r, z); }
  void apply_transpose(const_vector_view r, vector_view z) const override { f_.apply_transpose(r, z); }

 private:
  ilu0_factorization f_;
};

}  // namespace

std::unique_ptr<preconditioner> make_ilu0(const crs_matrix& A) {
  auto M = std::make_unique<ilu0>(A);
  Kokkos::fence();
  return M;
}

}  // namespace ppl::precond_detail
