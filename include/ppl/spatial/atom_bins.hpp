#pragma once
// Atoms sorted into fixed-capacity bins, the input of a cutoff-summation kernel (Parboil cutcp, Rodrigues et al.
// 2008): a thread block reads the bins of its stencil (bin_stencil.hpp) as whole, equally sized arrays of atom4 slots,
// with no per-bin offsets to look up and no divergence between bins of different fill; a slot that holds no atom is a
// sentinel the kernel may evaluate (it contributes exactly 0) or stop at. The atoms that do not fit (a bin fuller than
// `capacity`) go to an overflow list that the host sums, so the capacity can be sized for the typical density
// instead of the worst bin. The build runs on an execution space (the device for large inputs) by count, exclusive
// scan and permute, and is deterministic: within a bin atoms are ordered by input index, the first `capacity` go to
// the slots, the rest to the overflow list (bin-major, then by input index), whatever the thread schedule.
// Timing the build is the caller's business.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "ppl/core/device_buffers.hpp"
#include "ppl/core/error.hpp"
#include "ppl/spatial/bin_grid.hpp"
#include "ppl/spatial/point_charges.hpp"

namespace ppl::spatial {

// The empty slot: charge 0 at (1e18, 1e18, 1e18) A. Every real coordinate the kernels see is within 3e6 A of the
// lattice origin (lattice.hpp), so r^2 to any lattice point is about 3e36: finite (float32 max 3.4e38), above any
// cutoff^2, and q / r = 0 exactly (no Inf, no NaN). A kernel may evaluate it like an atom or stop at the first one
// (the filled slots of a bin are its first counts(b) slots).
constexpr float empty_slot_coord = 1e18f;
KOKKOS_INLINE_FUNCTION atom4 empty_slot() {
  return atom4{empty_slot_coord, empty_slot_coord, empty_slot_coord, 0.0f};
}
KOKKOS_INLINE_FUNCTION bool is_empty_slot(const atom4& a) {
  return a.x >= empty_slot_coord;
}

// How build_atom_bins reads a record of the caller's View: members x, y, z (lattice frame, A) and q (e) by default;
// specialise for other layouts (ArborX's AccessTraits idea), e.g. a record holding a position array.
template <class Record>
struct point_charge_access {
  KOKKOS_INLINE_FUNCTION static atom4 get(const Record& r) { return atom4{float(r.x), float(r.y), float(r.z), float(r.q)}; }
};

template <class MemorySpace>
struct atom_bins {
  using memory_space = MemorySpace;
  bin_grid grid;
  int capacity = 0;
  // grid.size() * capacity atoms, bin-major: slot s of bin b at std::int64_t(b) * capacity + s; positions in the
  // lattice frame (periodic grids: wrapped into the box); unused slots hold empty_slot().
  Kokkos::View<atom4*, MemorySpace> slots;
  Kokkos::View<int*, MemorySpace> counts;  // filled slots per bin (<= capacity), the first counts(b) of the bin
  // Atoms beyond their bin's capacity, same frame, bin-major then by input index; overflow_host is a host copy
  // (the same View when MemorySpace is HostSpace).
  Kokkos::View<atom4*, MemorySpace> overflow;
  Kokkos::View<atom4*, Kokkos::HostSpace> overflow_host;
  std::size_t dropped = 0;    // atoms outside a non-periodic grid (or with a non-finite coordinate)
  std::size_t max_count = 0;  // atoms in the fullest bin, before capping at capacity
  // The cached device blocks under slots, counts and overflow (device_buffers.hpp), when they live in the default
  // memory space: a plan rebuilt per trajectory frame then allocates nothing after the first.
  std::vector<std::shared_ptr<device_block>> storage;
};

// Bytes of memory a build with `n_atoms` atoms needs at its peak on its memory space: the slots and counts it
// returns, the overflow list (at most n_atoms atoms), and the temporaries of the build (per atom: wrapped position,
// bin, permutation; per bin: offsets, cursors, overflow offsets). With n_atoms = 0: the slots and counts alone.
// Saturates at SIZE_MAX. Throws input_error unless capacity >= 1.
std::size_t atom_bins_bytes(const bin_grid& grid, int capacity, std::size_t n_atoms = 0);
// Throws input_error (naming the bins, the capacity and `memory`) unless atom_bins_bytes(...) <= available_bytes.
void check_atom_bins_memory(const bin_grid& grid, int capacity, std::size_t n_atoms, double available_bytes,
                            const std::string& memory);

namespace detail {

// n elements of T on MemorySpace, uninitialized: from the process-wide block cache when MemorySpace is the default
// memory space (each Kokkos allocation on CUDA is a cudaMalloc, its release a synchronizing cudaFree, about 50 us
// the pair: nine of them were most of the binning of a 10,000-atom frame), else a new allocation. `keep` receives
// the block, which must outlive the View.
template <class T, class MemorySpace>
Kokkos::View<T*, MemorySpace> scratch_view(const char* label, std::size_t n,
                                           std::vector<std::shared_ptr<device_block>>& keep) {
  if constexpr (std::is_same_v<MemorySpace, Kokkos::DefaultExecutionSpace::memory_space>) {
    auto c = make_cached_view<T>(n);
    keep.push_back(std::move(c.block));
    return Kokkos::View<T*, MemorySpace>(c.view.data(), n);
  } else {
    return Kokkos::View<T*, MemorySpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
  }
}

// Moves h[root] down the max-heap h[0, end).
KOKKOS_INLINE_FUNCTION void sift_down(int* h, int root, int end) {
  while (true) {
    int child = 2 * root + 1;
    if (child >= end) return;
    if (child + 1 < end && h[child + 1] > h[child]) ++child;
    if (h[root] >= h[child]) return;
    const int t = h[root];
    h[root] = h[child];
    h[child] = t;
    root = child;
  }
}

// Sorts a[0, n) ascending: insertion sort for short segments (the common case, a bin's atoms), heap sort above
// (no recursion, no scratch, O(n log n) when many atoms share one bin).
KOKKOS_INLINE_FUNCTION void sort_ints(int* a, int n) {
  if (n <= 32) {
    for (int i = 1; i < n; ++i) {
      const int v = a[i];
      int j = i - 1;
      while (j >= 0 && a[j] > v) {
        a[j + 1] = a[j];
        --j;
      }
      a[j + 1] = v;
    }
    return;
  }
  for (int i = n / 2 - 1; i >= 0; --i) sift_down(a, i, n);
  for (int end = n - 1; end > 0; --end) {
    const int t = a[0];
    a[0] = a[end];
    a[end] = t;
    sift_down(a, 0, end);
  }
}

}  // namespace detail

// Builds the bins of `atoms` (any records point_charge_access reads, in the lattice frame, as device_atoms holds them)
// on `exec`, which must be able to access MemorySpace. Throws input_error unless capacity >= 1 and atoms.extent(0) <= INT_MAX. grow_to > capacity: when the
// fullest bin holds more than `capacity` atoms, the capacity grows to it (rounded up to 4 slots, at most grow_to),
// decided between the count and the fill, so one build suffices. Fences `exec` before returning.
template <class ExecSpace, class Record, class MemorySpace>
atom_bins<MemorySpace> build_atom_bins(const ExecSpace& exec, const Kokkos::View<const Record*, MemorySpace>& atoms,
                                       const bin_grid& grid, int capacity, int grow_to = 0) {
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                "build_atom_bins: the execution space cannot access the atoms' memory space");
  if (capacity < 1) throw input_error("atom bins: the bin capacity must be >= 1, got " + std::to_string(capacity));
  if (atoms.extent(0) > std::size_t(std::numeric_limits<int>::max()))
    throw input_error("atom bins: " + std::to_string(atoms.extent(0)) + " atoms exceed the limit of " +
                      std::to_string(std::numeric_limits<int>::max()));
  if (grid.dims[0] < 1 || grid.dims[1] < 1 || grid.dims[2] < 1 ||
      std::int64_t(grid.dims[0]) * grid.dims[1] * grid.dims[2] > max_bins)
    throw input_error("atom bins: invalid bin grid dimensions (use make_bin_grid)");

  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>>;
  using range64 = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using ints = Kokkos::View<int*, MemorySpace>;
  using atom_view = Kokkos::View<atom4*, MemorySpace>;

