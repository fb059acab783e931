// Which ions, in which order, and the placement loop (ppl/ions/ion_plan.hpp).
#include "ppl/ions/ion_plan.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>

#include "bounded_placement.hpp"

namespace ppl {
namespace {

int gcd(int a, int b) {
  return b == 0 ? a : gcd(b, a % b);
}

}  // namespace

double solute_charge(const std::vector<double>& q) {
  const double sum = std::accumulate(q.begin(), q.end(), 0.0);
  const double nearest = std::round(sum);
  return std::abs(sum - nearest) <= integer_charge_tolerance ? nearest + 0.0 : sum;  // + 0.0: no -0
}

double nearest_atom_distance(const atoms& a, double x, double y, double z) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t n = 0; n < a.size(); ++n) {
    const double dx = a.x[n] - x, dy = a.y[n] - y, dz = a.z[n] - z;
    best = std::min(best, dx * dx + dy * dy + dz * dz);
  }
  return std::sqrt(best);
}

ion_plan plan_ions(const ion_request& r, double charge, double solvent_volume) {
  ion_plan p;
  auto too_many = [&](const char* key, double n) {
    if (n > double(max_ions))
      throw ion_request_error(key, fmt::format("'ions.{}' asks for {:.6g} ions, more than the {} one job places "
                                               "(each ion's potential is added to every point of the lattice)",
                                               key, n, max_ions));
  };
  const int counter_sign = charge <= 0 ? 1 : -1;
  if (!r.counts.empty()) {
    double total = 0;
    for (const auto& [s, n] : r.counts) {
      if (n < 0 || n > 1000000)
        throw ion_request_error("counts", fmt::format("'ions.counts.{}' = {} is not in [0, 1000000]", s->name, n));
      total += n;
    }
    too_many("counts", total);
    for (int pass : {counter_sign, -counter_sign})
      for (const auto& sp : ion_species_table())
        for (const auto& [s, n] : r.counts)
          if (s == &sp && s->charge * pass > 0) p.order.insert(p.order.end(), std::size_t(n), s);
    return p;
  }
  if (r.cation->charge <= 0)
    throw ion_request_error("cation", "'ions.cation' = " + r.cation->name + " is not a cation");
  if (r.anion->charge >= 0) throw ion_request_error("anion", "'ions.anion' = " + r.anion->name + " is not an anion");
  if (!(r.salt_molar >= 0 && r.salt_molar <= 10))
    throw ion_request_error("salt_molar", fmt::format("'ions.salt_molar' = {} is not in [0, 10]", r.salt_molar));
  if (r.neutralize && charge != 0.0) {
    p.counterion = charge < 0 ? r.cation : r.anion;
    // Rounded in float64 first: a huge charge must be refused, not overflow the int.
    const double n = std::round(std::abs(charge) / std::abs(p.counterion->charge));
    too_many("neutralize", n);
    p.counterions = int(n);
    p.order.insert(p.order.end(), std::size_t(p.counterions), p.counterion);
  }
  const double units = r.salt_molar * ions_per_A3_per_molar * solvent_volume;
  if (units > 1e6) throw ion_request_error("salt_molar", "'ions.salt_molar' asks for more than 1e6 ions");
  p.salt_units = int(std::llround(units));
  const int zc = r.cation->charge, za = -r.anion->charge, g = gcd(zc, za);
  too_many("salt_molar", double(p.counterions) + double(p.salt_units) * double(za / g + zc / g));
  for (int u = 0; u < p.salt_units; ++u) {
    p.order.insert(p.order.end(), std::size_t(za / g), r.cation);
    p.order.insert(p.order.end(), std::size_t(zc / g), r.anion);
  }
  return p;
}

std::uint64_t map_checksum(Kokkos::View<const float*> map) {
  std::uint64_t sum = 0;
  Kokkos::parallel_reduce(
      "ppl::ions::map_checksum", Kokkos::RangePolicy<Kokkos::IndexType<std::int64_t>>(0, std::int64_t(map.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t n, std::uint64_t& s) {
        std::uint32_t bits;
        const float v = map(n);
        std::memcpy(&bits, &v, sizeof bits);
        // splitmix64's finaliser of (index, bits): every bit of both reaches every bit of the term.
        std::uint64_t z = (std::uint64_t(n) << 32 | bits) + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        s += z ^ (z >> 31);
      },
      sum);
  return sum;
}

std::vector<placed_ion> place_ions(ion_placer& placer, potential_view map, const std::vector<const ion_species*>& order,
                                   double min_ions,
                                   const std::function<void(std::size_t, const placed_ion&)>& after_each,
                                   placement_algorithm algorithm, placement_report* report) {
  using clock_type = std::chrono::steady_clock;
  std::vector<placed_ion> ions;
  ions.reserve(order.size());
  placement_report r;
  r.algorithm = algorithm;
  if (report) *report = r;
  if (order.empty()) return ions;
  std::unique_ptr<ions_detail::bounded_placement> bounded;
  if (algorithm == placement_algorithm::bounded) {
    bounded = std::make_unique<ions_detail::bounded_placement>(placer, map);
    r.blocks = bounded->blocks();
    r.points_per_block = ions_detail::block_points;
  }
  Kokkos::fence();
  auto t0 = clock_type::now();
  ion_choice c = bounded ? bounded->select(float(order[0]->charge)) : placer.select(map, float(order[0]->charge));
  std::int64_t blocks = bounded ? bounded->last_blocks() : -1;  // the first selection's, counted in the first ion
  for (std::size_t n = 0; n < order.size(); ++n) {
    const ion_species& sp = *order[n];
    if (c.index < 0) {
      if (bounded) bounded->finish();  // the map and mask with the ions placed so far
      throw input_error(
          fmt::format("no allowed lattice point is left for ion {} of {} ({}): fewer ions, "
                      "smaller distances or a larger lattice",
                      n + 1, order.size(), sp.name));
    }
    placed_ion ion;
    ion.species = &sp;
    ion.point = c.index;
    const auto pos = placer.grid().point(std::size_t(c.index));
    ion.x = pos[0], ion.y = pos[1], ion.z = pos[2];
    ion.potential = double(c.score) / sp.charge;  // exact: q is +-1 or +-2
    const float next = n + 1 < order.size() ? float(order[n + 1]->charge) : 0.0f;
    const float* next_q = n + 1 < order.size() ? &next : nullptr;
    if (bounded) {
      c = bounded->add_ion(c.index, float(sp.charge), min_ions, next_q);
      ion.blocks = blocks + bounded->last_blocks();
      blocks = 0;
    } else {
      c = placer.add_ion(map, c.index, float(sp.charge), min_ions, next_q);
    }
    Kokkos::fence();
    ion.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    ions.push_back(ion);
    if (after_each) after_each(n, ions.back());
    t0 = clock_type::now();  // what after_each does (a progress line) is not the next ion's time
  }
  if (bounded) r.finish_seconds = bounded->finish_seconds();
  if (report) *report = r;
  return ions;
}

}  // namespace ppl
