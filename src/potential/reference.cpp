// `reference`: the float64 oracle. Host loop over atoms per point, OpenMP-parallel over points; it reads the
// float64 atoms as given (not the float32 device copy), so it is independent of to_device's rounding.
#include "ppl/potential/reference.hpp"

#include <cmath>

#include "strategy_support.hpp"

namespace ppl {

double reference_potential_at(const atoms& a, double x, double y, double z) {
  double v = 0.0;
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = x - a.x[i], dy = y - a.y[i], dz = z - a.z[i];
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= coincidence_radius2) v += a.q[i] / std::sqrt(r2);
  }
  return v;
}

std::vector<double> reference_potential(const atoms& a, const lattice& g) {
  std::vector<double> out(g.size());
  const int nx = g.dims[0], ny = g.dims[1];
  using host = Kokkos::DefaultHostExecutionSpace;
  Kokkos::parallel_for("ppl::potential::reference",
                       Kokkos::RangePolicy<host, Kokkos::IndexType<std::int64_t>>(0, std::int64_t(g.size())),
                       [&](std::int64_t idx) {
                         const int i = int(idx % nx), j = int((idx / nx) % ny), k = int(idx / (std::int64_t(nx) * ny));
                         out[std::size_t(idx)] = reference_potential_at(a, g.coord(0, i), g.coord(1, j), g.coord(2, k));
                       });
  host().fence();
  return out;
}

namespace potential_detail {
namespace {

class reference_strategy final : public potential_strategy {
 public:
  void compute(const atoms& host_atoms, const device_atoms&, const lattice& g, potential_view out) override {
    profiling_region region("reference");
    const std::vector<double> v = reference_potential(host_atoms, g);
    auto h = Kokkos::create_mirror_view(out);
    for (std::size_t i = 0; i < v.size(); ++i) h(i) = float(v[i]);
    Kokkos::deep_copy(out, h);
    Kokkos::fence();
  }
};

}  // namespace

std::unique_ptr<potential_strategy> make_reference(const config_node*) {
  return std::make_unique<reference_strategy>();
}

}  // namespace potential_detail
}  // namespace ppl
