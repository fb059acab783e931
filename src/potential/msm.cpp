// `msm`: multilevel summation (msm.hpp; docs/msm.md). The short range is a binned cutoff strategy's plan and
// kernel (cutoff_binned, or cutoff_binned_cuda on CUDA builds) with MSM's splitting as its pair term; the long range
// is the grid hierarchy of spatial/multilevel_grid.hpp, in float64.
#include "msm.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>

#include "ppl/core/error.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/potential/strategies.hpp"

namespace ppl::potential_detail {

namespace {

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

// The hierarchy grows no larger than this (nodes over all levels): 2^31 keeps every index an int per axis and
// the memory under 40 GB.
constexpr double max_msm_nodes = 2147483647.0;

// Lattice cutoff radius in level nodes: g_a - g_2a vanishes from 2 a on, so offsets with |d| h < 2 a.
int lattice_cutoff_nodes(const msm_parameters& m) {
  return int(std::floor(2.0 * m.cutoff / m.spacing));
}

// The box the finest grid must cover, in the lattice frame: the atoms (as the float32 device copy holds them) and
// the map's points.
struct frame_box {
  std::array<double, 3> lo, hi;
};
frame_box box_of(const Kokkos::View<atom4*, Kokkos::HostSpace>& a, const lattice& g) {
  frame_box b;
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = 0.0;
    b.hi[d] = double(g.dims[d] - 1) * g.spacing;
  }
  for (std::size_t n = 0; n < a.extent(0); ++n) {
    const double x[3] = {a(n).x, a(n).y, a(n).z};
    for (int d = 0; d < 3; ++d) {
      b.lo[d] = std::min(b.lo[d], x[d]);
      b.hi[d] = std::max(b.hi[d], x[d]);
    }
  }
  return b;
}
frame_box box_of(const atoms& a, const lattice& g) {  // float64 atoms: the estimate of check()
  frame_box b;
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = -1e-3;
    b.hi[d] = double(g.dims[d] - 1) * g.spacing + 1e-3;
  }
  for (std::size_t n = 0; n < a.size(); ++n) {
    const double x[3] = {a.x[n] - g.origin[0], a.y[n] - g.origin[1], a.z[n] - g.origin[2]};
    for (int d = 0; d < 3; ++d) {
      b.lo[d] = std::min(b.lo[d], x[d] - 1e-3);
      b.hi[d] = std::max(b.hi[d], x[d] + 1e-3);
    }
  }
  return b;
}

spatial::multilevel_grid grids_for(const frame_box& b, const msm_parameters& m) {
  const int p = m.order_degree();
  // Padding: the lattice cutoff's reach plus its C - 1 = 3 extra nodes per thread segment, and restriction's 2 p.
  return spatial::make_multilevel_grid(b.lo, b.hi, m.spacing, p, m.levels, std::max(lattice_cutoff_nodes(m) + 3, 2 * p),
                                       max_msm_nodes);
}

// Top-level pairs (every node with every node): bounded so that a hierarchy cut short by `levels` cannot hang a run.
constexpr double max_top_pairs = 4e10;

void check_top(const spatial::multilevel_grid& g) {
  const double n = double(g.level[g.levels - 1].nodes());
  if (n * n > max_top_pairs)
    throw input_error(fmt::format(
        "msm: the top grid has {:.0f} nodes, {:.3g} pairs to sum directly (at most {:.3g}); use more 'levels' (or auto)",
        n, n * n, max_top_pairs));
}

// Map-side interpolation: the level-0 nodes an axis of the map reads.
struct axis_interpolation {
  std::vector<int> first;       // local index on level 0
  std::vector<double> weights;  // (p + 1) per map index
  int lo = 0, count = 1;        // node range touched
};
axis_interpolation interpolation_axis(int n_map, double spacing, const spatial::grid_level& l0, int axis, int p,
                                      double scale) {
  axis_interpolation a;
  a.first.resize(std::size_t(n_map));
  a.weights.resize(std::size_t(n_map) * (p + 1));
  int lo = 1 << 30, hi = -(1 << 30);
  for (int i = 0; i < n_map; ++i) {
    double w[spatial::max_basis_nodes];
    const int f = spatial::basis_weights(p, double(i) * spacing / l0.h, w) - l0.lo[axis];
    a.first[std::size_t(i)] = f;
    for (int j = 0; j <= p; ++j) a.weights[std::size_t(i) * (p + 1) + j] = w[j] * scale;
    lo = std::min(lo, f);
    hi = std::max(hi, f + p);
  }
  if (lo < 0 || hi >= l0.n[axis]) throw error(exit_code::failure, "msm: the map reaches beyond the finest grid");
  a.lo = lo;
  a.count = hi - lo + 1;
  return a;
}