  const int n = int(atoms.extent(0));
  const int nb = grid.size();
  const bin_grid gr = grid;

  atom_bins<MemorySpace> out;
  out.grid = grid;
  // Temporaries (released to the cache when the build returns, after its fence) and the results' blocks.
  std::vector<std::shared_ptr<device_block>> temporaries;
  const auto temp_atoms = [&](const char* label, std::size_t count) {
    return detail::scratch_view<atom4, MemorySpace>(label, count, temporaries);
  };
  const auto temp_ints = [&](const char* label, std::size_t count) {
    return detail::scratch_view<int, MemorySpace>(label, count, temporaries);
  };

  // (a), (b): the bin of every atom (-1: dropped), its position (periodic: wrapped), the bin counts.
  const atom_view pos = temp_atoms("ppl::spatial::positions", std::size_t(n));
  const ints bin = temp_ints("ppl::spatial::atom_bin", std::size_t(n));
  const ints count = detail::scratch_view<int, MemorySpace>("ppl::spatial::bin_counts", std::size_t(nb), out.storage);
  Kokkos::deep_copy(exec, count, 0);
  std::size_t dropped = 0;
  Kokkos::parallel_reduce(
      "ppl::spatial::bin_atoms", range(exec, 0, n),
      KOKKOS_LAMBDA(const int i, std::size_t& drop) {
        const atom4 a = point_charge_access<Record>::get(atoms(i));
        float x = a.x, y = a.y, z = a.z;
        gr.wrap_position(x, y, z);
        int bx = 0, by = 0, bz = 0;
        if (gr.bin_of(x, y, z, bx, by, bz)) {
          const int b = gr.index(bx, by, bz);
          bin(i) = b;
          pos(i) = atom4{x, y, z, a.q};
          Kokkos::atomic_add(&count(b), 1);
        } else {
          bin(i) = -1;
          ++drop;
        }
      },
      dropped);
  out.dropped = dropped;
  int max_count = 0;
  Kokkos::parallel_reduce(
      "ppl::spatial::max_count", range(exec, 0, nb),
      KOKKOS_LAMBDA(const int b, int& m) {
        if (count(b) > m) m = count(b);
      },
      Kokkos::Max<int>(max_count));
  out.max_count = std::size_t(max_count);
  // The capacity, grown (to a multiple of 4 slots, at most grow_to) when the fullest bin exceeds it.
  const int cap = grow_to > capacity && max_count > capacity ? std::min((max_count + 3) / 4 * 4, grow_to) : capacity;
  out.capacity = cap;

