#pragma once
// A^T as a CSR matrix whose rows are sorted by column, built on the device and deterministic (the same matrix, and
// so the same transpose products, on every run and with any number of threads). Used by
// spmv_strategy::apply_transpose (BiCG). docs/solver.md, "Transpose products", has the timings.
#include "ppl/sparse/csr.hpp"

namespace ppl {

// When A's pattern is symmetric (a_ij stored exactly when a_ji is) and every row's columns are strictly increasing,
// A^T has A's pattern: it shares A's row map and column indices and only its values are new, gathered in one
// parallel pass (a binary search for a_ji in row j per entry; no atomics, no sort). Otherwise Kokkos Kernels'
// transpose (counting with atomics) followed by a sort of each row. `symmetric_pattern`, when given, says which.
crs_matrix sorted_transpose(const crs_matrix& A, bool* symmetric_pattern = nullptr);

}  // namespace ppl