template <class T>
Kokkos::View<T*> upload(const std::string& label, const std::vector<T>& v) {
  Kokkos::View<T*> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), v.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(v.data(),
                                                                                                          v.size()));
  return d;
}

}  // namespace

double msm_plan_bytes(const potential_problem& p) {
  const spatial::multilevel_grid g = grids_for(box_of(p.input, p.grid), p.physics.msm);
  check_top(g);
  const auto& l0 = g.level[0];
  const double levels = spatial::stored_nodes(g) * 16.0 + double(l0.stored()) * 8.0;
  // The separable interpolation's partial sums: nx x (level-0 rows) and nx x ny x (level-0 planes), at most.
  const double nx = p.grid.dims[0], ny = p.grid.dims[1];
  const double partial = 8.0 * (nx * l0.n[1] * l0.n[2] + nx * ny * l0.n[2]);
  return levels + partial + 16.0 * double(p.input.size());
}

msm_plan::msm_plan(const potential_problem& pr, const potential_strategy& short_range, const std::string& name)
    : potential_plan(pr), short_name(name) {
  const auto t0 = clock_type::now();
  atoms = to_device(pr.input, pr.grid);
  upload_seconds = seconds_since(t0);
  const auto t1 = clock_type::now();
  short_plan = prepare_binned(short_range, pr, atoms);
  const auto t2 = clock_type::now();
  const msm_parameters& m = pr.physics.msm;
  degree = m.order_degree();
  const int p = degree;
  grids = grids_for(box_of(atoms.host, pr.grid), m);
  check_top(grids);
  const int L = grids.levels;
  q.resize(std::size_t(L));
  e.resize(std::size_t(L));
  for (int k = 0; k < L; ++k) {
    q[std::size_t(k)] = Kokkos::View<double*>("ppl::potential::msm_q", std::size_t(grids.level[k].stored()));
    e[std::size_t(k)] = Kokkos::View<double*>("ppl::potential::msm_e", std::size_t(grids.level[k].stored()));
  }
  q_fixed = Kokkos::View<long long*>("ppl::potential::msm_q_fixed", std::size_t(grids.level[0].stored()));
  level_seconds.assign(std::size_t(L), 0.0);

  // Fixed point: every partial sum of a node's anterpolated charge is at most sum |q| (the weights' products are at
  // most 1 in magnitude), kept below 2^61.
  double total = 0;
  for (std::size_t n = 0; n < atoms.host.extent(0); ++n) total += std::abs(double(atoms.host(n).q));
  fixed_scale = total > 0 ? std::ldexp(1.0, 61 - int(std::ceil(std::log2(total)))) : 1.0;

  // The lattice cutoff's stencil on level 0's scale: g_a(|d| h) - g_2a(|d| h) for |d| h < 2 a, as rows along x
  // (dy, dz, half-width w: dx in [-w, w]) whose weights are contiguous, so the inner loop reads q contiguously.
  const int R = lattice_cutoff_nodes(m);
  const double h = m.spacing, a = m.cutoff;
  std::vector<int> rows;
  std::vector<double> weights_host;
  for (int dz = -R; dz <= R; ++dz)
    for (int dy = -R; dy <= R; ++dy) {
      int w = -1;
      for (int dx = 0; dx <= R; ++dx)
        if (h * std::sqrt(double(dx * dx + dy * dy + dz * dz)) < 2 * a) w = dx;
      if (w < 0) continue;
      rows.insert(rows.end(), {dy, dz, w, int(weights_host.size())});
      for (int dx = -w; dx <= w; ++dx) {
        const double r = h * std::sqrt(double(dx * dx + dy * dy + dz * dz));
        weights_host.push_back(msm_smoothing_f64(m, a, r) - msm_smoothing_f64(m, 2 * a, r));
      }
    }
  stencil_rows = upload("ppl::potential::msm_stencil_rows", rows);
  stencil_weights = upload("ppl::potential::msm_stencil_w", weights_host);
  // The top level's kernel g_{2^t a}(|d| 2^t h) = 2^-t g_a(|d| h) over every offset of its box.
  const auto& top = grids.level[L - 1];
  std::vector<double> top_host;
  for (int d = 0; d < 3; ++d) top_span[d] = 2 * top.n[d] - 1;
  const double top_scale = std::ldexp(1.0, -(L - 1));
  top_host.reserve(std::size_t(top_span[0]) * top_span[1] * top_span[2]);
  for (int dz = 1 - top.n[2]; dz < top.n[2]; ++dz)
    for (int dy = 1 - top.n[1]; dy < top.n[1]; ++dy)
      for (int dx = 1 - top.n[0]; dx < top.n[0]; ++dx)
        top_host.push_back(top_scale * msm_smoothing_f64(m, a, h * std::sqrt(double(dx * dx + dy * dy + dz * dz))));
  top_weights = upload("ppl::potential::msm_top", top_host);

  const auto& l0 = grids.level[0];
  for (int d = 0; d < 3; ++d) {
    const axis_interpolation ax = interpolation_axis(pr.grid.dims[d], pr.grid.spacing, l0, d, p, 1.0);
    first[d] = upload("ppl::potential::msm_first", ax.first);
    weights[d] = upload("ppl::potential::msm_weights", ax.weights);
    node_lo[d] = ax.lo;
    node_count[d] = ax.count;
  }
  along_x = Kokkos::View<double*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::potential::msm_along_x"),
                                  std::size_t(pr.grid.dims[0]) * node_count[1] * node_count[2]);
  along_xy = Kokkos::View<double*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::potential::msm_along_xy"),
                                   std::size_t(pr.grid.dims[0]) * pr.grid.dims[1] * node_count[2]);
  Kokkos::fence();
  setup_seconds = seconds_since(t1);
  grids_seconds = seconds_since(t2);
}

