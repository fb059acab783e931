// `cutoff_binned`: the portable Kokkos cutoff summation (the kernel and its plan are in cutoff_binned.hpp).
#include "cutoff_binned.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "ppl/core/error.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/kernels/pair_terms.hpp"
#include "ppl/spatial/bin_stencil.hpp"

namespace ppl::potential_detail {

namespace {

const char* const small_bin_capacity_doc =
    "atom slots per bin; auto: 8, grown to the fullest bin (up to 32) so that nothing overflows to the host";
const char* const region_doc = "lattice points per team (x a multiple of C); the bin stencil is computed for it";
const char* const team_size_doc =
    "threads per team; auto: one per segment on a GPU (64 for the defaults), 1 on the host";
const char* const stage_atoms_doc =
    "atoms per stage in team scratch (shared memory on a GPU), packed across the bins of the offset list";
const char* const bin_edge_doc = "bin edge (A); periodic boxes stretch it to divide the box";

}  // namespace

binned_setup binned_setup_of(const binned_common_params& p, double bin_edge, int team_size, bool large_bins,
                             int auto_start, int max_capacity) {
  if (p.region[0] % p.coarsening != 0)
    throw parameter_error("region", "[0] = " + std::to_string(p.region[0]) + " must be a multiple of the coarsening " +
                                        std::to_string(p.coarsening));
  binned_setup b{};
  b.bin_edge = bin_edge;
  b.auto_capacity = p.bin_capacity == 0;
  b.capacity = b.auto_capacity ? auto_start : p.bin_capacity;
  b.max_capacity = max_capacity;
  b.large_bins = large_bins;
  b.coarsening = p.coarsening;
  b.region = p.region;
  b.team_size = team_size;
  b.segment_test = p.atom_test == "segment";
  b.stage_atoms = p.stage_atoms;
  return b;
}

binned_plan::binned_plan(const potential_problem& pr, const binned_setup& bp, const std::string& name)
    : binned_plan(pr, bp, name, nullptr) {}

binned_plan::binned_plan(const potential_problem& pr, const binned_setup& bp, const std::string& name,
                         const device_atoms* staged)
    : potential_plan(pr), params(bp), label(name) {
  if (!pr.physics.is_cutoff() && !pr.physics.is_msm())
    throw error(exit_code::failure, label + ": needs a cutoff interaction (or an msm one's short range)");
  const double rc = pr.physics.radius;
  using clock = std::chrono::steady_clock;
  const auto seconds_since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };
  auto t0 = clock::now();
  const device_atoms atoms = staged != nullptr ? *staged : to_device(pr.input, pr.grid);
  upload_seconds = staged != nullptr ? 0.0 : seconds_since(t0);
  geo.g = pr.grid.shape();
  geo.grid = spatial::make_bin_grid(pr.grid, bp.edge_for(rc), rc, pr.grid.periodic);
  for (int d = 0; d < 3; ++d) {
    geo.region[d] = bp.region[d];
    geo.regions[d] = int((pr.grid.dims[d] + bp.region[d] - 1) / bp.region[d]);
  }
  if (double(geo.regions[0]) * geo.regions[1] * geo.regions[2] > 2147483647.0)
    throw input_error(label + ": more than 2^31 - 1 regions; use a larger 'region'");
  const int grow_to = bp.auto_capacity ? bp.max_capacity : 0;
  // The kernels address a bin's first slot with an int.
  if (double(geo.grid.size()) * std::max(bp.capacity, grow_to) > 2147483647.0)
    throw input_error(label + ": " + std::to_string(geo.grid.size()) + " bins x " +
                      std::to_string(std::max(bp.capacity, grow_to)) +
                      " slots exceed 2^31 - 1 atom slots; use larger bins or a smaller 'bin_capacity'");
  if (default_space_is_gpu())
    spatial::check_atom_bins_memory(geo.grid, std::max(bp.capacity, grow_to), atoms.size(),
                                    query_system_info().device_memory_gib * 1073741824.0 * 0.9, "device memory");
  // Every overflow atom costs the host a cube of (2 rc / h)^3 points (10^5 at 12 A and 0.5 A): the automatic
  // capacity grows to the fullest bin (up to max_capacity), so only bins fuller than that overflow.
  t0 = clock::now();
  bins = spatial::build_atom_bins(atoms, geo.grid, bp.capacity, grow_to);
  binning_seconds = seconds_since(t0);
  t0 = clock::now();
  geo.capacity = bins.capacity;
  params.capacity = geo.capacity;
  const double extent[3] = {pr.grid.spacing * (bp.region[0] - 1), pr.grid.spacing * (bp.region[1] - 1),
                            pr.grid.spacing * (bp.region[2] - 1)};
  stencil_host = spatial::make_bin_stencil(geo.grid.edge, extent, rc);
  geo.stencil_size = int(stencil_host.size());
  geo.stage_atoms = bp.stage_atoms;
  geo.scan_level = 0;
  if (binned_scratch_bytes(geo, 0) > std::size_t(Kokkos::TeamPolicy<>::scratch_size_max(0))) geo.scan_level = 1;
  geo.segment_test = bp.segment_test;
  // From the device block cache: a plan made again per trajectory frame allocates nothing after the first.
  auto stencil_block = make_cached_view<int>(3 * stencil_host.size());
  stencil = stencil_block.view, storage.push_back(stencil_block.block);
  auto h = Kokkos::create_mirror_view(stencil);
  for (std::size_t s = 0; s < stencil_host.size(); ++s)
    for (int d = 0; d < 3; ++d) h(3 * s + d) = stencil_host[s][std::size_t(d)];
  Kokkos::deep_copy(stencil, h);
  auto offsets_block = make_cached_view<short>(4 * stencil_host.size());
  offsets16 = offsets_block.view, storage.push_back(offsets_block.block);
  auto h16 = Kokkos::create_mirror_view(offsets16);
  for (std::size_t s = 0; s < stencil_host.size(); ++s)
    for (int d = 0; d < 4; ++d) {
      const int o = d < 3 ? stencil_host[s][std::size_t(d)] : 0;
      if (o < -32768 || o > 32767) throw input_error(label + ": a bin offset beyond 16 bits; use larger bins");
      h16(4 * s + d) = short(o);
    }
  Kokkos::deep_copy(offsets16, h16);
  stencil_seconds = seconds_since(t0);
  if (bins.overflow_host.extent(0) > 0) {
    overflow_map_host = Kokkos::View<float*, Kokkos::HostSpace>("ppl::potential::overflow_host", pr.grid.size());
    overflow_map = potential_view("ppl::potential::overflow", pr.grid.size());
  }
}