  // (c): exclusive scans: CSR offsets of every bin's atoms, and of its overflow atoms.
  const ints offset = temp_ints("ppl::spatial::bin_offsets", std::size_t(nb) + 1);
  const ints over_offset = temp_ints("ppl::spatial::overflow_offsets", std::size_t(nb) + 1);
  Kokkos::parallel_scan(
      "ppl::spatial::bin_offsets", range(exec, 0, nb), KOKKOS_LAMBDA(const int b, int& run, const bool final) {
        const int c = count(b);
        if (final) {
          offset(b) = run;
          if (b == nb - 1) offset(nb) = run + c;
        }
        run += c;
      });
  Kokkos::parallel_scan(
      "ppl::spatial::overflow_offsets", range(exec, 0, nb), KOKKOS_LAMBDA(const int b, int& run, const bool final) {
        const int c = count(b) > cap ? count(b) - cap : 0;
        if (final) {
          over_offset(b) = run;
          if (b == nb - 1) over_offset(nb) = run + c;
        }
        run += c;
      });
  exec.fence();
  int n_over = 0;
  Kokkos::deep_copy(n_over, Kokkos::subview(over_offset, nb));
  const int kept = n - int(dropped);

  // (d): permute into CSR order (the order within a bin depends on the schedule here) ...
  const ints perm = temp_ints("ppl::spatial::permutation", std::size_t(kept));
  const ints cursor = temp_ints("ppl::spatial::bin_cursors", std::size_t(nb));
  Kokkos::deep_copy(exec, cursor, 0);
  Kokkos::parallel_for(
      "ppl::spatial::permute", range(exec, 0, n), KOKKOS_LAMBDA(const int i) {
        const int b = bin(i);
        if (b >= 0) perm(offset(b) + Kokkos::atomic_fetch_add(&cursor(b), 1)) = i;
      });
  // (e): ... and made deterministic: each bin's segment ordered by input index.
  Kokkos::parallel_for(
      "ppl::spatial::sort_bins", range(exec, 0, nb),
      KOKKOS_LAMBDA(const int b) { detail::sort_ints(perm.data() + offset(b), offset(b + 1) - offset(b)); });