std::vector<std::pair<std::string, double>> msm_plan::breakdown() const {
  std::vector<std::pair<std::string, double>> b = short_plan->breakdown();
  for (auto& [name, value] : b)
    if (name == "setup_upload_s") value = upload_seconds;  // the atoms were staged once, here
  b.emplace_back("setup_grids_s", grids_seconds);
  b.emplace_back("msm_levels", double(grids.levels));
  b.emplace_back("msm_finest_nodes", double(grids.level[0].nodes()));
  b.emplace_back("msm_stencil_nodes", double(stencil_weights.extent(0)));
  b.emplace_back("setup_msm_s", setup_seconds);
  b.emplace_back("short_range_s", short_seconds);
  b.emplace_back("anterpolation_s", anterpolation_seconds);
  b.emplace_back("restriction_s", restriction_seconds);
  for (std::size_t k = 0; k < level_seconds.size(); ++k)
    b.emplace_back(fmt::format("level{}_s", k), level_seconds[k]);
  b.emplace_back("interpolation_s", interpolation_seconds);
  return b;
}

// The long-range kernels, as free functions (nvcc rejects extended lambdas in private members).

// q_0 = sum_a q_a phi(x_a) phi(y_a) phi(z_a), in 64-bit fixed point (integer adds commute: the same sum in any
// order), then converted to float64.
template <class Space>
void anterpolate(const Space& space, const msm_plan& plan) {
  const auto atoms = plan.atoms.data;
  const auto fixed = plan.q_fixed;
  const auto q0 = plan.q[0];
  const spatial::grid_level l = plan.grids.level[0];
  const int p = plan.degree;
  const double scale = plan.fixed_scale;
  Kokkos::deep_copy(space, fixed, 0LL);
  Kokkos::parallel_for(
      "ppl::potential::msm_anterpolate",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(atoms.extent(0))),
      KOKKOS_LAMBDA(std::int64_t n) {
        const atom4 at = atoms(n);
        double wx[spatial::max_basis_nodes], wy[spatial::max_basis_nodes], wz[spatial::max_basis_nodes];
        const int fx = spatial::basis_weights(p, double(at.x) / l.h, wx) - l.lo[0];
        const int fy = spatial::basis_weights(p, double(at.y) / l.h, wy) - l.lo[1];
        const int fz = spatial::basis_weights(p, double(at.z) / l.h, wz) - l.lo[2];
        const double qs = double(at.q) * scale;
        for (int kz = 0; kz <= p; ++kz)
          for (int ky = 0; ky <= p; ++ky) {
            const double w = qs * wz[kz] * wy[ky];
            for (int kx = 0; kx <= p; ++kx) {
              const double v = w * wx[kx];
              const long long fixed_v = (long long)(v < 0 ? -kmath::floor(-v + 0.5) : kmath::floor(v + 0.5));
              if (fixed_v != 0) Kokkos::atomic_add(&fixed(l.at(fx + kx, fy + ky, fz + kz)), fixed_v);
            }
          }
      });
  const double inv = 1.0 / scale;
  Kokkos::parallel_for(
      "ppl::potential::msm_fixed_to_double",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(fixed.extent(0))),
      KOKKOS_LAMBDA(std::int64_t i) { q0(i) = double(fixed(i)) * inv; });
}