int binned_team_size(const binned_setup& p) {
  const int segments = (p.region[0] / p.coarsening) * p.region[1] * p.region[2];
  int t = p.team_size > 0 ? p.team_size : default_space_is_gpu() ? segments : 1;
  return std::min(t, segments);
}

namespace {

binned_geometry scratch_geometry(const binned_setup& p) {
  binned_geometry geo{};
  for (int d = 0; d < 3; ++d) geo.region[d] = p.region[d];
  geo.capacity = p.auto_capacity ? p.max_capacity : p.capacity;  // the most scratch the plan may ask for
  geo.stage_atoms = p.stage_atoms;
  geo.stencil_size = 0;  // its scan may go to level 1 (see binned_plan)
  geo.scan_level = 0;
  return geo;
}

// Kokkos' team_size_max for the kernel<Space, C, Term, Count> with this scratch.
template <class Space, int C, class Term, bool Count>
int max_team(const binned_geometry& geo) {
  using kernel = binned_kernel<Space, C, Term, Count>;
  typename kernel::policy probe(1, 1);
  probe.set_scratch_size(0, Kokkos::PerTeam(binned_scratch_bytes(geo, 0)));
  probe.set_scratch_size(1, Kokkos::PerTeam(binned_scratch_bytes(geo, 1)));
  kernel k{};
  k.geo = geo;
  return probe.team_size_max(k, Kokkos::ParallelForTag());
}

template <int C>
int max_team_all_terms(const binned_geometry& geo) {
  using S = Kokkos::DefaultExecutionSpace;
  int m = max_team<S, C, kernels::truncated_term, false>(geo);
  m = std::min(m, max_team<S, C, kernels::cutcp_term, false>(geo));
  m = std::min(m, max_team<S, C, kernels::shifted_term, false>(geo));
  m = std::min(m, max_team<S, C, kernels::msm_short_term, false>(geo));
  return std::min(m, max_team<S, C, kernels::truncated_term, true>(geo));
}

template <int C, class Term, bool Count, class Space>
void launch_one(const Space& space, const binned_plan& p, potential_view out, bool accumulate,
                Kokkos::View<unsigned long long*> counts, const Term& term) {
  using kernel = binned_kernel<Space, C, Term, Count>;
  const int team = binned_team_size(p.params);  // checked against the default space's team_size_max by the factory
  const kernel k{p.geo,     p.bins.slots, p.bins.counts, p.stencil,
                 out,       counts,       term,          float(p.physics.radius * p.physics.radius),
                 accumulate};
  if constexpr (!std::is_same_v<Space, Kokkos::DefaultExecutionSpace>) {  // Serial: one-thread teams
    const int limit = max_team<Space, C, Term, Count>(p.geo);
    if (team > limit)
      throw error(exit_code::bad_input, p.label + ": teams of " + std::to_string(team) + " threads, but " +
                                            Space::name() + " runs this kernel with teams of at most " +
                                            std::to_string(limit));
  }
  const int league = p.geo.regions[0] * p.geo.regions[1] * p.geo.regions[2];
  typename kernel::policy policy(space, league, team);
  policy.set_scratch_size(0, Kokkos::PerTeam(binned_scratch_bytes(p.geo, 0)));
  policy.set_scratch_size(1, Kokkos::PerTeam(binned_scratch_bytes(p.geo, 1)));
  Kokkos::parallel_for("ppl::potential::" + p.label, policy, k);
}

// The pair counting pass (work efficiency), on the default space: it does not evaluate the term, so one variant per
// C, 16 included for cutoff_binned_cuda.
void count_binned(const binned_plan& p, Kokkos::View<unsigned long long*> pair_counts) {
  with_coarsening(p.params.coarsening, [&](auto c) {
    launch_one<decltype(c)::value, kernels::truncated_term, true>(Kokkos::DefaultExecutionSpace(), p, {}, false,
                                                                  pair_counts, kernels::truncated_term{});
  });
}

}  // namespace

