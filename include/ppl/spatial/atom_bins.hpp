#pragma once
// Atoms sorted into fixed-capacity bins, the input of a cutoff-summation kernel (Parboil cutcp, Rodrigues et al.
// 2008): a thread block reads the bins of its stencil (bin_stencil.hpp) as whole, equally sized arrays of atom4 slots,
// with no per-bin offsets to look up and no divergence between bins of different fill; a slot that holds no atom is a
// sentinel the kernel may evaluate (it contributes exactly 0) or stop at. The atoms that do not fit (a bin fuller than
// `capacity`) go to an overflow list that the host sums, so the capacity can be sized for the typical density
// instead of the worst bin. The build runs on an execution space (the device for large inputs) as a counting sort
// (count, exclusive scan, scatter, then per bin an ordering and the fill), and is deterministic: within a bin atoms
// are ordered by input index, the first `capacity` go to the slots, the rest to the overflow list (bin-major, then by
// input index), whatever the thread schedule. Timing the build is the caller's business; its two phases are Kokkos
// profiling regions (ppl::spatial::build_atom_bins[count] up to the one readback, [fill] after it).
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ppl/core/device_buffers.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_compat.hpp"
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
  KOKKOS_INLINE_FUNCTION static atom4 get(const Record& r) {
    return atom4{float(r.x), float(r.y), float(r.z), float(r.q)};
  }
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
  // The blocks under slots, counts and overflow: from the block cache (device_buffers.hpp) when they live in the
  // default memory space, so a plan rebuilt per trajectory frame allocates nothing after the first.
  std::vector<std::shared_ptr<device_block>> storage;
};

// Bytes of memory a build with `n_atoms` atoms needs at its peak on its memory space: the slots and counts it
// returns, the overflow list (at most n_atoms atoms), and the temporaries of the build (per atom: bin, provisional
// rank, CSR place; per bin: offsets, overflow offsets). With n_atoms = 0: the slots and counts alone.
// Saturates at SIZE_MAX. Throws input_error unless capacity >= 1.
std::size_t atom_bins_bytes(const bin_grid& grid, int capacity, std::size_t n_atoms = 0);
// Throws input_error (naming the bins, the capacity and `memory`) unless atom_bins_bytes(...) <= available_bytes.
void check_atom_bins_memory(const bin_grid& grid, int capacity, std::size_t n_atoms, double available_bytes,
                            const std::string& memory);

namespace detail {

// Bins of at most this many atoms (all of them at cutoff densities) are ordered and filled by one thread, from a
// local array; fuller bins by a team (fill_large_bins), launched only when the fullest bin is fuller than this.
constexpr int small_bin_atoms = 32;

// A block of `bytes` on MemorySpace, for a build's arrays: from the process-wide block cache when MemorySpace is
// the default memory space (each Kokkos allocation on CUDA is a cudaMalloc, its release a synchronizing cudaFree,
// about 50 us the pair), else a new Kokkos allocation owned by the block.
template <class MemorySpace>
class space_block final : public device_block {
 public:
  explicit space_block(std::size_t bytes)
      : v_(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("ppl::spatial::atom_bins")), bytes) {}
  void* data() const override { return v_.data(); }
  std::size_t bytes() const override { return v_.extent(0); }

 private:
  Kokkos::View<char*, MemorySpace> v_;
};
template <class MemorySpace>
std::shared_ptr<device_block> acquire_block(std::size_t bytes) {
  if constexpr (std::is_same_v<MemorySpace, Kokkos::DefaultExecutionSpace::memory_space>)
    return acquire_device_bytes(bytes);
  else
    return std::make_shared<space_block<MemorySpace>>(bytes == 0 ? 1 : bytes);
}