// e_k(m) = 2^-k sum_s K_s q_k(m + d_s) (levels below the top), or the top's sum over all its nodes.
template <class Space>
void lattice_cutoff(const Space& space, const msm_plan& plan, int k) {
  const spatial::grid_level l = plan.grids.level[k];
  const auto qk = plan.q[std::size_t(k)];
  const auto ek = plan.e[std::size_t(k)];
  // Every kernel below writes every node of e_k; its padding stays the zeros it was allocated with.
  if (k == plan.grids.levels - 1) {
    const auto w = plan.top_weights;
    const int sx = plan.top_span[0], sy = plan.top_span[1];
    Kokkos::parallel_for(
        "ppl::potential::msm_top", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, l.nodes()),
        KOKKOS_LAMBDA(std::int64_t idx) {
          int i, j, kk;
          l.ijk(idx, i, j, kk);
          double sum = 0;
          for (int nz = 0; nz < l.n[2]; ++nz)
            for (int ny = 0; ny < l.n[1]; ++ny) {
              const std::int64_t wrow = (std::int64_t(kk - nz + l.n[2] - 1) * sy + (j - ny + l.n[1] - 1)) * sx;
              for (int nx = 0; nx < l.n[0]; ++nx) sum += w(wrow + (i - nx + l.n[0] - 1)) * qk(l.at(nx, ny, nz));
            }
          ek(l.at(i, j, kk)) = sum;
        });
    return;
  }
  if (k == plan.perturbation.skipped_level) {
    Kokkos::deep_copy(space, ek, 0.0);
    return;
  }
  const auto rows = plan.stencil_rows;
  const auto w = plan.stencil_weights;
  const int S = int(rows.extent(0) / 4);
  const double scale = std::ldexp(1.0, -k);
  // C consecutive nodes along x per thread: each weight is loaded once for C products, and the C sums vectorise on
  // a host (the rows alone are too short for it).
  constexpr int C = 4;
  const int segments_x = (l.n[0] + C - 1) / C;
  Kokkos::parallel_for(
      "ppl::potential::msm_lattice_cutoff",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(segments_x) * l.n[1] * l.n[2]),
      KOKKOS_LAMBDA(std::int64_t idx) {
        const int i0 = int(idx % segments_x) * C;
        const std::int64_t row_index = idx / segments_x;
        const int j = int(row_index % l.n[1]), kk = int(row_index / l.n[1]);
        const std::int64_t base = l.at(i0, j, kk);
        const std::int64_t sy = l.stride_y(), sz = l.stride_z();
        double sum[C] = {};
        for (int s = 0; s < S; ++s) {
          const int half = rows(4 * s + 2);
          const double* ws = &w(rows(4 * s + 3) + half);
          const double* qs = &qk(base + rows(4 * s) * sy + rows(4 * s + 1) * sz);
          for (int dx = -half; dx <= half; ++dx) {
            const double wt = ws[dx];
            for (int c = 0; c < C; ++c) sum[c] += wt * qs[dx + c];
          }
        }
        // Nodes past the row's end read the padding (pad >= R + C - 1) and are not stored.
        for (int c = 0; c < C && i0 + c < l.n[0]; ++c) ek(base + c) = scale * sum[c];
      });
}

