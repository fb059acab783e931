#pragma once
// Scaling a system A x = b by powers of two so that a Krylov solve's norms and inner products cannot overflow or
// underflow for representable inputs (docs/solver.md, "Scaling"): A' = s_A A, x' = s_x x, b' = s_A s_x b, so
// A' x' = b' has the same solution up to s_x. A power of two changes only exponents: every sum, product, quotient
// and square root of the iteration is then the same number times a power of two, so iterations, outcomes and the
// relative residuals are those of the unscaled system (unless a scaled value leaves the normal range; see the doc).
#include <algorithm>
#include <cmath>

namespace ppl {

struct system_scaling {
  int matrix_exponent = 0;    // s_A = 2^matrix_exponent
  int solution_exponent = 0;  // s_x = 2^solution_exponent
  bool identity() const { return matrix_exponent == 0 && solution_exponent == 0; }
  double matrix() const { return std::ldexp(1.0, matrix_exponent); }
  double solution() const { return std::ldexp(1.0, solution_exponent); }
  double residual() const { return std::ldexp(1.0, matrix_exponent + solution_exponent); }  // r' = s_A s_x r
};

// Magnitudes within [2^-scaling_band, 2^scaling_band] are left alone: there, with at most 2^31 rows and 2^32
// nonzeros, even the squared norm of A times a vector of b's size stays far inside a double's range (2^+-1022).
constexpr int scaling_band = 100;

// s_A brings max |a_ij| into [1, 2); s_x brings the larger of s_A max |b_i| and max |x0_i| (b and the initial guess
// set the size of the residuals and iterates) into [1, 2). Each stays 1 while its magnitude lies within the band (or
// is 0). No scaling at all when a factor would be beyond 2^+-1000 (the solution x ~ b / A is then beyond a double's
// range, which no scaling fixes).
inline system_scaling choose_system_scaling(double max_abs_a, double max_abs_b, double max_abs_x0) {
  auto exponent = [](double m) { return m > 0 && std::isfinite(m) ? std::ilogb(m) : 0; };
  auto normalise = [](int e) { return e >= -scaling_band && e <= scaling_band ? 0 : -e; };
  system_scaling s;
  s.matrix_exponent = normalise(exponent(max_abs_a));
  int e = 0;
  bool any = false;
  if (max_abs_b > 0 && std::isfinite(max_abs_b)) e = exponent(max_abs_b) + s.matrix_exponent, any = true;
  if (max_abs_x0 > 0 && std::isfinite(max_abs_x0)) e = any ? std::max(e, exponent(max_abs_x0)) : exponent(max_abs_x0);
  s.solution_exponent = normalise(e);
  const int limit = 1000;
  if (s.solution_exponent < -limit || s.solution_exponent > limit || s.matrix_exponent + s.solution_exponent < -limit ||
      s.matrix_exponent + s.solution_exponent > limit)
    return {};
  return s;
}

}  // namespace ppl
