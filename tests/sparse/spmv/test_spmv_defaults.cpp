// The documented defaults of the SpMV strategies (docs/solver.md, "SpMV strategies"): the functions that choose
// them, at the documented points and at the boundaries of each rule, and the strategies reporting what they chose.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/spmv_defaults.hpp"
#include "ppl/sparse/spmv_strategies.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl {
namespace {

TEST(spmv_defaults, auto_threads_per_row_is_the_nearest_power_of_two_to_half_the_row_length) {
  // Documented: 27 per row -> 16, 81 -> 32; clamped to [2, 32].
  EXPECT_EQ(auto_threads_per_row(27), 16);
  EXPECT_EQ(auto_threads_per_row(81), 32);
  EXPECT_EQ(auto_threads_per_row(0), 2);
  EXPECT_EQ(auto_threads_per_row(1), 2);
  EXPECT_EQ(auto_threads_per_row(7), 4);
  EXPECT_EQ(auto_threads_per_row(1000), 32);
  // Nearest in log2: mean / 2 = 2^3.5 (mean 22.63) separates 8 from 16, 2^4.5 (45.25) 16 from 32.
  EXPECT_EQ(auto_threads_per_row(22.6), 8);
  EXPECT_EQ(auto_threads_per_row(22.7), 16);
  EXPECT_EQ(auto_threads_per_row(45.2), 16);
  EXPECT_EQ(auto_threads_per_row(45.3), 32);
}

TEST(spmv_defaults, cuda_threads_per_row_is_the_largest_power_of_two_up_to_a_third_of_the_row_length) {
  // Documented: 27 per row -> 8, 81 -> 16; in [1, 32].
  EXPECT_EQ(cuda_threads_per_row(27), 8);
  EXPECT_EQ(cuda_threads_per_row(81), 16);
  EXPECT_EQ(cuda_threads_per_row(0), 1);
  EXPECT_EQ(cuda_threads_per_row(5.9), 1);
  EXPECT_EQ(cuda_threads_per_row(6), 2);
  EXPECT_EQ(cuda_threads_per_row(47.9), 8);
  EXPECT_EQ(cuda_threads_per_row(48), 16);
  EXPECT_EQ(cuda_threads_per_row(96), 32);
  EXPECT_EQ(cuda_threads_per_row(5000), 32);
}

TEST(spmv_defaults, vector_teams_hold_256_threads_on_gpus_and_128_rows_on_the_host) {
  EXPECT_EQ(vector_default_threads_per_row, 8);
  for (int tpr : {1, 2, 4, 8, 16, 32}) {
    EXPECT_EQ(vector_rows_per_team(tpr, true) * tpr, 256) << tpr;
    EXPECT_EQ(vector_rows_per_team(tpr, false), 128) << tpr;
  }
}

TEST(spmv_defaults, stream_rows_per_team_keeps_a_teams_products_within_2048) {
  // Documented: 27 per row -> 64, 81 -> 16; a power of two in [8, 128]; 256 on the host.
  EXPECT_EQ(stream_rows_per_team(27, true), 64);
  EXPECT_EQ(stream_rows_per_team(81, true), 16);
  EXPECT_EQ(stream_rows_per_team(16, true), 128);  // 128 x 16 = 2048 exactly
  EXPECT_EQ(stream_rows_per_team(16.1, true), 64);
  EXPECT_EQ(stream_rows_per_team(1, true), 128);
  EXPECT_EQ(stream_rows_per_team(300, true), 8);  // even 8 rows exceed 2048: the smallest team
  EXPECT_EQ(stream_rows_per_team(27, false), 256);
}

TEST(spmv_defaults, cuda_auto_takes_stream_cuda_where_it_was_measured_fastest) {
  EXPECT_TRUE(cuda_prefers_stream(27));  // both Kokkos versions (H200)
#if KOKKOS_VERSION >= 40000
  EXPECT_TRUE(cuda_prefers_stream(46.9));
  EXPECT_FALSE(cuda_prefers_stream(47));  // the geometric mean of the two measured row lengths
  EXPECT_FALSE(cuda_prefers_stream(81));  // vector_cuda [16] the faster with Kokkos 4.6
#else
  EXPECT_TRUE(cuda_prefers_stream(81));  // stream_cuda the faster with Kokkos 3.4
#endif
}

// The declared defaults are the parameter structs' (one source), and say "auto" where the rules above decide.
TEST(spmv_defaults, declared_defaults_are_the_structs_and_the_rules) {
  EXPECT_EQ(vector_spmv_params{}.threads_per_row, vector_default_threads_per_row);
  auto default_of = [](const std::string& strategy, const std::string& parameter) {
    for (const auto& p : spmv_strategies().lookup(strategy)->parameters)
      if (p.name == parameter) return p.default_text;
    return std::string("(not declared)");
  };
  EXPECT_EQ(default_of("vector", "threads_per_row"), "8");
  EXPECT_EQ(default_of("vector", "rows_per_team"), "auto");
  EXPECT_EQ(default_of("auto", "rows_per_team"), "auto");
  EXPECT_EQ(default_of("stream", "rows_per_team"), "auto");
  EXPECT_EQ(default_of("vector_cuda", "threads_per_row"), "auto");
  EXPECT_EQ(default_of("stream_cuda", "rows_per_team"), "auto");
  EXPECT_TRUE(spmv_strategies().lookup("scalar")->parameters.empty());
  EXPECT_TRUE(spmv_strategies().lookup("kokkos_kernels")->parameters.empty());
}

TEST(spmv_defaults, strategies_report_the_defaults_they_chose) {
  EXPECT_EQ(make_spmv_strategy("vector")->describe(), "vector, 8 threads/row, default rows/team");
  const auto A = make_convection_diffusion_matrix({12, 1, 1.0, 1.0});
  const double mean = static_cast<double>(A.nnz()) / A.numRows();  // 22.4: the rule gives 8
  auto a = make_spmv_strategy("auto");
  a->prepare(A);
  EXPECT_EQ(auto_threads_per_row(mean), 8);
  // The fastest strategy of the build: stream_cuda on a CUDA build; on a host build scalar_avx2 where the CPU has
  // AVX2 and FMA, else scalar.
  if (std::is_same<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>::value) {
    if (spmv_strategies().find("scalar_avx2") != nullptr)
      EXPECT_EQ(a->describe(),
                "auto: scalar_avx2, 1 thread/row, 4-lane AVX2 gathers + FMA (host build on an x86-64 CPU with AVX2 and "
                "FMA: the fastest mapping on the CPU)");
    else
      EXPECT_EQ(a->describe(),
                "auto: scalar, 1 thread/row (host build: one thread per row is the fastest portable mapping on the "
                "CPU)");
  } else {
    EXPECT_EQ(a->describe().rfind("auto: stream_cuda", 0), 0u) << a->describe();
  }
}

}  // namespace
}  // namespace ppl
