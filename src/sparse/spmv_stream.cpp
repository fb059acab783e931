// `stream`: CSR-Stream (Greathouse & Daga, SC 2014) as a portable Kokkos kernel. A team owns R consecutive rows,
// whose nonzeros are one contiguous range of the CSR arrays. Phase 1: every thread of the team (256 on a GPU) forms
// products values[j] * x[cols[j]] for that range with consecutive threads on consecutive j, so the matrix streams fully
// coalesced whatever the row lengths, and U loads per thread are in flight at once; the products go to team scratch
// (shared memory). Phase 2: each row is summed from scratch by 256 / R threads. The vector mapping instead gives each
// row a fixed lane group, which idles lanes on the last stride of every row (27 nonzeros on 8 lanes: 4 strides, 27/32
// lanes busy) and splits a warp's loads into row-sized pieces; on the H200 that is 2.55 TB/s against 3.61 TB/s for this
// design on the 27-per-row matrix (perf/results/spmv-h200/probe). A team whose range exceeds the scratch capacity (rows
// much longer than the mean) sums its rows with the same threads from global memory, so any matrix is handled; the
// capacity is sized from the mean row length. Runs on every execution space.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>

#include "spmv_factories.hpp"

namespace ppl {
namespace {

// At most 32 registers, so that 8 teams of 256 threads fit on an SM: a memory-bound kernel needs the loads of
// every warp it can hold in flight (without the bound nvcc took 40 registers: 6 teams, perf/results/spmv-h200/ncu).
template <class Space>
using team_policy = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<256, 8>>;
constexpr bool host_space = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible;
constexpr int team_threads = host_space ? 1 : 256;  // threads of a team (vector length 1)
constexpr int unroll = 4;                           // loads in flight per thread in phase 1
// x and the row offsets through the read-only data path (__ldg on CUDA): the portable form of one of the cache
// hints stream_cuda gives its loads.
using random_access_vector = Kokkos::View<const double*, sparse_space, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;

// R, the rows of a team, is a compile-time constant, and with it the lanes that sum a row (256 / R on a GPU, 1 on
// the host) and the strides of phase 2. With both at run time (a ThreadVectorRange of run-time length, its division
// and its nested reduction) the kernel executed about twice the instructions of the plain CUDA design and ran at 75%
// of stream_cuda's bandwidth (Nsight Compute, perf/results/spmv-h200/ncu).
template <int R, class Member>
struct stream_kernel {
  static constexpr int lanes = team_threads / R > 1 ? team_threads / R : 1;
  static constexpr int rows_at_once = team_threads / lanes;  // R on a GPU, 1 on the host
  crs_matrix::row_map_type row_map;
  crs_matrix::index_type entries;
  crs_matrix::values_type values;
  random_access_vector x;
  vector_view y;
  int rows = 0, capacity = 0;

  static std::size_t scratch_bytes(int capacity) {
    return sizeof(double) * (capacity + (lanes > 1 ? team_threads : 0)) + sizeof(int) * (R + 1);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const int first = m.league_rank() * R;
    double* products = static_cast<double*>(m.team_scratch(0).get_shmem(sizeof(double) * capacity));
    double* partial =
        lanes > 1 ? static_cast<double*>(m.team_scratch(0).get_shmem(sizeof(double) * team_threads)) : nullptr;
    int* offsets = static_cast<int*>(m.team_scratch(0).get_shmem(sizeof(int) * (R + 1)));
    const auto base = row_map(first);
    const int t = m.team_rank();
    // The team's row offsets, read once into scratch (rows past the end: empty ranges).
    for (int r = t; r <= R; r += team_threads)
      offsets[r] = static_cast<int>(row_map(first + r < rows ? first + r : rows) - base);
    m.team_barrier();
    const int nnz = offsets[R];
    // Raw pointers from the team's first entry and a compile-time stride (the team's thread count): with View
    // indexing and a run-time stride nvcc needed more than the 32 registers of the launch bounds and spilled.
    const int* cols = entries.data() + base;
    const double* vals = values.data() + base;
    const int lane = t % lanes;
    if (nnz <= capacity) {  // team-uniform
      for (int j0 = t; j0 < nnz; j0 += team_threads * unroll) {
        // Every load unconditional (past the end: the last entry again), so that all 3 x unroll loads of a thread
        // are in flight together; only the stores are conditional. With the x loads under the store's condition
        // they waited one by one (ncu: 40% slower, perf/results/spmv-h200/ncu).
        int c[unroll];
        double v[unroll], xv[unroll];
        for (int u = 0; u < unroll; ++u) {
          const int j = j0 + u * team_threads < nnz ? j0 + u * team_threads : nnz - 1;
          c[u] = cols[j];
          v[u] = vals[j];
        }
        for (int u = 0; u < unroll; ++u) xv[u] = x(c[u]);
        for (int u = 0; u < unroll; ++u)
          if (j0 + u * team_threads < nnz) products[j0 + u * team_threads] = v[u] * xv[u];
      }
      m.team_barrier();
      // Phase 2: `lanes` consecutive threads per row.
      for (int pass = 0; pass < R / rows_at_once; ++pass) {  // one pass on a GPU
        const int local = t / lanes + pass * rows_at_once;
        double sum = 0;
        for (int k = offsets[local] + lane; k < offsets[local + 1]; k += lanes) sum += products[k];
        store(m, partial, t, first + local, sum);
      }
    } else {                                                 // the same lanes from global memory
      for (int pass = 0; pass < R / rows_at_once; ++pass) {  // one pass on a GPU
        const int local = t / lanes + pass * rows_at_once;
        double sum = 0;
        for (int k = offsets[local] + lane; k < offsets[local + 1]; k += lanes) sum += vals[k] * x(cols[k]);
        store(m, partial, t, first + local, sum);
      }
    }
  }

