// `reference`: the float64 oracle. Host loop over atoms per point, OpenMP-parallel over points; it reads the
// float64 atoms as given (not the float32 device copy), so it is independent of to_device's rounding.
#include "ppl/potential/reference.hpp"

#include <cmath>

#include "strategy_support.hpp"

namespace ppl {

double reference_potential_at(const atoms& a, double x, double y, double z, const interaction& physics) {
  double v = 0.0;
  const std::size_t n = a.size();
  if (!physics.is_cutoff()) {  // the plain loop: the oracle of every direct strategy, kept free of branches
    for (std::size_t i = 0; i < n; ++i) {
      const double dx = x - a.x[i], dy = y - a.y[i], dz = z - a.z[i];
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= coincidence_radius2) v += a.q[i] / std::sqrt(r2);
    }
    return v;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = x - a.x[i], dy = y - a.y[i], dz = z - a.z[i];
    v += pair_potential_f64(physics, a.q[i], dx * dx + dy * dy + dz * dz);
  }
  return v;
}

double reference_potential_at(const atoms& a, const lattice& g, double x, double y, double z,
                              const interaction& physics) {
  if (!g.periodic) return reference_potential_at(a, x, y, z, physics);
  const auto box = g.box();
  auto image = [](double d, double l) { return d - l * std::nearbyint(d / l); };  // minimum image, |d| <= l/2
  double v = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double dx = image(x - a.x[i], box[0]), dy = image(y - a.y[i], box[1]), dz = image(z - a.z[i], box[2]);
    v += pair_potential_f64(physics, a.q[i], dx * dx + dy * dy + dz * dz);
  }
  return v;
}

namespace {

// The float64 map on a host execution space (the strategy runs it on the space it is given).
template <class Host>
std::vector<double> reference_on(const Host& host, const atoms& a, const lattice& g, const interaction& physics) {
  std::vector<double> out(g.size());
  Kokkos::parallel_for("ppl::potential::reference",
                       Kokkos::RangePolicy<Host, Kokkos::IndexType<std::int64_t>>(host, 0, std::int64_t(g.size())),
                       [&](std::int64_t idx) {
                         const auto p = g.point(std::size_t(idx));
                         out[std::size_t(idx)] = reference_potential_at(a, g, p[0], p[1], p[2], physics);
                       });
  host.fence();
  return out;
}

}  // namespace

std::vector<double> reference_potential(const atoms& a, const lattice& g, const interaction& physics) {
  return reference_on(Kokkos::DefaultHostExecutionSpace(), a, g, physics);
}

namespace potential_detail {
namespace {

// The reference keeps the float64 atoms (the device copy would round them).
class reference_plan final : public potential_plan {
 public:
  explicit reference_plan(const potential_problem& p) : potential_plan(p), input(p.input) {}
  atoms input;
};

class reference_strategy final : public potential_strategy {
 public:
  std::unique_ptr<potential_plan> prepare(const potential_problem& p) const override {
    return std::make_unique<reference_plan>(p);
  }
  void compute(const execution& space, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
    profiling_region region("reference");
    const auto* p = dynamic_cast<const reference_plan*>(&plan);
    if (p == nullptr) throw error(exit_code::failure, "reference: given another strategy's plan");
    const std::vector<double> v = on_host(space, [&](const auto& host) {
      return reference_on(host, p->input, p->grid, p->physics);
    });
    auto h = Kokkos::create_mirror_view(out);
    if (mode == write_mode::accumulate) Kokkos::deep_copy(h, out);
    for (std::size_t i = 0; i < v.size(); ++i) h(i) = mode == write_mode::accumulate ? float(h(i) + v[i]) : float(v[i]);
    Kokkos::deep_copy(out, h);
    space.fence();
  }
};

}  // namespace

}  // namespace potential_detail

std::unique_ptr<potential_strategy> make_reference(const no_parameters&) {
  return std::make_unique<potential_detail::reference_strategy>();
}

}  // namespace ppl
