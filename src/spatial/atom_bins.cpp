// The memory estimate of atom_bins and the two builds the library compiles (so a CUDA build compiles the build
// kernels with nvcc even before a strategy uses them).
#include "ppl/spatial/atom_bins.hpp"

#include <cstdint>
#include <sstream>
#include <string>

#include "ppl/core/error.hpp"

namespace ppl::spatial {

std::size_t atom_bins_bytes(const bin_grid& grid, int capacity, std::size_t n_atoms) {
  if (capacity < 1) throw input_error("atom bins: the bin capacity must be >= 1, got " + std::to_string(capacity));
  // float64 is exact far beyond any size that fits in memory; the result saturates.
  const double bins = double(grid.dims[0]) * double(grid.dims[1]) * double(grid.dims[2]);
  const double n = double(n_atoms);
  double bytes = bins * capacity * sizeof(atom4) + bins * sizeof(int);  // slots, counts
  if (n_atoms > 0) {
    bytes += n * sizeof(atom4);             // overflow (at most every atom)
    bytes += n * 3 * sizeof(int);           // bin, provisional rank, CSR place of each atom
    bytes += (bins + 1) * 2 * sizeof(int);  // offsets, overflow offsets
  }
  if (!(bytes < 1.8e19)) return SIZE_MAX;
  return std::size_t(bytes);
}

void check_atom_bins_memory(const bin_grid& grid, int capacity, std::size_t n_atoms, double available_bytes,
                            const std::string& memory) {
  const std::size_t need = atom_bins_bytes(grid, capacity, n_atoms);
  if (double(need) <= available_bytes) return;
  std::ostringstream s;
  s << "atom bins: " << grid.dims[0] << " x " << grid.dims[1] << " x " << grid.dims[2] << " bins of capacity "
    << capacity << " for " << n_atoms << " atoms need " << double(need) / (1 << 20) << " MiB, but " << memory << " has "
    << available_bytes / (1 << 20) << " MiB; use a larger bin edge or a smaller capacity";
  throw input_error(s.str());
}

atom_bins<Kokkos::DefaultExecutionSpace::memory_space> build_atom_bins(const device_atoms& atoms, const bin_grid& grid,
                                                                       int capacity, int grow_to) {
  return build_atom_bins(Kokkos::DefaultExecutionSpace(), atoms.data, grid, capacity, grow_to);
}

atom_bins<Kokkos::HostSpace> build_atom_bins_host(const device_atoms& atoms, const bin_grid& grid, int capacity) {
  return build_atom_bins(Kokkos::DefaultHostExecutionSpace(), atoms.host, grid, capacity);
}

}  // namespace ppl::spatial