// The map += sum_m phi_m(x) e_0(m), separably: along x into along_x (map x, level-0 y and z), along y into along_xy
// (map x and y, level-0 z), along z into the map.
template <class Space>
void interpolate(const Space& space, const msm_plan& plan, potential_view out) {
  const spatial::grid_level l = plan.grids.level[0];
  const auto e0 = plan.e[0];
  const int p = plan.degree;
  const int nx = plan.grid.dims[0], ny = plan.grid.dims[1], nz = plan.grid.dims[2];
  const int ylo = plan.node_lo[1], ny0 = plan.node_count[1], zlo = plan.node_lo[2], nz0 = plan.node_count[2];
  const auto fx = plan.first[0], fy = plan.first[1], fz = plan.first[2];
  const auto wx = plan.weights[0], wy = plan.weights[1], wz = plan.weights[2];
  const auto t1 = plan.along_x, t2 = plan.along_xy;
  const double ws = plan.perturbation.weight_scale;
  using range = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(
      "ppl::potential::msm_interpolate_x", range(space, 0, std::int64_t(nx) * ny0 * nz0),
      KOKKOS_LAMBDA(std::int64_t idx) {
        const int i = int(idx % nx);
        const std::int64_t row = idx / nx;
        const int y = int(row % ny0) + ylo, z = int(row / ny0) + zlo;
        const std::int64_t base = l.at(fx(i), y, z);
        double sum = 0;
        for (int j = 0; j <= p; ++j) sum += wx(std::int64_t(i) * (p + 1) + j) * e0(base + j);
        t1(idx) = sum * ws;
      });
  Kokkos::parallel_for(
      "ppl::potential::msm_interpolate_y", range(space, 0, std::int64_t(nx) * ny * nz0),
      KOKKOS_LAMBDA(std::int64_t idx) {
        const int i = int(idx % nx);
        const std::int64_t row = idx / nx;
        const int j = int(row % ny), z = int(row / ny);
        const std::int64_t base = (std::int64_t(z) * ny0 + (fy(j) - ylo)) * nx + i;
        double sum = 0;
        for (int jj = 0; jj <= p; ++jj) sum += wy(std::int64_t(j) * (p + 1) + jj) * t1(base + std::int64_t(jj) * nx);
        t2(idx) = sum;
      });
  Kokkos::parallel_for(
      "ppl::potential::msm_interpolate_z", range(space, 0, std::int64_t(nx) * ny * nz),
      KOKKOS_LAMBDA(std::int64_t idx) {
        const std::int64_t plane = std::int64_t(nx) * ny;
        const int k = int(idx / plane);
        const std::int64_t in_plane = idx - std::int64_t(k) * plane;
        const std::int64_t base = std::int64_t(fz(k) - zlo) * plane + in_plane;
        double sum = 0;
        for (int kk = 0; kk <= p; ++kk) sum += wz(std::int64_t(k) * (p + 1) + kk) * t2(base + std::int64_t(kk) * plane);
        out(idx) = float(double(out(idx)) + sum);
      });
}

template <class Space>
void long_range(const Space& space, const msm_plan& plan, potential_view out) {
  auto t = clock_type::now();
  anterpolate(space, plan);
  space.fence();
  plan.anterpolation_seconds = seconds_since(t);
  t = clock_type::now();
  for (int k = 0; k + 1 < plan.grids.levels; ++k)
    spatial::restrict_to_coarser(space, plan.grids, k, plan.q[std::size_t(k)], plan.q[std::size_t(k + 1)]);
  space.fence();
  plan.restriction_seconds = seconds_since(t);
  for (int k = plan.grids.levels - 1; k >= 0; --k) {
    t = clock_type::now();
    lattice_cutoff(space, plan, k);
    if (k + 1 < plan.grids.levels)
      spatial::prolong_add(space, plan.grids, k, plan.e[std::size_t(k + 1)], plan.e[std::size_t(k)]);
    space.fence();
    plan.level_seconds[std::size_t(k)] = seconds_since(t);
  }
  t = clock_type::now();
  interpolate(space, plan, out);
  space.fence();
  plan.interpolation_seconds = seconds_since(t);
}