// Typed arrays carved one after the other (256-byte aligned) out of one block, so that a build asks for one
// allocation where it has several arrays of sizes known together.
template <class MemorySpace>
class carved_block {
 public:
  static constexpr std::size_t align = 256;
  static std::size_t bytes_of(std::size_t n, std::size_t size) { return (n * size + align - 1) / align * align; }
  // `bytes`: the sum of bytes_of() over the arrays that take() will hand out.
  carved_block(std::size_t bytes, std::vector<std::shared_ptr<device_block>>& keep)
      : block_(acquire_block<MemorySpace>(bytes)) {
    keep.push_back(block_);
  }
  template <class T>
  Kokkos::View<T*, MemorySpace> take(std::size_t n) {
    T* p = reinterpret_cast<T*>(static_cast<char*>(block_->data()) + used_);
    used_ += bytes_of(n, sizeof(T));
    if (used_ > block_->bytes()) throw std::logic_error("atom bins: carved past the end of a block");
    return Kokkos::View<T*, MemorySpace>(p, n);
  }

 private:
  std::shared_ptr<device_block> block_;
  std::size_t used_ = 0;
};

// The exclusive scan of the bin counts into CSR offsets; the last bin writes the totals: offset(nb) and
// header(0) = the atoms kept, header(1) = the fullest bin (a scan of (sum, max) pairs, so that no reduction with its
// own launch and readback is needed).
template <class MemorySpace>
struct count_scan {
  struct value_type {
    int sum, max;
  };
  Kokkos::View<int*, MemorySpace> count, offset, header;
  int nb;
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v.sum = v.max = 0; }
  KOKKOS_INLINE_FUNCTION void join(PPL_KOKKOS_JOIN_VOLATILE value_type& d,
                                   const PPL_KOKKOS_JOIN_VOLATILE value_type& s) const {
    d.sum += s.sum;
    if (s.max > d.max) d.max = s.max;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int b, value_type& v, const bool final) const {
    const int c = count(b);
    if (final) {
      offset(b) = v.sum;
      if (b == nb - 1) {
        offset(nb) = header(0) = v.sum + c;
        header(1) = c > v.max ? c : v.max;
      }
    }
    v.sum += c;
    if (c > v.max) v.max = c;
  }
};

// Sorts a[0, n) ascending, n <= small_bin_atoms (insertion sort: a bin's few atoms).
KOKKOS_INLINE_FUNCTION void sort_small(int* a, int n) {
  for (int i = 1; i < n; ++i) {
    const int v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = v;
  }
}

// The number of elements of the ascending a[lo, hi) below v.
KOKKOS_INLINE_FUNCTION int count_below(const int* a, int lo, int hi, int v) {
  const int first = lo;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (a[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo - first;
}

// Sorts the distinct ints a[0, c) ascending with the threads of team m, t[0, c) as scratch; returns the one of a and
// t that holds the result. A bottom-up merge sort: in the pass of width w, element e of a run moves to its place in
// the merged pair of runs, its index in its run plus the number of elements of the other run below it (a binary
// search), so every element of a pass is placed independently: log2(c) passes of c / team_size binary searches.
template <class Member>
KOKKOS_INLINE_FUNCTION int* team_merge_sort(const Member& m, int* a, int* t, const int c) {
  for (int w = 1; w < c; w *= 2) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, c), [&](const int e) {
      const int run = e / w, start = run * w, pair_start = (run & ~1) * w;
      const int other = (run ^ 1) * w;
      const int lo = other < c ? other : c, hi = other + w < c ? other + w : c;
      const int v = a[e];
      t[pair_start + (e - start) + count_below(a, lo, hi, v)] = v;
    });
    m.team_barrier();
    int* const done = t;
    t = a;
    a = done;
  }
  return a;
}

// A Kokkos profiling region for the life of the object (popped on the way out of an exception too).
class profiling_region {
 public:
  explicit profiling_region(const char* name) { Kokkos::Profiling::pushRegion(name); }
  ~profiling_region() { Kokkos::Profiling::popRegion(); }
  profiling_region(const profiling_region&) = delete;
  profiling_region& operator=(const profiling_region&) = delete;
};

// The position build_atom_bins stores for atom i: its input position, wrapped into a periodic box (the arithmetic
// that chose its bin, so the two agree bit for bit).
template <class AtomView>
KOKKOS_INLINE_FUNCTION atom4 stored_position(const AtomView& atoms, const bin_grid& g, const int i) {
  const atom4 a = point_charge_access<typename AtomView::non_const_value_type>::get(atoms(i));
  float x = a.x, y = a.y, z = a.z;
  g.wrap_position(x, y, z);
  return atom4{x, y, z, a.q};
}

}  // namespace detail