  // Slots: the first `capacity` atoms of each bin, then the sentinel.
  out.slots = detail::scratch_view<atom4, MemorySpace>("ppl::spatial::slots", std::size_t(nb) * std::size_t(cap),
                                                       out.storage);
  const atom_view slots = out.slots;
  Kokkos::parallel_for(
      "ppl::spatial::fill_slots", range64(exec, 0, std::int64_t(nb) * cap), KOKKOS_LAMBDA(const std::int64_t t) {
        const int b = int(t / cap), s = int(t % cap);
        slots(t) = s < count(b) ? pos(perm(offset(b) + s)) : empty_slot();
      });
  // Overflow: the rest, bin-major.
  out.overflow = n_over > 0 ? detail::scratch_view<atom4, MemorySpace>("ppl::spatial::overflow", std::size_t(n_over),
                                                                       out.storage)
                             : atom_view();
  const atom_view overflow = out.overflow;
  Kokkos::parallel_for(
      "ppl::spatial::fill_overflow", range(exec, 0, kept), KOKKOS_LAMBDA(const int p) {
        const int i = perm(p);
        const int b = bin(i);
        const int s = p - offset(b);
        if (s >= cap) overflow(over_offset(b) + s - cap) = pos(i);
      });

  Kokkos::parallel_for(
      "ppl::spatial::cap_counts", range(exec, 0, nb), KOKKOS_LAMBDA(const int b) {
        if (count(b) > cap) count(b) = cap;
      });
  out.counts = count;
  exec.fence();
  out.overflow_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.overflow);
  return out;
}

// The same for any rank-1 View of records (e.g. device_atoms::data, whose type names no memory space).
template <class ExecSpace, class AtomView, class = std::enable_if_t<Kokkos::is_view<AtomView>::value>>
atom_bins<typename AtomView::memory_space> build_atom_bins(const ExecSpace& exec, const AtomView& atoms,
                                                           const bin_grid& grid, int capacity, int grow_to = 0) {
  using memory_space = typename AtomView::memory_space;
  using record = std::remove_const_t<typename AtomView::value_type>;
  const Kokkos::View<const record*, memory_space> view = atoms;
  return build_atom_bins<ExecSpace, record, memory_space>(exec, view, grid, capacity, grow_to);
}

// The two builds the library compiles (src/spatial/atom_bins.cpp): on the default execution space from
// device_atoms::data, and on the default host execution space from device_atoms::host.
atom_bins<Kokkos::DefaultExecutionSpace::memory_space> build_atom_bins(const device_atoms& atoms, const bin_grid& grid,
                                                                       int capacity, int grow_to = 0);
atom_bins<Kokkos::HostSpace> build_atom_bins_host(const device_atoms& atoms, const bin_grid& grid, int capacity);

}  // namespace ppl::spatial
