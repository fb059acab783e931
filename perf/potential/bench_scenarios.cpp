#include "bench_scenarios.hpp"

#include <array>
#include <map>
#include <memory>

#include "ppl/core/system_info.hpp"

namespace ppl::bench {
namespace {

lattice box_lattice(int nx, int ny, int nz, double z0 = 0.0) {
  lattice g;
  g.origin = {0.0, 0.0, z0};
  g.spacing = 0.5;
  g.dims = {nx, ny, nz};
  return g;
}

// Random atoms filling the lattice's box, charges in [-2, 2].
std::function<void(lattice&, atoms&)> box(int nx, int ny, int nz, std::size_t n, std::uint64_t seed) {
  return [=](lattice& g, atoms& a) {
    g = box_lattice(nx, ny, nz);
    const double lo[3] = {0.0, 0.0, 0.0};
    const double hi[3] = {g.coord(0, nx - 1), g.coord(1, ny - 1), g.coord(2, nz - 1)};
    a = random_atoms(n, lo, hi, -2.0, 2.0, seed);
  };
}

std::function<void(lattice&, atoms&)> pmpp(bool slice) {
  return [=](lattice& g, atoms& a) {
    g = slice ? box_lattice(100, 100, 1, 10.0) : box_lattice(100, 100, 50);
    const double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {50.0, 50.0, 25.0};
    a = random_atoms(10000, lo, hi, -2.0, 2.0, 42);
  };
}

}  // namespace

const std::vector<scenario_spec>& scenario_specs() {
  static const std::vector<scenario_spec> list = [] {
    std::vector<scenario_spec> l;
    if (default_space_is_gpu()) {
      l.push_back({"256x256x64_20k", true, false, box(256, 256, 64, 20000, 1)});
      l.push_back({"256x256x64_40k", false, false, box(256, 256, 64, 40000, 2)});
      l.push_back({"pmpp_slice_z10", false, true, pmpp(true)});
      l.push_back({"pmpp_100x100x50", false, false, pmpp(false)});
    } else {
      l.push_back({"64x64x16_2k", true, true, box(64, 64, 16, 2000, 1)});
      l.push_back({"pmpp_slice_z10", false, true, pmpp(true)});
    }
    return l;
  }();
  return list;
}

const scenario& scenario_data(const scenario_spec& spec) {
  static std::map<std::string, std::unique_ptr<scenario>> cache;
  static bool hooked = false;
  if (!hooked) {
    Kokkos::push_finalize_hook([] { cache.clear(); });  // Views must go before Kokkos does
    hooked = true;
  }
  auto& slot = cache[spec.name];
  if (!slot) {
    slot = std::make_unique<scenario>();
    spec.build(slot->g, slot->host);
    slot->device = to_device(slot->host, slot->g);
    slot->out = potential_view("bench_potential_out", slot->g.size());
  }
  return *slot;
}

std::vector<variant> variants() {
  std::vector<variant> v;
  for (const auto& e : potential_strategies().entries()) {
    if (!e.available() || !e.can("coulomb")) continue;  // the scenarios are direct Coulomb sums
    const std::string& name = e.name;
    const bool slow = name == "reference" || name == "scatter";
    v.push_back({name, name, {}, false, false, slow});
  }
  v.push_back({"gather/rsqrt=ieee", "gather", {{"rsqrt", "ieee"}}, false, false, false});
#if defined(PPL_HAS_CUDA_BASELINE)
  v.push_back({"baseline_cuda/rsqrtf", "rsqrtf", {}, true, false, false});
  v.push_back({"baseline_cuda/ftz", "ftz", {}, true, false, false});
  v.push_back({"baseline_cuda/tiles", "tiles", {}, true, false, false});
#endif
  for (const char* s : {"gather_coarsened", "gather_coalesced", "gather_constmem_cuda"}) {
    if (!potential_strategies().find(s)) continue;
    for (int c : {1, 2, 4, 16})  // 8 is the default, run above
      v.push_back({std::string(s) + "/C=" + std::to_string(c), s, {{"coarsening", c}}, false, true, false});
  }
  // Team shape and tile size of the portable kernel (GPU only: host teams are one thread). Smaller teams and tiles
  // give finer-grained blocks (less idle time in the last wave) at the price of more barriers per atom.
  if (default_space_is_gpu())
    for (const auto& [c, rows, tile] : std::vector<std::array<int, 3>>{
             {8, 1, 256}, {8, 2, 512}, {8, 4, 1024}, {8, 8, 2048}, {8, 16, 2048}, {16, 2, 512}, {16, 4, 2048}}) {
      const std::string label = std::to_string(c) + "," + std::to_string(rows) + "," + std::to_string(tile);
      v.push_back({"gather_coalesced/C,rows,tile=" + label,
                   "gather_coalesced",
                   {{"coarsening", c}, {"block_rows", rows}, {"tile_atoms", tile}},
                   false,
                   true,
                   false});
    }
  // Constant-memory pass size (the constant-memory kernels collapse in some launch shapes: docs/potential.md).
  if (potential_strategies().find("gather_constmem_cuda"))
    for (int pass : {128, 256, 512, 1024})
      v.push_back({"gather_constmem_cuda/atoms_per_pass=" + std::to_string(pass),
                   "gather_constmem_cuda",
                   {{"atoms_per_pass", pass}},
                   false,
                   true,
                   false});
  if (potential_strategies().find("gather_constmem_cuda"))
    for (int pass : {128, 512})
      v.push_back({"gather_constmem_cuda/C=16,atoms_per_pass=" + std::to_string(pass),
                   "gather_constmem_cuda",
                   {{"coarsening", 16}, {"atoms_per_pass", pass}},
                   false,
                   true,
                   false});
  if (potential_strategies().find("gather_hybrid_rsqrt_cuda")) {
    for (int c : {8, 16, 32})
      for (int s = 0; s <= c / 2; ++s)
        v.push_back({"gather_hybrid_rsqrt_cuda/C=" + std::to_string(c) + ",S=" + std::to_string(s),
                     "gather_hybrid_rsqrt_cuda",
                     {{"coarsening", c}, {"software_points", s}},
                     false,
                     true,
                     false});
    // Team shapes around the balance point S = C / 4.
    for (const auto& [c, s, rows] : std::vector<std::array<int, 3>>{{16, 3, 8}, {16, 4, 8}, {32, 8, 8}, {32, 8, 4}})
      v.push_back({"gather_hybrid_rsqrt_cuda/C=" + std::to_string(c) + ",S=" + std::to_string(s) +
                       ",rows=" + std::to_string(rows),
                   "gather_hybrid_rsqrt_cuda",
                   {{"coarsening", c}, {"software_points", s}, {"block_rows", rows}},
                   false,
                   true,
                   false});
    // The team shape that was fastest in the probe (perf/results/potential-h200): 32 x 16 threads, 2048-atom tiles.
    for (int s : {0, 1, 2, 3})
      v.push_back({"gather_hybrid_rsqrt_cuda/C=8,S=" + std::to_string(s) + ",rows=16,tile=2048",
                   "gather_hybrid_rsqrt_cuda",
                   {{"coarsening", 8}, {"software_points", s}, {"block_rows", 16}, {"tile_atoms", 2048}},
                   false,
                   true,
                   false});
  }
  return v;
}

std::string params_text(const parameter_values& params) {
  std::string out;
  for (const auto& [key, value] : params) out += (out.empty() ? "{" : ", ") + key + ": " + value_text(value);
  return out.empty() ? out : out + "}";
}

}  // namespace ppl::bench
