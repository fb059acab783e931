// `vector`: TeamPolicy + TeamThreadRange over rows + ThreadVectorRange reduction over a row's nonzeros.
#include "spmv_vector.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>

namespace ppl {
namespace {

// GPUs run one row per (team thread, vector lanes) pair; host backends run one team per thread and loop.
constexpr bool host_space = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible;

template <class Member>
struct vector_kernel {
  crs_matrix::row_map_type row_map;
  crs_matrix::index_type entries;
  crs_matrix::values_type values;
  const_vector_view x;
  vector_view y;
  int rows = 0;
  int rows_per_team = 1;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int first = team.league_rank() * rows_per_team;
    const int count = rows - first < rows_per_team ? rows - first : rows_per_team;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](const int i) {
      const int row = first + i;
      const auto begin = row_map(row);
      const int len = static_cast<int>(row_map(row + 1) - begin);
      double sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, len),
          [&](const int k, double& s) { s += values(begin + k) * x(entries(begin + k)); }, sum);
      Kokkos::single(Kokkos::PerThread(team), [&]() { y(row) = sum; });
    });
  }
};

}  // namespace

void spmv_vector_mapping::apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) {
  const std::string label = "ppl::spmv[" + name_ + "]";
  Kokkos::Profiling::pushRegion(label);
  const int rows = A.numRows();
  const int tpr = m_.threads_per_row;
  const int rows_per_team = m_.rows_per_team > 0 ? m_.rows_per_team : vector_rows_per_team(tpr, !host_space);
  if (rows > 0) {
    space.visit([&](const auto& s) {
      using policy = Kokkos::TeamPolicy<std::decay_t<decltype(s)>>;
      const vector_kernel<typename policy::member_type> k{A.graph.row_map, A.graph.entries, A.values, x, y, rows,
                                                          rows_per_team};
      const int league = (rows + rows_per_team - 1) / rows_per_team;
      int team_size = 1;
      if (!host_space) {
        const int max_team = policy(s, league, 1, tpr).team_size_max(k, Kokkos::ParallelForTag());
        team_size = std::min(rows_per_team, max_team);
      }
      Kokkos::parallel_for(label, policy(s, league, team_size, tpr), k);
    });
  }
  Kokkos::Profiling::popRegion();
}

std::string spmv_vector_mapping::describe() const {
  return name_ + ", " + std::to_string(m_.threads_per_row) + " threads/row, " +
         (m_.rows_per_team > 0 ? std::to_string(m_.rows_per_team) : std::string("default")) + " rows/team";
}

// 256-thread teams on GPUs; 128-row chunks per host thread.
int vector_rows_per_team(int threads_per_row, bool gpu) {
  return gpu ? std::max(1, 256 / threads_per_row) : 128;
}

const parameter_fields<vector_spmv_params>& vector_spmv_params::fields() {
  static const auto f =
      parameter_fields<vector_spmv_params>()
          .integer_of("threads_per_row", &vector_spmv_params::threads_per_row, {1, 2, 4, 8, 16, 32},
                      "vector lanes per row (they stride over its nonzeros and reduce them)")
          .integer_or_auto("rows_per_team", &vector_spmv_params::rows_per_team, 1, 1024,
                           "rows per team; auto: 256 / threads_per_row on a GPU (256-thread teams), 128 on the host");
  return f;
}

std::unique_ptr<spmv_strategy> make_vector_spmv(const vector_spmv_params& p) {
  vector_spmv_params::fields().check(p);
  return std::make_unique<spmv_vector_mapping>("vector", vector_mapping{p.threads_per_row, p.rows_per_team});
}

}  // namespace ppl
