// Atoms to the device: positions relative to the lattice origin, shifted in float64 before rounding to float32,
// so atoms 1e5 A from the coordinate origin keep sub-milli-Angstrom precision near their lattice.
#include <Kokkos_Core.hpp>

#include "ppl/potential/potential_strategy.hpp"

namespace ppl {

device_atoms to_device(const atoms& a, const lattice& g) {
  device_atoms d;
  const std::size_t n = a.size();
  d.host = Kokkos::View<atom4*, Kokkos::HostSpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "atoms_host"), n);
  for (std::size_t i = 0; i < n; ++i)
    d.host(i) =
        atom4{float(a.x[i] - g.origin[0]), float(a.y[i] - g.origin[1]), float(a.z[i] - g.origin[2]), float(a.q[i])};
  d.data = Kokkos::View<atom4*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "atoms"), n);
  Kokkos::deep_copy(d.data, d.host);
  return d;
}

}  // namespace ppl
