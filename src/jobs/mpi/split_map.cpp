// A potential map split over MPI ranks (split_map.hpp). Compiled only in PPL_MPI builds.
#include "split_map.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <limits>

#include "ppl/core/error.hpp"

namespace ppl::mpi {

namespace {

bool running() {
  int started = 0, ended = 0;
  MPI_Initialized(&started);
  MPI_Finalized(&ended);
  return started && !ended;
}

int to_count(std::size_t n) {
  // A lattice holds at most 2^31 - 1 points (max_lattice_points), so a count of floats always fits.
  if (n > std::size_t(std::numeric_limits<int>::max()))
    throw error(exit_code::failure, "MPI: a slab of more than 2^31 - 1 points");
  return int(n);
}

}  // namespace

int rank() {
  if (!running()) return 0;
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int ranks() {
  if (!running()) return 1;
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

std::pair<int, int> planes_of(int nz, int r, int p) {
  // In 64 bits: nz * p may exceed an int.
  const auto at = [&](int q) { return int(std::int64_t(nz) * q / p); };
  return {at(r), at(r + 1)};
}

void check_split(const config_node& root, const potential_map_config& m) {
  const int p = ranks();
  if (m.grid.periodic)
    throw input_error((root.has("lattice") ? root.where("lattice") : root.where()) +
                      ": 'lattice.periodic': a periodic map is not split over MPI ranks (" + std::to_string(p) +
                      " ranks); run it with one rank");
  const auto* entry = potential_strategies().find(m.strategy_name);
  if (entry != nullptr && entry->can("z_slab")) return;
  std::string able;
  for (const auto& e : potential_strategies().entries())
    if (e.can("z_slab") && supports(e, m.pair)) able += (able.empty() ? "" : ", ") + e.name;
  throw input_error((root.has("strategy") ? root.where("strategy") : root.where()) + ": strategy " + m.strategy_name +
                    " cannot compute a slab of the map exactly, so it is not split over MPI ranks (" +
                    std::to_string(p) + " ranks); strategies that can: " + (able.empty() ? "none" : able) +
                    " (or run with one rank)");
}

map_timing compute_planes(const potential_map_config& m, int z0, int z1, potential_view out,
                          const std::function<void(const std::string&)>& say) {
  if (m.strategy_requested == "auto")
    say(fmt::format("strategy auto: {}{} ({})", m.strategy_name,
                    m.strategy_params.empty() ? "" : " " + m.strategy_params, m.strategy_reason));
  const lattice& g = m.grid;
  const std::size_t plane = std::size_t(g.dims[0]) * std::size_t(g.dims[1]);
  const auto slabs = map_slabs(m);
  const int runs = m.warmup + m.repeats;  // more than one only when map_slabs gave one slab
  map_timing t;
  t.slabs = int(slabs.size());
  t.seconds.assign(std::size_t(m.repeats), 0.0);
  bool first = true;
  for (const auto& [s0, s1] : slabs) {
    const int a = std::max(s0, z0), b = std::min(s1, z1);
    if (a >= b) continue;
    // The one-process run's lattice for these planes (the whole one, or its slab rebased at s0), from plane a.
    lattice sub = g;
    if (slabs.size() > 1) sub.origin[2] = g.coord(2, s0);
    sub.first_plane = a - s0;
    sub.dims[2] = b - a;
    // Unmanaged: this piece's part of the rank's planes.
    potential_view part(out.data() + std::size_t(a - z0) * plane, std::size_t(b - a) * plane);
    Kokkos::fence();
    const auto t0 = std::chrono::steady_clock::now();
    t.plan = m.strategy->prepare({m.input, sub, m.pair});
    Kokkos::fence();
    t.setup_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (int r = 0; r < runs; ++r) {
      Kokkos::fence();
      const auto t1 = std::chrono::steady_clock::now();
      m.strategy->compute(*t.plan, part, write_mode::overwrite);
      Kokkos::fence();
      if (r >= m.warmup)
        t.seconds[std::size_t(r - m.warmup)] +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    }
    t.pairs_examined += t.plan->pairs_examined();
    t.pairs_within += t.plan->pairs_within();
    t.pairs_loaded += t.plan->pairs_loaded();
    if (first) t.breakdown = t.plan->breakdown();
    first = false;
  }
  if (slabs.size() > 1) t.breakdown.emplace_back("slabs", double(slabs.size()));
  return t;
}

void reduce_timing(map_timing& t) {
  double sums[3] = {t.pairs_examined, t.pairs_within, t.pairs_loaded};
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  t.pairs_examined = sums[0], t.pairs_within = sums[1], t.pairs_loaded = sums[2];
  std::vector<double> times = t.seconds;
  times.push_back(t.setup_seconds);
  MPI_Allreduce(MPI_IN_PLACE, times.data(), to_count(times.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  t.setup_seconds = times.back();
  times.pop_back();
  t.seconds = times;
}

void gather_planes(const float* mine, std::size_t plane, int nz, float* full) {
  const int p = ranks(), me = rank();
  std::vector<int> counts, offsets;
  if (me == 0) {
    for (int r = 0; r < p; ++r) {
      const auto [z0, z1] = planes_of(nz, r, p);
      counts.push_back(to_count(std::size_t(z1 - z0) * plane));
      offsets.push_back(to_count(std::size_t(z0) * plane));
    }
  }
  const auto [z0, z1] = planes_of(nz, me, p);
  MPI_Gatherv(mine, to_count(std::size_t(z1 - z0) * plane), MPI_FLOAT, full, counts.data(), offsets.data(), MPI_FLOAT,
              0, MPI_COMM_WORLD);
}

int broadcast_from_first(int value) {
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value;
}

map_timing compute_split(const potential_map_config& m, potential_view full,
                         const std::function<void(const std::string&)>& say) {
  const lattice& g = m.grid;
  const std::size_t plane = std::size_t(g.dims[0]) * std::size_t(g.dims[1]);
  const int me = rank(), p = ranks();
  say(fmt::format("split over {} MPI ranks by z planes", p));
  const auto [z0, z1] = planes_of(g.dims[2], me, p);
  potential_view mine(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::potential::planes"),
                      std::size_t(z1 - z0) * plane);
  map_timing t = compute_planes(m, z0, z1, mine, say);
  reduce_timing(t);
  say(fmt::format("{} set-up: {:.6g} s (slowest rank)", m.strategy_name, t.setup_seconds));
  for (std::size_t r = 0; r < t.seconds.size(); ++r)
    say(fmt::format("{} run {}/{}: {:.6g} s (slowest rank)", m.strategy_name, r + 1, t.seconds.size(), t.seconds[r]));
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mine);
  Kokkos::View<float*, Kokkos::HostSpace> whole("ppl::potential::gathered", me == 0 ? g.size() : 0);
  gather_planes(host.data(), plane, g.dims[2], whole.data());
  if (me == 0) Kokkos::deep_copy(full, whole);
  return t;
}

int on_first_rank(const std::function<int()>& whole, const std::function<void()>& others) {
  if (rank() != 0) {
    others();
    return broadcast_from_first(0);
  }
  int rc = int(exit_code::ok);
  std::exception_ptr failure;
  try {
    rc = whole();
  } catch (const error& e) {
    rc = int(e.code());
    failure = std::current_exception();
  } catch (...) {
    rc = int(exit_code::failure);
    failure = std::current_exception();
  }
  rc = broadcast_from_first(rc);
  if (failure) std::rethrow_exception(failure);
  return rc;
}

int run_job(const potential_map_config& m, const std::function<int()>& whole) {
  if (ranks() <= 1) return whole();
  return on_first_rank(whole, [&] { compute_split(m, potential_view(), [](const std::string&) {}); });
}

}  // namespace ppl::mpi
