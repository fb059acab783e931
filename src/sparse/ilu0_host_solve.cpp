// ILU(0)'s sequential triangular solves (ilu0_host_solve.hpp). Each row's off-diagonal products go into two
// partial sums: the rows of a factor depend on each other through x, so one sum would make every product wait for
// the previous one (a chain of FMA latencies per row) where the memory system could keep several in flight.
#include "ilu0_host_solve.hpp"

namespace ppl::ilu0_detail {

template <class Offset>
void prepare(host_triangle<Offset>& t) {
  t.inverse_diagonal.clear();
  if (t.unit) return;
  t.inverse_diagonal.resize(static_cast<std::size_t>(t.n));
  for (int i = 0; i < t.n; ++i) {
    const Offset d = t.lower ? t.row_map[i + 1] - 1 : t.row_map[i];
    t.inverse_diagonal[static_cast<std::size_t>(i)] = 1.0 / t.values[d];
  }
}

namespace {

// b_i minus the products of entries [begin, end) of the row with x.
template <class Offset>
inline double row_rest(const int* cols, const double* vals, Offset begin, Offset end, const double* x, double b) {
  double s0 = b, s1 = 0;
  Offset k = begin;
  for (; k + 1 < end; k += 2) {
    s0 -= vals[k] * x[cols[k]];
    s1 -= vals[k + 1] * x[cols[k + 1]];
  }
  if (k < end) s0 -= vals[k] * x[cols[k]];
  return s0 + s1;
}

}  // namespace

template <class Offset>
void solve(const host_triangle<Offset>& t, const double* b, double* x) {
  const Offset* rm = t.row_map;
  const int* cols = t.entries;
  const double* vals = t.values;
  const double* inv = t.inverse_diagonal.data();
  if (t.lower) {
    for (int i = 0; i < t.n; ++i) {
      const double s = row_rest(cols, vals, rm[i], rm[i + 1] - 1, x, b[i]);
      x[i] = t.unit ? s : s * inv[i];
    }
  } else {
    for (int i = t.n - 1; i >= 0; --i) {
      const double s = row_rest(cols, vals, rm[i] + 1, rm[i + 1], x, b[i]);
      x[i] = t.unit ? s : s * inv[i];
    }
  }
}

template void prepare<int>(host_triangle<int>&);
template void prepare<unsigned>(host_triangle<unsigned>&);
template void prepare<std::size_t>(host_triangle<std::size_t>&);
template void solve<int>(const host_triangle<int>&, const double*, double*);
template void solve<unsigned>(const host_triangle<unsigned>&, const double*, double*);
template void solve<std::size_t>(const host_triangle<std::size_t>&, const double*, double*);

}  // namespace ppl::ilu0_detail
