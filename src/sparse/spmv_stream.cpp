// `stream`: CSR-Stream (Greathouse & Daga, SC 2014) as a portable Kokkos kernel. A team owns R consecutive rows,
// whose nonzeros are one contiguous range of the CSR arrays. Phase 1: every thread of the team (team threads x
// vector lanes, 256 on a GPU) forms products values[j] * x[cols[j]] for that range with consecutive threads on
// consecutive j, so the matrix streams fully coalesced whatever the row lengths, and U loads per thread are in
// flight at once; the products go to team scratch (shared memory). Phase 2: each row is summed from scratch by
// 256 / R vector lanes. The vector mapping instead gives each row a fixed lane group, which idles lanes on the last
// stride of every row (27 nonzeros on 8 lanes: 4 strides, 27/32 lanes busy) and splits a warp's loads into
// row-sized pieces; on the H200 that is 2.55 TB/s against 3.61 TB/s for this design on the 27-per-row matrix
// (perf/results/spmv-h200/probe).
// A team whose range exceeds the scratch capacity (rows much longer than the mean) falls back to the vector
// mapping from global memory, so any matrix is handled; the capacity is sized from the mean row length. Runs on
// every execution space.
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
constexpr int team_threads = host_space ? 1 : 256;  // threads of a team (team size x vector length)
constexpr int unroll = 4;                           // loads in flight per thread in phase 1

template <class Member>
struct stream_kernel {
  crs_matrix::row_map_type row_map;
  crs_matrix::index_type entries;
  crs_matrix::values_type values;
  const_vector_view x;
  vector_view y;
  int rows = 0, rows_per_team = 1, lanes = 1, capacity = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const int first = m.league_rank() * rows_per_team;
    const int count = rows - first < rows_per_team ? rows - first : rows_per_team;
    double* products = static_cast<double*>(m.team_scratch(0).get_shmem(sizeof(double) * capacity));
    double* partial = static_cast<double*>(m.team_scratch(0).get_shmem(sizeof(double) * rows_per_team * lanes));
    const auto base = row_map(first);
    const int nnz = static_cast<int>(row_map(first + count) - base);
    const int t = m.team_rank() * lanes;  // + the vector lane: the thread's index in the team
    if (nnz <= capacity) {                // team-uniform
      // Raw pointers from the team's first entry and a compile-time stride (the team's thread count): with View
      // indexing and a run-time stride nvcc needed more than the 32 registers of the launch bounds and spilled.
      const int* cols = entries.data() + base;
      const double* vals = values.data() + base;
      const double* xp = x.data();
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](const int l) {
        for (int j0 = t + l; j0 < nnz; j0 += team_threads * unroll) {
          // Every load unconditional (past the end: the last entry again), so that all 3 x unroll loads of a
          // thread are in flight together; only the stores are conditional. With the x loads under the store's
          // condition they waited one by one (ncu: 40% slower, perf/results/spmv-h200/ncu).
          int c[unroll];
          double v[unroll], xv[unroll];
          for (int u = 0; u < unroll; ++u) {
            const int j = j0 + u * team_threads < nnz ? j0 + u * team_threads : nnz - 1;
            c[u] = cols[j];
            v[u] = vals[j];
          }
          for (int u = 0; u < unroll; ++u) xv[u] = xp[c[u]];
          for (int u = 0; u < unroll; ++u)
            if (j0 + u * team_threads < nnz) products[j0 + u * team_threads] = v[u] * xv[u];
        }
      });
      m.team_barrier();
      // Phase 2 without Kokkos' nested reduction: each row's `lanes` threads leave partial sums in scratch, then
      // one thread per row adds them. A ThreadVectorRange reduction here (Kokkos 3.4, CUDA) divides by the run-time
      // vector length and shuffles in a loop of run-time width: the kernel executed about twice the probe's
      // instructions (SASS and Nsight Compute, perf/results/spmv-h200/ncu).
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](const int l) {
        for (int r = m.team_rank(); r < count; r += m.team_size()) {
          const int b = static_cast<int>(row_map(first + r) - base),
                    e = static_cast<int>(row_map(first + r + 1) - base);
          double sum = 0;
          for (int k = b + l; k < e; k += lanes) sum += products[k];
          partial[r * lanes + l] = sum;
        }
      });
      m.team_barrier();
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, lanes), [&](const int l) {
        for (int r = t + l; r < count; r += team_threads) {
          double sum = 0;
          for (int k = 0; k < lanes; ++k) sum += partial[r * lanes + k];
          y(first + r) = sum;
        }
      });
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, count), [&](const int r) {
        const auto b = row_map(first + r);
        const int len = static_cast<int>(row_map(first + r + 1) - b);
        double sum = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(m, len), [&](const int k, double& s) { s += values(b + k) * x(entries(b + k)); },
            sum);
        Kokkos::single(Kokkos::PerThread(m), [&]() { y(first + r) = sum; });
      });
    }
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
      const int lanes = host_space ? 1 : std::max(1, std::min(32, team_threads / r));
      const int team_size = host_space ? 1 : std::max(1, team_threads / lanes);
      // 25% above the mean row length, at least 32 per row; on a GPU at most 24 KiB with the partial sums, so that
      // the 8 teams per SM of the launch bounds fit in its 228 KiB with Kokkos' own team space (8 bytes per thread;
      // Kokkos refuses the launch otherwise).
      const int wanted = r * std::max(32, static_cast<int>(std::ceil(1.25 * mean)));
      const int capacity = host_space ? wanted : std::min(3072 - r * lanes, wanted);
      space.visit([&](const auto& s) {
        using policy_type = team_policy<std::decay_t<decltype(s)>>;
        const stream_kernel<typename policy_type::member_type> k{
            A.graph.row_map, A.graph.entries, A.values, x, y, rows, r, lanes, capacity};
        policy_type policy(s, (rows + r - 1) / r, team_size, lanes);
        policy.set_scratch_size(0, Kokkos::PerTeam(sizeof(double) * (capacity + r * lanes)));
        Kokkos::parallel_for("ppl::spmv[stream]", policy, k);
      });
    }
    Kokkos::Profiling::popRegion();
  }

  std::string describe() const override {
    return "stream (CSR-Stream), " + (rows_per_team_ > 0 ? std::to_string(rows_per_team_) : std::string("default")) +
           " rows/team";
  }

 private:
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
