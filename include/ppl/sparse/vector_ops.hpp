#pragma once
// The vector kernels of the Krylov solvers: small named Kokkos kernels, each fused where it saves a pass over
// memory, each tested against a host loop (tests/sparse/krylov/test_vector_ops.cpp).
//
// Scalars stay on the device: reductions write their results into a small device View `s` (the solver's scalar
// slots) without synchronising, and the coefficients of the updates are read from those slots inside the kernels
// (dev_coef), so a whole iteration is queued without a host round trip. The solver copies the slots to the host
// once per iteration for its convergence and breakdown tests (docs/solver.md).
//
// Every kernel runs on the execution space given as the first argument (include/ppl/core/execution.hpp: the default
// space, or in host builds also Serial, on the same data) and is queued there without a fence, except where a
// result is returned to the host. On a GPU the reductions share one workspace per process: kernels of one solve at a
// time (on one stream) use it.
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "ppl/core/execution.hpp"
#include "ppl/core/kokkos_compat.hpp"
#include "ppl/sparse/csr.hpp"

namespace ppl::vec {

using scalar_view = Kokkos::View<double*, sparse_space>;

// A coefficient evaluated on the device from the scalar slots s[]:
//   value = scale * s[num0] * s[num1] / (s[den0] * s[den1])        (an index < 0 stands for 1)
// and 0 when the denominator is negligible: |den| <= guard * sqrt(|s[ref0] * s[ref1]|) (guard 0: only den == 0).
// The guard keeps a breakdown from writing Inf into the iterate; the host sees the same slots and reports it.
struct dev_coef {
  double scale = 1.0;
  int num0 = -1, num1 = -1, den0 = -1, den1 = -1, ref0 = -1, ref1 = -1;
  double guard = 0.0;

  static dev_coef constant(double c) {
    dev_coef k;
    k.scale = c;
    return k;
  }
  static dev_coef ratio(int num, int den, double scale = 1.0) {
    dev_coef k;
    k.scale = scale;
    k.num0 = num;
    k.den0 = den;
    return k;
  }
  dev_coef negated() const {
    dev_coef k = *this;
    k.scale = -scale;
    return k;
  }
  dev_coef guarded(double tol, int r0, int r1) const {
    dev_coef k = *this;
    k.guard = tol;
    k.ref0 = r0;
    k.ref1 = r1;
    return k;
  }

