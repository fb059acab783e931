// The per-point bound of tolerance.hpp: the float64 sums and the scales of each error source.
#include "tolerance.hpp"

namespace ppl::test {
namespace {

double distance(double x0, double y0, double z0, double x1, double y1, double z1) {
  return std::sqrt((x0 - x1) * (x0 - x1) + (y0 - y1) * (y0 - y1) + (z0 - z1) * (z0 - z1));
}

}  // namespace

expected_values float64_expected(const atoms& a, const lattice& g) {
  const device_atoms d = to_device(a, g);  // the float32 atoms every strategy gets
  std::vector<double> atom_moved(a.size());
  for (std::size_t n = 0; n < a.size(); ++n)
    atom_moved[n] = distance(d.host(n).x, d.host(n).y, d.host(n).z, a.x[n] - g.origin[0], a.y[n] - g.origin[1],
                             a.z[n] - g.origin[2]);
  const float h = float(g.spacing);
  auto kernel_coord = [&](int i) { return double(float(i) * h); };  // x = float(i) * h in every kernel
  expected_values e;
  for (auto* v : {&e.value, &e.abs_sum, &e.in_order, &e.any_order, &e.positioned}) v->resize(g.size());
  for (int kz = 0; kz < g.dims[2]; ++kz)
    for (int j = 0; j < g.dims[1]; ++j)
      for (int i = 0; i < g.dims[0]; ++i) {
        const double px = g.origin[0] + g.spacing * i, py = g.origin[1] + g.spacing * j,
                     pz = g.origin[2] + g.spacing * kz;
        const double point_moved =
            distance(kernel_coord(i), kernel_coord(j), kernel_coord(kz), g.spacing * i, g.spacing * j, g.spacing * kz);
        double v = 0.0, abs_sum = 0.0, in_order = 0.0, positive = 0.0, negative = 0.0, moved = 0.0;
        std::size_t terms = 0;
        for (std::size_t n = 0; n < a.size(); ++n) {
          const double dx = px - a.x[n], dy = py - a.y[n], dz = pz - a.z[n];
          const double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 < coincidence_radius2) continue;  // adds an exact 0 in the kernels
          const double t = a.q[n] / std::sqrt(r2);
          v += t;
          if (terms++ > 0) in_order += std::abs(v);  // the first addition, 0 + t, is exact
          abs_sum += std::abs(t);
          (t > 0 ? positive : negative) += std::abs(t);
          moved += std::abs(a.q[n]) / r2 * (point_moved + atom_moved[n]);
        }
        const std::size_t idx = g.index(i, j, kz);
        e.value[idx] = v;
        e.abs_sum[idx] = abs_sum;
        e.in_order[idx] = in_order;
        e.any_order[idx] = terms > 1 ? double(terms - 1) * std::max(positive, negative) : 0.0;
        e.positioned[idx] = moved;
      }
  return e;
}

std::string comparison::describe(const lattice& g, const std::vector<float>& v, const expected_values& e,
                                 const tolerance& t) const {
  if (failures == 0) return "ok";
  const std::size_t i = first_bad;
  const int nx = g.dims[0], ny = g.dims[1];
  return std::to_string(failures) + " of " + std::to_string(v.size()) + " points out of bound (" +
         std::to_string(non_finite) + " not finite); first at (" + std::to_string(i % nx) + "," +
         std::to_string((i / nx) % ny) + "," + std::to_string(i / (std::size_t(nx) * ny)) + "): got " +
         std::to_string(v[i]) + ", float64 " + std::to_string(e.value[i]) + ", bound " +
         std::to_string(bound_at(e, i, t)) + "; needed k " + std::to_string(needed_k) + ", declared " +
         std::to_string(t.k);
}

comparison compare(const std::vector<float>& v, const expected_values& e, const tolerance& t) {
  comparison c;
  double diff2 = 0.0, ref2 = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool finite = std::isfinite(v[i]);
    const double err = finite ? std::abs(double(v[i]) - e.value[i]) : std::numeric_limits<double>::infinity();
    if (!finite) ++c.non_finite;
    if (!(err <= bound_at(e, i, t))) {
      if (c.failures == 0) c.first_bad = i;
      ++c.failures;
    }
    if (finite) c.worst_ratio = std::max(c.worst_ratio, err / bound_at(e, i, t));
    if (finite && e.abs_sum[i] > 0)
      c.needed_k = std::max(c.needed_k, (err - bound_at(e, i, t, 0.0)) / (eps_float * e.abs_sum[i]));
    diff2 += err * err;
    ref2 += e.value[i] * e.value[i];
  }
  c.relative_l2 = ref2 > 0 ? std::sqrt(diff2 / ref2) : diff2 > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  if (c.non_finite > 0) c.relative_l2 = std::numeric_limits<double>::infinity();
  return c;
}

comparison expect_within_tolerance(const std::string& strategy, const lattice& g, const std::vector<float>& v,
                                   const expected_values& e, const std::string& what, bool check_l2) {
  const tolerance& t = tolerance_of(strategy);
  const comparison c = compare(v, e, t);
  EXPECT_EQ(c.failures, 0u) << strategy << " on " << what << ": " << c.describe(g, v, e, t);
  if (check_l2) {
    EXPECT_LE(c.relative_l2, max_relative_l2) << strategy << " on " << what;
  }
  if (const char* log = std::getenv("PPL_TEST_TOLERANCE_LOG"))
    if (FILE* f = std::fopen(log, "a")) {
      std::fprintf(f, "%s\t%s\t%.3f\t%.4f\t%.3e\n", strategy.c_str(), what.c_str(), c.needed_k, c.worst_ratio,
                   c.relative_l2);
      std::fclose(f);
    }
  return c;
}

}  // namespace ppl::test