namespace {

class msm_strategy final : public potential_strategy {
 public:
  msm_strategy(std::unique_ptr<potential_strategy> short_range, std::string short_name)
      : short_(std::move(short_range)), short_name_(std::move(short_name)) {}

  void check(const potential_problem& p) const override {
    if (!p.physics.is_msm()) throw input_error("msm: needs the msm interaction (physics.interaction.kind: msm)");
    short_->check(p);
    const double bytes = msm_plan_bytes(p);
    const double have = default_space_is_gpu() ? query_system_info().device_memory_gib * 1073741824.0
                                               : double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    if (have > 0 && bytes > 0.9 * have)
      throw input_error(fmt::format("msm: the grids and the interpolation need {:.3g} GB, more than 90% of the {:.3g} "
                                    "GB of {} memory; use a larger 'spacing' or a smaller lattice",
                                    bytes / 1e9, have / 1e9, default_space_is_gpu() ? "device" : "host"));
  }

  std::unique_ptr<potential_plan> prepare(const potential_problem& p) const override {
    profiling_region region("msm");
    if (!p.physics.is_msm()) throw input_error("msm: needs the msm interaction (physics.interaction.kind: msm)");
    return std::make_unique<msm_plan>(p, *short_, short_name_);
  }

  void compute(const execution& space, const potential_plan& plan, potential_view out,
               write_mode mode) const override {
    profiling_region region("msm");
    const auto* p = dynamic_cast<const msm_plan*>(&plan);
    if (p == nullptr) throw error(exit_code::failure, "msm: given another strategy's plan");
    const auto t0 = clock_type::now();
    short_->compute(space, *p->short_plan, out, mode);
    p->short_seconds = seconds_since(t0);
    space.visit([&](const auto& s) {
      using S = std::decay_t<decltype(s)>;
      if constexpr (Kokkos::SpaceAccessibility<S, Kokkos::DefaultExecutionSpace::memory_space>::accessible)
        long_range(s, *p, out);
      else
        throw error(exit_code::failure, std::string("msm runs on the default execution space's memory, not on ") +
                                            S::name());
    });
  }

 private:
  std::unique_ptr<potential_strategy> short_;
  std::string short_name_;
};

}  // namespace

}  // namespace ppl::potential_detail

namespace ppl {

const parameter_fields<msm_params>& msm_params::fields() {
  static const auto f = parameter_fields<msm_params>().choice(
      "short_range", &msm_params::short_range, {"auto", "cutoff_binned", "cutoff_binned_cuda"},
      "the short range's kernel: cutoff_binned (portable) or cutoff_binned_cuda; auto: cutoff_binned_cuda on "
      "CUDA builds, else cutoff_binned (each with its default parameters)");
  return f;
}

std::unique_ptr<potential_strategy> make_msm(const msm_params& p) {
  msm_params::fields().check(p);
  std::string name = p.short_range;
#if defined(KOKKOS_ENABLE_CUDA)
  const bool cuda = std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>::value;
#else
  const bool cuda = false;
#endif
  if (name == "auto") name = cuda ? "cutoff_binned_cuda" : "cutoff_binned";
  std::unique_ptr<potential_strategy> short_range;
  if (name == "cutoff_binned_cuda") {
#if defined(KOKKOS_ENABLE_CUDA)
    short_range = make_cutoff_binned_cuda();
#else
    throw parameter_error("short_range", "= cutoff_binned_cuda needs a CUDA build (this one: " +
                                             std::string(Kokkos::DefaultExecutionSpace::name()) + ")");
#endif
  } else {
    short_range = make_cutoff_binned();
  }
  return std::make_unique<potential_detail::msm_strategy>(std::move(short_range), name);
}

}  // namespace ppl