void launch_binned(const execution& space, const binned_plan& p, potential_view out, bool accumulate) {
  space.visit([&](const auto& s) {
    kernels::with_cutoff_term(p.physics, [&](const auto& term) {
      using Term = std::decay_t<decltype(term)>;
      with_coarsening(p.params.coarsening, [&](auto c) {  // 1, 2, 4, 8 (the declared values; 16 is not instantiated)
        if constexpr (decltype(c)::value <= 8) launch_one<decltype(c)::value, Term, false>(s, p, out, accumulate, {}, term);
      });
    });
  });
}

namespace {

// Calls f(point index within plane k, r^2, q) for every pair of an overflow atom (lattice frame, float32 positions as
// the kernels see them) and a point of plane k that lies within the atom's cube of side 2 rc (periodic: each pair
// at its minimum image). The one loop behind the host sum and the pair counts.
template <class F>
void visit_overflow_plane(const binned_plan& p, int k, F&& f) {
  const auto atoms = p.bins.overflow_host;
  const auto& g = p.grid;
  const double h = g.spacing, rc = p.physics.radius;
  const auto box = g.box();
  const int nx = g.dims[0], ny = g.dims[1];
  const double z = h * k;
  for (std::size_t n = 0; n < atoms.extent(0); ++n) {
    const atom4 a = atoms(n);
    double dz = z - a.z;
    if (g.periodic) dz -= box[2] * std::nearbyint(dz / box[2]);
    if (!(std::abs(dz) < rc)) continue;
    const int jlo = int(std::ceil((a.y - rc) / h)), jhi = int(std::floor((a.y + rc) / h));
    const int ilo = int(std::ceil((a.x - rc) / h)), ihi = int(std::floor((a.x + rc) / h));
    for (int jj = jlo; jj <= jhi; ++jj) {
      int j = jj;
      if (g.periodic)
        j = ((jj % ny) + ny) % ny;
      else if (jj < 0 || jj >= ny)
        continue;
      const double dy = h * jj - a.y;  // unwrapped: two images of one row differ by a box >= 2 rc
      if (!(std::abs(dy) < rc)) continue;
      for (int ii = ilo; ii <= ihi; ++ii) {
        int i = ii;
        if (g.periodic)
          i = ((ii % nx) + nx) % nx;
        else if (ii < 0 || ii >= nx)
          continue;
        const double dx = h * ii - a.x;
        f(std::size_t(j) * nx + i, dx * dx + dy * dy + dz * dz, a.q);
      }
    }
  }
}

}  // namespace