// Builds the bins of `atoms` (any records point_charge_access reads, in the lattice frame, as device_atoms holds
// them) on `exec`, which must be able to access MemorySpace. Throws input_error unless capacity >= 1 and
// atoms.extent(0) <= INT_MAX. grow_to > capacity: when the fullest bin holds more than `capacity` atoms, the capacity
// grows to it (rounded up to 4 slots, at most grow_to), decided between the count and the fill, so one build
// suffices. Fences `exec` before returning.
//
// The steps, for the GPU: (a) clear the counts; (b) per atom its bin and, by an atomic increment of the bin's count,
// a provisional rank in it; (c) scan the counts into CSR offsets, with the atoms kept and the fullest bin; one
// readback of those two numbers (the capacity and the slots' size depend on them); (d) scatter the atom indices to
// their CSR places; (e) per bin, order its indices by input index (the atomics' order depends on the schedule) and
// write its slots, its overflow atoms and its capped count. Overflow adds one scan and a readback of its size. Five
// kernels (the scan is two launches on Kokkos 3.4's CUDA backend) and two host synchronisations in all, the
// readback and the final fence; the arrays come from three blocks (temporaries, counts, slots), all from the block
// cache on the default memory space, so a repeated build allocates nothing.
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
  using team_policy = Kokkos::TeamPolicy<ExecSpace>;
  using member = typename team_policy::member_type;
  using ints = Kokkos::View<int*, MemorySpace>;
  using atom_view = Kokkos::View<atom4*, MemorySpace>;
  using carved = detail::carved_block<MemorySpace>;
  constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

  const int n = int(atoms.extent(0));
  const int nb = grid.size();
  const bin_grid gr = grid;

  atom_bins<MemorySpace> out;
  out.grid = grid;
  auto counting = std::make_unique<detail::profiling_region>("ppl::spatial::build_atom_bins[count]");
  // Temporaries (back to the cache when the build returns, after its fence): per atom its bin (-1: dropped), its
  // provisional rank, its CSR place (perm); per bin its CSR and overflow offsets; the scan's totals.
  std::vector<std::shared_ptr<device_block>> temporaries;
  carved temp(3 * carved::bytes_of(std::size_t(n), sizeof(int)) +
                  2 * carved::bytes_of(std::size_t(nb) + 1, sizeof(int)) + carved::bytes_of(4, sizeof(int)),
              temporaries);
  const ints bin = temp.template take<int>(std::size_t(n));
  const ints rank = temp.template take<int>(std::size_t(n));
  const ints perm = temp.template take<int>(std::size_t(n));
  const ints offset = temp.template take<int>(std::size_t(nb) + 1);
  const ints over_offset = temp.template take<int>(std::size_t(nb) + 1);
  const ints header = temp.template take<int>(4);
  const ints count = carved(carved::bytes_of(std::size_t(nb), sizeof(int)), out.storage).template take<int>(nb);

  // (a), (b)
  Kokkos::parallel_for(
      "ppl::spatial::clear_counts", range(exec, 0, nb), KOKKOS_LAMBDA(const int b) { count(b) = 0; });
  Kokkos::parallel_for(
      "ppl::spatial::bin_atoms", range(exec, 0, n), KOKKOS_LAMBDA(const int i) {
        const atom4 a = point_charge_access<Record>::get(atoms(i));
        float x = a.x, y = a.y, z = a.z;
        gr.wrap_position(x, y, z);
        int bx = 0, by = 0, bz = 0;
        if (gr.bin_of(x, y, z, bx, by, bz)) {
          const int b = gr.index(bx, by, bz);
          bin(i) = b;
          rank(i) = Kokkos::atomic_fetch_add(&count(b), 1);
        } else {
          bin(i) = -1;
        }
      });
  // (c) and the one readback every build makes.
  Kokkos::parallel_scan("ppl::spatial::bin_offsets", range(exec, 0, nb),
                        detail::count_scan<MemorySpace>{count, offset, header, nb});
  int totals[2] = {0, 0};
  exec.fence();
  Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(totals, 2),
                    Kokkos::subview(header, std::make_pair(0, 2)));
  const int kept = totals[0], max_count = totals[1];
  out.dropped = std::size_t(n - kept);
  out.max_count = std::size_t(max_count);
  // The capacity, grown (to a multiple of 4 slots, at most grow_to) when the fullest bin exceeds it.
  const int cap = grow_to > capacity && max_count > capacity ? std::min((max_count + 3) / 4 * 4, grow_to) : capacity;
  out.capacity = cap;
  counting.reset();

  const detail::profiling_region filling("ppl::spatial::build_atom_bins[fill]");
  // (d)
  Kokkos::parallel_for(
      "ppl::spatial::scatter_atoms", range(exec, 0, n), KOKKOS_LAMBDA(const int i) {
        const int b = bin(i);
        if (b >= 0) perm(offset(b) + rank(i)) = i;
      });
  // Overflow (only when a bin holds more than `cap`): its offsets, bin-major, and its size.
  int n_over = 0;
  if (max_count > cap) {
    Kokkos::parallel_scan(
        "ppl::spatial::overflow_offsets", range(exec, 0, nb), KOKKOS_LAMBDA(const int b, int& run, const bool final) {
          const int c = offset(b + 1) - offset(b);
          const int extra = c > cap ? c - cap : 0;
          if (final) {
            over_offset(b) = run;
            if (b == nb - 1) over_offset(nb) = header(2) = run + extra;
          }
          run += extra;
        });
    exec.fence();
    Kokkos::deep_copy(n_over, Kokkos::subview(header, 2));
  }
  out.slots = carved(carved::bytes_of(std::size_t(nb) * std::size_t(cap), sizeof(atom4)), out.storage)
                  .template take<atom4>(std::size_t(nb) * std::size_t(cap));
  out.overflow = n_over > 0 ? carved(carved::bytes_of(std::size_t(n_over), sizeof(atom4)), out.storage)
                                  .template take<atom4>(std::size_t(n_over))
                            : atom_view();
  const atom_view slots = out.slots, overflow = out.overflow;

  // (e) The slots of bin b from its atoms' indices ordered by input index (the first `cap`; the rest to the overflow
  // list), and its capped count.
  Kokkos::parallel_for(
      "ppl::spatial::fill_bins", range(exec, 0, nb), KOKKOS_LAMBDA(const int b) {
        const int o = offset(b), c = offset(b + 1) - o;
        if (c > detail::small_bin_atoms) return;  // fill_large_bins
        int ids[detail::small_bin_atoms];
        for (int s = 0; s < c; ++s) ids[s] = perm(o + s);
        detail::sort_small(ids, c);
        const std::int64_t first = std::int64_t(b) * cap;
        for (int s = 0; s < cap; ++s)
          slots(first + s) = s < c ? detail::stored_position(atoms, gr, ids[s]) : empty_slot();
        for (int s = cap; s < c; ++s) overflow(over_offset(b) + s - cap) = detail::stored_position(atoms, gr, ids[s]);
        count(b) = c < cap ? c : cap;
      });
  if (max_count > detail::small_bin_atoms) {
    // The fuller bins: a team per bin sorts its indices (team_merge_sort, between perm and rank, which is free since
    // (d): no bin waits for one thread to order thousands of atoms), then fills.
    const int team = on_host ? 1 : max_count > 4096 ? 256 : 32;
    Kokkos::parallel_for(
        "ppl::spatial::fill_large_bins", team_policy(exec, nb, team), KOKKOS_LAMBDA(const member& m) {
          const int b = m.league_rank();
          const int o = offset(b), c = offset(b + 1) - o;
          if (c <= detail::small_bin_atoms) return;
          const int* const src = detail::team_merge_sort(m, perm.data() + o, rank.data() + o, c);
          const std::int64_t first = std::int64_t(b) * cap;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, c > cap ? c : cap), [&](const int s) {
            if (s < cap)
              slots(first + s) = s < c ? detail::stored_position(atoms, gr, src[s]) : empty_slot();
            else
              overflow(over_offset(b) + s - cap) = detail::stored_position(atoms, gr, src[s]);
          });
          Kokkos::single(Kokkos::PerTeam(m), [&]() { count(b) = c < cap ? c : cap; });
        });
  }
  out.counts = count;
  exec.fence();
  if (n_over > 0) out.overflow_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.overflow);
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