  // A row's lanes leave their partial sums in scratch, and its first lane adds them and stores the row. With more
  // than one lane (a GPU) every thread of the team calls this once, so the barrier is reached by all.
  KOKKOS_INLINE_FUNCTION void store(const Member& m, double* partial, int t, int row, double sum) const {
    if (lanes > 1) {
      partial[t] = sum;
      m.team_barrier();
      if (t % lanes != 0) return;
      for (int l = 1; l < lanes; ++l) sum += partial[t + l];
    }
    if (row < rows) y(row) = sum;
  }
};

class spmv_stream final : public spmv_strategy {
 public:
  explicit spmv_stream(int rows_per_team) : rows_per_team_(rows_per_team) {}

  void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override {
    Kokkos::Profiling::pushRegion("ppl::spmv[stream]");
    const int rows = A.numRows();
    if (rows > 0) {
      const double mean = static_cast<double>(A.nnz()) / rows;
      const int r = rows_per_team_ > 0 ? rows_per_team_ : stream_rows_per_team(mean, !host_space);
      switch (r) {
        case 1:
          launch<1>(space, A, x, y, mean);
          break;
        case 2:
          launch<2>(space, A, x, y, mean);
          break;
        case 4:
          launch<4>(space, A, x, y, mean);
          break;
        case 8:
          launch<8>(space, A, x, y, mean);
          break;
        case 16:
          launch<16>(space, A, x, y, mean);
          break;
        case 32:
          launch<32>(space, A, x, y, mean);
          break;
        case 64:
          launch<64>(space, A, x, y, mean);
          break;
        case 128:
          launch<128>(space, A, x, y, mean);
          break;
        default:
          launch<256>(space, A, x, y, mean);
          break;
      }
    }
    Kokkos::Profiling::popRegion();
  }

  std::string describe() const override {
    return "stream (CSR-Stream), " + (rows_per_team_ > 0 ? std::to_string(rows_per_team_) : std::string("default")) +
           " rows/team";
  }

 private:
  template <int R>
  static void launch(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y, double mean) {
    const int rows = A.numRows();
    // 25% above the mean row length, at least 32 per row; on a GPU at most 24 KiB with the partial sums and
    // offsets, so that the 8 teams per SM of the launch bounds fit in its 228 KiB with Kokkos' own team space (8
    // bytes per thread; Kokkos refuses the launch otherwise).
    const int wanted = R * std::max(32, static_cast<int>(std::ceil(1.25 * mean)));
    const int capacity = host_space ? wanted : std::min(3072 - team_threads - (R + 2) / 2, wanted);
    space.visit([&](const auto& s) {
      using policy_type = team_policy<std::decay_t<decltype(s)>>;
      using kernel = stream_kernel<R, typename policy_type::member_type>;
      const kernel k{A.graph.row_map, A.graph.entries, A.values, random_access_vector(x), y, rows, capacity};
      policy_type policy(s, (rows + R - 1) / R, team_threads, 1);
      policy.set_scratch_size(0, Kokkos::PerTeam(kernel::scratch_bytes(capacity)));
      Kokkos::parallel_for("ppl::spmv[stream]", policy, k);
    });
  }
  int rows_per_team_;
};

}  // namespace

// The fastest shapes of the H200 probe (64 rows for 27 per row; 128 was 22% slower).
int stream_rows_per_team(double mean_nnz, bool gpu) {
  if (!gpu) return 256;
  int r = 8;
  while (r < 128 && 2 * r * mean_nnz <= 2048) r *= 2;
  return r;
}

const parameter_fields<stream_spmv_params>& stream_spmv_params::fields() {
  static const auto f = parameter_fields<stream_spmv_params>().integer_of_or_auto(
      "rows_per_team", &stream_spmv_params::rows_per_team, {1, 2, 4, 8, 16, 32, 64, 128, 256},
      "R, the rows of a team; auto: on a GPU the largest power of two in [8, 128] with R x mean nonzeros per row <= "
      "2048, on the host 256");
  return f;
}

std::unique_ptr<spmv_strategy> make_stream_spmv(const stream_spmv_params& p) {
  stream_spmv_params::fields().check(p);
  return std::make_unique<spmv_stream>(p.rows_per_team);
}

}  // namespace ppl