  KOKKOS_INLINE_FUNCTION static double at(const double* s, int i) { return i < 0 ? 1.0 : s[i]; }
  KOKKOS_INLINE_FUNCTION double eval(const double* s) const {
    const double den = at(s, den0) * at(s, den1);
    const double lim = guard > 0 ? guard * kmath::sqrt(kmath::fabs(at(s, ref0) * at(s, ref1))) : 0.0;
    return kmath::fabs(den) > lim ? scale * at(s, num0) * at(s, num1) / den : 0.0;
  }
};

// Host evaluation of the same rule (tests, and the solver's own breakdown tests).
double eval_on_host(const dev_coef& k, const double* s);

// --- reductions (results in s[slot...], asynchronous on GPUs) ---
// s[slot] = (a, b), s[slot+1] = (a, a), s[slot+2] = (b, b): one pass over a and b.
void dots3(const execution& space, const_vector_view a, const_vector_view b, scalar_view s, int slot);

// --- updates ---
// y = a x + b y; with d given, also dy = d .* y (the Jacobi application fused into the update: one pass less and
// one launch less than a separate multiply)
void axpby(const execution& space, const dev_coef& a, const_vector_view x, const dev_coef& b, vector_view y,
           scalar_view s, const_vector_view d = {}, vector_view dy = {});
// z = a x + b y + c z; with d given, also dz = d .* z
void axpbypcz(const execution& space, const dev_coef& a, const_vector_view x, const dev_coef& b, const_vector_view y,
              const dev_coef& c, vector_view z, scalar_view s, const_vector_view d = {}, vector_view dz = {});
// z = d .* (x + b y) + c z (c = 0 does not read z): a direction update kept only in its Jacobi-scaled form
// (BiCGSTAB's p_hat), one pass less than axpbypcz with dz, which also stores the unscaled z
void scaled_axpy_pcz(const execution& space, const_vector_view d, const_vector_view x, const dev_coef& b,
                     const_vector_view y, const dev_coef& c, vector_view z, scalar_view s);
// z = d .* x (element-wise; Jacobi)
void multiply(const execution& space, const_vector_view d, const_vector_view x, vector_view z);

// --- fused update + reduction ---
// BiCGSTAB's last step: x += a p + b q ; r += c t ; then s[slot] = (rh, r), s[slot+1] = (r, r).
void xr_update_dots(const execution& space, const dev_coef& a, const_vector_view p, const dev_coef& b,
                    const_vector_view q, vector_view x, const dev_coef& c, const_vector_view t, vector_view r,
                    const_vector_view rh, scalar_view s, int slot);
// BiCG's update: x += a p ; r -= a q ; rt -= a qt ; then s[slot] = (r, rt), s[slot+1] = (r, r), s[slot+2] = (rt, rt).
void bicg_update_dots(const execution& space, const dev_coef& a, const_vector_view p, const_vector_view q,
                      const_vector_view qt, vector_view x, vector_view r, vector_view rt, scalar_view s, int slot);

// --- a basis of column vectors (GMRES's Krylov basis V, column c = V(:, c), contiguous) ---
using basis_view = Kokkos::View<double**, Kokkos::LayoutLeft, sparse_space>;
// multi_dots sums this many columns per kernel and writes whole blocks of sums (the slots are padded to it): 8 on a
// GPU (a fixed-size value reduced with warp shuffles; more would spill registers), 32 on the host, where a kernel
// launch costs more than a wider per-thread sum, so GMRES(30) needs one kernel per Gram-Schmidt pass.
constexpr int multi_dot_block = std::is_same<sparse_space::memory_space, Kokkos::HostSpace>::value ? 32 : 8;
inline int multi_dot_slots(int ncols) {
  return (ncols + multi_dot_block - 1) / multi_dot_block * multi_dot_block;
}
// s[slot + c] = (V(:, c), w) for c < ncols, in blocks of multi_dot_block columns per kernel (one pass over w and
// the block's columns);
// slots up to slot + multi_dot_slots(ncols) are written (0 beyond ncols).
void multi_dots(const execution& space, const basis_view& V, int ncols, const_vector_view w, scalar_view s, int slot);
// y = b y + a sum_{c < ncols} s[slot + c] V(:, c), one pass (b = 0 does not read y); with norm_slot >= 0 also
// s[norm_slot] = (y, y) of the result in the same pass.
void combine(const execution& space, const basis_view& V, int ncols, scalar_view s, int slot, double a, double b,
             vector_view y, int norm_slot = -1);
// y -= sum_{c < ncols} s[slot + c] V(:, c), then s[dot_slot + c] = (V(:, c), y) of the result: combine(-1, 1) and
// multi_dots in one pass over y and V for the first block of columns (all of GMRES(30)'s on the host), the rest as
// multi_dots. The same sums in the same order as those two calls, so the same bits. dot_slot's block must not
// overlap [slot, slot + ncols).
void combine_then_dots(const execution& space, const basis_view& V, int ncols, scalar_view s, int slot, vector_view y,
                       int dot_slot);

// True when every entry is finite (one reduction, synchronises).
bool all_finite(const execution& space, const_vector_view x);
// (a, b) (one reduction, synchronises).
double dot(const execution& space, const_vector_view a, const_vector_view b);
// dst = src; v = value (queued on `space`).
void copy(const execution& space, vector_view dst, const_vector_view src);
void fill(const execution& space, vector_view v, double value);

}  // namespace ppl::vec