// In parallel over z planes (one thread per plane: no two threads write the same point), float64 per pair.
void sum_overflow_on_host(const binned_plan& p) {
  const int nx = p.grid.dims[0], ny = p.grid.dims[1];
  auto map = p.overflow_map_host;
  const interaction physics = p.physics;
  Kokkos::parallel_for("ppl::potential::overflow_host",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, p.grid.dims[2]), [&](int k) {
                         float* plane = map.data() + std::size_t(k) * nx * ny;
                         std::fill(plane, plane + std::size_t(nx) * ny, 0.0f);
                         visit_overflow_plane(p, k, [&](std::size_t at, double r2, float q) {
                           plane[at] += float(short_range_potential_f64(physics, q, r2));
                         });
                       });
  Kokkos::DefaultHostExecutionSpace().fence();
}

void binned_plan::count_pairs() const {
  if (examined_ >= 0) return;
  Kokkos::View<unsigned long long*> counts("ppl::potential::pair_counts", 3);
  count_binned(*this, counts);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  examined_ = double(h(0));
  within_ = double(h(1));
  loaded_ = double(h(2));
  const double rc2 = physics.radius * physics.radius;
  for (int k = 0; k < grid.dims[2]; ++k)
    visit_overflow_plane(*this, k, [&](std::size_t, double r2, float) {
      examined_ += 1;
      loaded_ += 1;
      within_ += (r2 < rc2 && r2 >= coincidence_radius2) ? 1 : 0;
    });
}

std::vector<std::pair<std::string, double>> binned_plan::breakdown() const {
  return {{"bins", double(geo.grid.size())},       {"bin_capacity", double(geo.capacity)},
          {"fullest_bin", double(bins.max_count)}, {"overflow_atoms", double(bins.overflow_host.extent(0))},
          {"dropped_atoms", double(bins.dropped)}, {"stencil_bins", double(geo.stencil_size)},
          {"setup_upload_s", upload_seconds},      {"setup_binning_s", binning_seconds},
          {"setup_stencil_s", stencil_seconds},    {"overflow_host_s", host_seconds},
          {"compute_wall_s", wall_seconds}};
}

double binned_plan::pairs_examined() const {
  count_pairs();
  return examined_;
}

double binned_plan::pairs_within() const {
  count_pairs();
  return within_;
}

double binned_plan::pairs_loaded() const {
  count_pairs();
  return loaded_;
}

namespace {

class binned_strategy final : public potential_strategy {
 public:
  binned_strategy(binned_setup p, std::string label, binned_launch launch, binned_check check_launch)
      : params_(p), label_(std::move(label)), launch_(launch), check_launch_(check_launch) {}

