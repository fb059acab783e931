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
  // The same contents on the host, for strategies that stage through host/constant memory; where the default
  // memory space is the host's, the same memory as `data`.
  Kokkos::View<atom4*, Kokkos::HostSpace> host;
  std::shared_ptr<device_block> block;  // what `data` lives in: kept as long as any copy of these atoms
  std::size_t size() const { return data.extent(0); }
};
// Converts on the host (in parallel) and, on a GPU, uploads through page-locked pieces (to_device_staged);
// `data` is complete when it returns. A Kokkos profiling region, ppl::spatial::to_device.
device_atoms to_device(const atoms& a, const lattice& g);

namespace point_charges_detail {
// What to_device does where the host cannot write the default memory space: the atoms are converted `chunk_atoms`
// at a time into one of two page-locked buffers (host_staging_space, reused from the staging cache) and into
// `host`, and each piece is copied to the device while the next one is converted, so the transfer is one DMA per
// piece, hidden behind the conversion, instead of the driver's pageable copy after it. Exposed so that the tests
// run it on every build (on a host build the pieces are host memory).
device_atoms to_device_staged(const atoms& a, const lattice& g, std::size_t chunk_atoms);
// Atoms per piece for n atoms: n / 16, within [65536, 262144] (1 to 4 MiB per buffer): enough pieces to overlap
// the conversion with the copies, few enough that the per-piece fences (a few us each) do not add up.
std::size_t staging_chunk_atoms(std::size_t n);
}  // namespace point_charges_detail

}  // namespace ppl
