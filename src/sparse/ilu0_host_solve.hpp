#pragma once
// ILU(0)'s triangular solves on one host thread: a loop over the rows of a CSR factor in host memory, with the
// diagonal at a known end of each row (ILU(0)'s factors and their transposes store it last in lower and first in
// upper triangles) and its inverse precomputed. Used for the `sequential` solve path (include/ppl/sparse/ilu0.hpp),
// where Kokkos Kernels' generic KokkosSparse::trsv took 2.5x as long (docs/solver.md, "ILU(0)").
#include <cstddef>
#include <vector>

namespace ppl::ilu0_detail {

// Offset: the factor's row-offset type, the CrsMatrix size_type of the Kokkos Kernels build (std::size_t with 3.4
// on the host, int with 4.x); instantiated for int, unsigned and std::size_t.
template <class Offset>
struct host_triangle {
  int n = 0;
  bool lower = true;
  bool unit = false;  // the stored diagonal is 1: no scaling
  const Offset* row_map = nullptr;
  const int* entries = nullptr;
  const double* values = nullptr;
  std::vector<double> inverse_diagonal;  // 1 / t_ii (empty when unit)
};

// Reads the factor's diagonal (last entry of a lower row, first of an upper one) into inverse_diagonal unless unit.
template <class Offset>
void prepare(host_triangle<Offset>& t);
// x = T^-1 b; b and x must not alias.
template <class Offset>
void solve(const host_triangle<Offset>& t, const double* b, double* x);

}  // namespace ppl::ilu0_detail