  // The bin grid's limits and the memory of the bins (at the largest capacity the plan may choose) and of the
  // host's overflow map, before anything is allocated.
  void check(const potential_problem& p) const override {
    const auto grid =
        spatial::make_bin_grid(p.grid, params_.edge_for(p.physics.radius), p.physics.radius, p.grid.periodic);
    const int capacity = params_.auto_capacity ? params_.max_capacity : params_.capacity;
    if (default_space_is_gpu())
      spatial::check_atom_bins_memory(grid, capacity, p.input.size(),
                                      query_system_info().device_memory_gib * 1073741824.0 * 0.9, "device memory");
    const double host_bytes = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    if (host_bytes > 0)
      spatial::check_atom_bins_memory(grid, capacity, p.input.size(), host_bytes * 0.9, "host memory");
    const double extent[3] = {p.grid.spacing * (params_.region[0] - 1), p.grid.spacing * (params_.region[1] - 1),
                              p.grid.spacing * (params_.region[2] - 1)};
    const auto stencil = spatial::make_bin_stencil(grid.edge, extent, p.physics.radius);  // throws when absurd
    if (check_launch_ != nullptr) check_launch_(params_, stencil.size());
  }

  std::unique_ptr<potential_plan> prepare(const potential_problem& p) const override {
    profiling_region region(label_);
    return std::make_unique<binned_plan>(p, params_, label_);
  }
  std::unique_ptr<binned_plan> prepare_with(const potential_problem& p, const device_atoms& staged) const {
    profiling_region region(label_);
    return std::make_unique<binned_plan>(p, params_, label_, &staged);
  }

  void compute(const execution& space, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
    profiling_region region(label_);
    const auto* p = dynamic_cast<const binned_plan*>(&plan);
    if (p == nullptr) throw error(exit_code::failure, label_ + ": given another strategy's plan");
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    launch_(space, *p, out, mode == write_mode::accumulate);  // asynchronous on a GPU
    const bool overflow = p->overflow_map.extent(0) > 0;
    if (overflow) {
      const auto h0 = clock::now();
      sum_overflow_on_host(*p);  // meanwhile, on the host
      p->host_seconds = std::chrono::duration<double>(clock::now() - h0).count();
      space.visit([&](const auto& s) { add_overflow(s, *p, out); });
    }
    space.fence();
    p->wall_seconds = std::chrono::duration<double>(clock::now() - t0).count();
  }

  // The host's overflow map added on `space` after its kernel (public: nvcc rejects an extended lambda in a private
  // member function).
  template <class Space>
  void add_overflow(const Space& space, const binned_plan& p, potential_view out) const {
    Kokkos::deep_copy(space, p.overflow_map, p.overflow_map_host);  // after the kernel (same stream)
    const auto add = p.overflow_map;
    Kokkos::parallel_for(
        "ppl::potential::" + label_ + "_overflow_add",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(out.extent(0))),
        KOKKOS_LAMBDA(std::int64_t i) { out(i) += add(i); });
  }

 private:
  binned_setup params_;
  std::string label_;
  binned_launch launch_;
  binned_check check_launch_;
};

void launch_portable(const execution& space, const binned_plan& p, potential_view out, bool accumulate) {
  launch_binned(space, p, out, accumulate);
}

}  // namespace

std::unique_ptr<potential_strategy> make_binned_strategy(const binned_setup& p, const std::string& label,
                                                         binned_launch launch, binned_check check_launch) {
  return std::make_unique<binned_strategy>(p, label, launch, check_launch);
}

std::unique_ptr<binned_plan> prepare_binned(const potential_strategy& s, const potential_problem& p,
                                            const device_atoms& staged) {
  const auto* b = dynamic_cast<const binned_strategy*>(&s);
  if (b == nullptr) throw error(exit_code::failure, "prepare_binned: not a binned strategy");
  return b->prepare_with(p, staged);
}

