// Atoms to the device: positions relative to the lattice origin, shifted in float64 before rounding to float32,
// so atoms 1e5 A from the coordinate origin keep sub-milli-Angstrom precision near their lattice.
#include "ppl/spatial/point_charges.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ppl/core/huge_pages.hpp"

namespace ppl {
namespace {

using host_range = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>;

// Atom i of `a` in the lattice frame of `g`.
struct lattice_frame {
  const double *x, *y, *z, *q;
  double ox, oy, oz;
  lattice_frame(const atoms& a, const lattice& g)
      : x(a.x.data()), y(a.y.data()), z(a.z.data()), q(a.q.data()), ox(g.origin[0]), oy(g.origin[1]), oz(g.origin[2]) {}
  atom4 operator()(std::int64_t i) const {
    return atom4{float(x[i] - ox), float(y[i] - oy), float(z[i] - oz), float(q[i])};
  }
};

struct region {
  explicit region(const char* name) { Kokkos::Profiling::pushRegion(name); }
  ~region() { Kokkos::Profiling::popRegion(); }
  region(const region&) = delete;
  region& operator=(const region&) = delete;
};

}  // namespace

device_atoms to_device(const atoms& a, const lattice& g) {
  using memory = Kokkos::DefaultExecutionSpace::memory_space;
  if constexpr (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory>::accessible) {
    return point_charges_detail::to_device_staged(a, g, point_charges_detail::staging_chunk_atoms(a.size()));
  } else {
    // The device is the host: one array, converted in place (in parallel: a million atoms took 10 ms of a cutoff
    // map's set-up serially).
    const region r("ppl::spatial::to_device");
    device_atoms d;
    const std::size_t n = a.size();
    auto staged = make_cached_view<atom4>(n);
    d.data = staged.view;
    d.block = staged.block;
    d.host = Kokkos::View<atom4*, Kokkos::HostSpace>(d.data.data(), n);
    const auto host = d.host;
    const lattice_frame f(a, g);
    Kokkos::parallel_for("ppl::spatial::atoms_to_lattice_frame", host_range(0, std::int64_t(n)),
                         [=](std::int64_t i) { host(i) = f(i); });
    Kokkos::DefaultHostExecutionSpace().fence();
    return d;
  }
}

namespace point_charges_detail {

std::size_t staging_chunk_atoms(std::size_t n) {
  return std::min<std::size_t>(std::max<std::size_t>(n / 16, 65536), 262144);
}

device_atoms to_device_staged(const atoms& a, const lattice& g, std::size_t chunk_atoms) {
  const region r("ppl::spatial::to_device");
  device_atoms d;
  const std::size_t n = a.size();
  d.host = Kokkos::View<atom4*, Kokkos::HostSpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "atoms_host"), n);
  advise_huge_pages(d.host);  // before the first touch: fewer page faults during the conversion
  auto staged = make_cached_view<atom4>(n);
  d.data = staged.view;
  d.block = staged.block;
  if (n == 0) return d;
  const std::size_t chunk = std::min(std::max<std::size_t>(chunk_atoms, 1), n);
  const auto ring = acquire_staging_bytes(2 * chunk * sizeof(atom4));
  atom4* const buffers = static_cast<atom4*>(ring->data());
  const auto host = d.host;
  const lattice_frame f(a, g);
  const Kokkos::DefaultExecutionSpace exec;
  for (std::size_t begin = 0, piece = 0; begin < n; begin += chunk, ++piece) {
    const std::size_t end = std::min(begin + chunk, n);
    atom4* const stage = buffers + (piece % 2) * chunk;
    // This buffer's previous piece (two back) was copied before the fence ahead of the last piece's copy.
    Kokkos::parallel_for("ppl::spatial::atoms_to_lattice_frame", host_range(std::int64_t(begin), std::int64_t(end)),
                         [=](std::int64_t i) {
                           const atom4 v = f(i);
                           host(i) = v;
                           stage[i - std::int64_t(begin)] = v;
                         });
    Kokkos::DefaultHostExecutionSpace().fence();
    exec.fence();  // the last piece's copy, which ran during this conversion
    Kokkos::deep_copy(
        exec, Kokkos::subview(d.data, std::make_pair(begin, end)),
        Kokkos::View<const atom4*, host_staging_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(stage, end - begin));
  }
  exec.fence();
  return d;
}

}  // namespace point_charges_detail

}  // namespace ppl
