#pragma once
// The portable vector mapping shared by `vector` and `auto`: a TeamPolicy whose teams take `rows_per_team`
// consecutive rows (TeamThreadRange), each row handled by `threads_per_row` vector lanes that stride over its
// nonzeros and sum them with a ThreadVectorRange reduction (Bell & Garland's CSR-vector, with the group size of
// Yoon et al. 2016 as a parameter). Runs on every execution space.
#include <string>

#include "spmv_factories.hpp"

namespace ppl {

class spmv_vector_mapping : public spmv_strategy {
 public:
  spmv_vector_mapping(std::string name, vector_mapping m) : name_(std::move(name)), m_(m) {}
  void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override;
  std::string describe() const override;

 protected:
  std::string name_;
  vector_mapping m_;
};

}  // namespace ppl