// At configuration time (`ppl validate`): the team must be one the default space launches for every variant of the
// kernel with this scratch, or the factory throws a parameter_error naming team_size.
void check_binned_team(const std::string& label, const binned_setup& p) {
  const binned_geometry geo = scratch_geometry(p);
  int limit = 0;
  with_coarsening(p.coarsening, [&](auto c) {
    if constexpr (decltype(c)::value <= 8) limit = max_team_all_terms<decltype(c)::value>(geo);
  });
  const int team = binned_team_size(p);
  if (team <= limit) return;
  throw parameter_error("team_size", std::string(p.team_size ? "= " + std::to_string(team) : "(auto)") + ": " + label +
                                         ": teams of " + std::to_string(team) + " threads" +
                                         (p.team_size ? "" : " (one per segment of the region)") + ", but this build (" +
                                         Kokkos::DefaultExecutionSpace::name() +
                                         ") runs this kernel with teams of at most " + std::to_string(limit) +
                                         " (region and stage_atoms as configured): team_size must be in [1, " +
                                         std::to_string(limit) + "]");
}

}  // namespace ppl::potential_detail

namespace ppl {

const parameter_fields<cutoff_binned_params>& cutoff_binned_params::fields() {
  static const auto f = [] {
    using P = cutoff_binned_params;
    using namespace potential_detail;
    parameter_fields<P> d;
    d.real("bin_edge", &P::bin_edge, 0.25, 64, bin_edge_doc);
    binned_common_fields(d, 1024, small_bin_capacity_doc, {1, 2, 4, 8}, region_doc)
        .integer_or_auto("team_size", &P::team_size, 1, 1024, team_size_doc)
        .integer("stage_atoms", &P::stage_atoms, 1, 2048, stage_atoms_doc);
    return d;
  }();
  return f;
}

std::unique_ptr<potential_strategy> make_cutoff_binned(const cutoff_binned_params& p) {
  using namespace potential_detail;
  cutoff_binned_params::fields().check(p);
  const binned_setup b = binned_setup_of(p, p.bin_edge, p.team_size, false, 8, max_auto_capacity);
  check_binned_team("cutoff_binned", b);
  return make_binned_strategy(b, "cutoff_binned", launch_portable, nullptr);
}

// cutoff_binned_cuda's fields are declared in portable code, so every build lists them: no team size (one thread per
// segment), a stage is a number of atoms.
const parameter_fields<cutoff_binned_cuda_params>& cutoff_binned_cuda_params::fields() {
  static const auto f = [] {
    using P = cutoff_binned_cuda_params;
    using namespace potential_detail;
    parameter_fields<P> d;
    d.real("bin_edge", &P::bin_edge, 0.25, 64, bin_edge_doc);
    binned_common_fields(d, 1024, small_bin_capacity_doc, {4, 8, 16},
                         "lattice points per block (x a multiple of C; one thread per segment, at most 1024)")
        .integer("stage_atoms", &P::stage_atoms, 32, 2048,
                 "atoms per __shared__ stage, packed across the bins of the offset list");
    return d;
  }();
  return f;
}

const parameter_fields<cutoff_large_bins_params>& cutoff_large_bins_params::fields() {
  static const auto f = [] {
    using P = cutoff_large_bins_params;
    using namespace potential_detail;
    parameter_fields<P> d;
    binned_common_fields(d, 4096,
                         "atom slots per bin; auto: grown to the fullest bin (up to 1024) so that nothing overflows to "
                         "the host",
                         {1, 2, 4, 8}, region_doc)
        .integer_or_auto("team_size", &P::team_size, 1, 1024, team_size_doc)
        .integer("stage_atoms", &P::stage_atoms, 1, 2048, stage_atoms_doc);
    return d;
  }();
  return f;
}

// The lecture's baseline: bins as large as the cutoff, so a region reads the 3 x 3 x 3 bins around it whole (with
// the same kernel, staging one bin at a time); its work efficiency is what small bins improve on.
std::unique_ptr<potential_strategy> make_cutoff_large_bins(const cutoff_large_bins_params& p) {
  using namespace potential_detail;
  cutoff_large_bins_params::fields().check(p);
  const binned_setup b = binned_setup_of(p, 0.0, p.team_size, true, 64, 1024);
  check_binned_team("cutoff_large_bins", b);
  return make_binned_strategy(b, "cutoff_large_bins", launch_portable, nullptr);
}

}  // namespace ppl
