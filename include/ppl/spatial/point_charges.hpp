#pragma once
// Point charges as the kernels read them: float32 positions relative to a lattice's origin (shifted in float64
// before rounding, so atoms far from the coordinate origin keep their precision near their lattice) and charges,
// 16 bytes each, on the default memory space with a host copy. The spatial structures (atom_bins.hpp) take any View
// of records with x, y, z, q members; this is the one the potential strategies stage.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <memory>

#include "ppl/core/device_buffers.hpp"
#include "ppl/io/atoms.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

struct atom4 {
  float x, y, z, q;  // position relative to the lattice origin, charge
};

// Atoms on the device, shifted by -origin in float64 before rounding to float32.
struct device_atoms {
  Kokkos::View<atom4*> data;  // over `block`, from the device buffer cache (ppl/core/device_buffers.hpp)
  Kokkos::View<atom4*, Kokkos::HostSpace>
      host;                             // same contents, for strategies that stage through host/constant memory
  std::shared_ptr<device_block> block;  // what `data` lives in: kept as long as any copy of these atoms
  std::size_t size() const { return data.extent(0); }
};
device_atoms to_device(const atoms& a, const lattice& g);

}  // namespace ppl
