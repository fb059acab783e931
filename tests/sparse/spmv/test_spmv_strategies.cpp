// Every registered SpMV strategy (and every threads_per_row of the vector mappings) against the float64 host loop:
// random CSR matrices with rows of 0, 1, 31, 33 and 1000 nonzeros, the generated 27- and 81-per-row matrices and
// the shared Matrix Market files, for y = A x and y = A^T x, on every execution space the strategy declares
// (execution::all() for the `every_space` capability: the default space and, in host builds, Serial). A new strategy
// in the registry is tested here with no edit.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "host_reference.hpp"
#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "ppl/sparse/spmv_strategies.hpp"
#include "ppl/sparse/spmv_strategy.hpp"
#include "support/ppl_test.hpp"

namespace ppl {
namespace {

struct spmv_case {
  std::string name;
  parameter_values params;  // the strategy's parameters by name ({} = defaults)
  std::string label;
};

std::vector<spmv_case> all_cases() {
  std::vector<spmv_case> out;
  for (const auto& name : spmv_strategies().names()) {
    out.push_back({name, {}, name});
    if (name == "vector" || name == "vector_cuda")
      for (int t : {1, 2, 4, 8, 16, 32}) {
        out.push_back({name, {{"threads_per_row", t}}, name + "_t" + std::to_string(t)});
        // A team that does not divide the rows evenly, and one row per team.
        if (name == "vector" && t == 4)
          out.push_back({name, {{"threads_per_row", 4}, {"rows_per_team", 7}}, name + "_t4_r7"});
        if (name == "vector" && t == 32)
          out.push_back({name, {{"threads_per_row", 32}, {"rows_per_team", 1}}, name + "_t32_r1"});
      }
    // CSR-Stream: one row per team (32 lanes), 8 (32 lanes), 64 (4 lanes), 256 (1 lane per row); teams whose rows
    // overflow the scratch capacity (the 1000-nonzero row) take the fallback path.
    if (name == "stream")
      for (int r : {1, 8, 64, 256}) out.push_back({name, {{"rows_per_team", r}}, name + "_r" + std::to_string(r)});
    if (name == "stream_cuda")  // 32 lanes per row, 4 and 2; the 1000-nonzero row overflows the shared capacity
      for (int r : {8, 64, 128}) out.push_back({name, {{"rows_per_team", r}}, name + "_r" + std::to_string(r)});
  }
  return out;
}

std::vector<double> nan_vector(std::size_t n) {
  return std::vector<double>(n, std::numeric_limits<double>::quiet_NaN());
}

class spmv_strategy_test : public ::testing::TestWithParam<spmv_case> {
 protected:
  std::unique_ptr<spmv_strategy> make() const { return make_spmv_strategy(GetParam().name, GetParam().params); }
  // The spaces the strategy runs on: every space of the build with the `every_space` capability, else the default.
  std::vector<execution> spaces() const {
    if (spmv_strategies().find(GetParam().name)->can(spmv_every_space)) return execution::all();
    return {execution()};
  }

  // y = A x and y = A^T x with a fresh random x on every space the strategy runs on, each against the host loop.
  void check(const host_csr& h, std::uint64_t seed, bool transpose = true) {
    for (const auto& space : spaces()) {
      auto s = make();
      const crs_matrix A = to_device(h);
      s->prepare(A);
      const auto x = test::random_vector(h.cols, seed);
      vector_view y = to_device(nan_vector(h.rows));
      s->apply(space, A, to_device(x), y);
      space.fence();
      EXPECT_EQ(test::compare_rows(to_host(y), test::host_spmv(h, x)), "") << s->describe() << " on " << space.name();
      if (!transpose) continue;
      const auto xt = test::random_vector(h.rows, seed + 1);
      vector_view yt = to_device(nan_vector(h.cols));
      s->apply_transpose(space, A, to_device(xt), yt);
      space.fence();
      EXPECT_EQ(test::compare_rows(to_host(yt), test::host_spmv_transpose(h, xt)), "")
          << s->describe() << " (A^T) on " << space.name();
    }
  }
};

TEST_P(spmv_strategy_test, random_rows_with_edge_case_lengths) {
  check(test::random_csr(test::edge_case_row_lengths(600, 11), 1500, 12), 13);
}

TEST_P(spmv_strategy_test, rectangular_and_many_empty_rows) {
  std::vector<int> lengths(300, 0);
  for (std::size_t i = 0; i < lengths.size(); i += 7) lengths[i] = 1 + static_cast<int>(i % 40);
  check(test::random_csr(lengths, 90, 21), 22);
  check(test::random_csr(test::edge_case_row_lengths(50, 23), 2100, 24), 25);  // more columns than rows
}

TEST_P(spmv_strategy_test, empty_matrix) {
  check(test::random_csr({}, 5, 31), 32);
  check(test::random_csr({0, 0, 0}, 4, 33), 34);
}

TEST_P(spmv_strategy_test, generated_27_and_81_per_row) {
  for (int comps : {1, 3}) {
    convection_diffusion_params p;
    p.n = 9;
    p.components = comps;
    p.peclet = 2.0;
    check(to_host(make_convection_diffusion_matrix(p)), 40 + comps);
  }
}

TEST_P(spmv_strategy_test, shared_matrix_market_files) {
  for (const char* f : {"2dcyl1.mtx", "ani4.mtx", "ani1_nonsymm.mtx"})
    check(read_matrix_market_host(ppl_test::data_path(std::string("matrices/") + f + ".gz")), 50);
}

// The transpose is cached per matrix: a second matrix must not reuse the first one's transpose.
TEST_P(spmv_strategy_test, transpose_cache_follows_the_matrix) {
  auto s = make();
  const host_csr h1 = test::random_csr(test::edge_case_row_lengths(40, 61), 1200, 62);
  const host_csr h2 = test::random_csr(test::edge_case_row_lengths(40, 63), 1200, 64);
  const crs_matrix A1 = to_device(h1), A2 = to_device(h2);
  for (const auto* h : {&h1, &h2, &h1}) {
    const crs_matrix& A = h == &h2 ? A2 : A1;
    s->prepare(A);
    const auto x = test::random_vector(h->rows, 65);
    vector_view y = to_device(nan_vector(h->cols));
    s->apply_transpose(execution(), A, to_device(x), y);
    Kokkos::fence();
    EXPECT_EQ(test::compare_rows(to_host(y), test::host_spmv_transpose(*h, x)), "");
  }
}

INSTANTIATE_TEST_SUITE_P(registry, spmv_strategy_test, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<spmv_case>& i) { return i.param.label; });

// The check above can fail: one wrong column index in a 1000-nonzero row is far outside the tolerance.
TEST(spmv_reference, tolerance_detects_a_wrong_index) {
  host_csr h = test::random_csr({1000, 31}, 1500, 71);
  const auto x = test::random_vector(h.cols, 72);
  const auto ref = test::host_spmv(h, x);
  h.entries[500] = (h.entries[500] + 1) % h.cols;
  EXPECT_NE(test::compare_rows(test::host_spmv(h, x).y, ref), "");
}

// A strategy without the `every_space` capability refuses another space (ppl::error) instead of running elsewhere.
TEST_P(spmv_strategy_test, runs_on_every_space_it_declares_and_refuses_the_others) {
  const host_csr h = test::random_csr(test::edge_case_row_lengths(50, 81), 1100, 82);
  const crs_matrix A = to_device(h);
  auto s = make();
  s->prepare(A);
  vector_view x = to_device(test::random_vector(h.cols, 83)), y("y", h.rows);
  const bool every = spmv_strategies().find(GetParam().name)->can(spmv_every_space);
  for (const auto& space : execution::all()) {
    if (!space.is_default() && !every) {
      EXPECT_THROW(s->apply(space, A, x, y), error) << space.name();
    }
  }
}

TEST(spmv_registry, unknown_names_and_bad_parameters_are_input_errors) {
  EXPECT_THROW(make_spmv_strategy("no_such_strategy"), input_error);
  EXPECT_THROW(make_spmv_strategy("scalar", {{"threads_per_row", 4}}), input_error);  // scalar has no parameters
  if (spmv_strategies().find("vector") != nullptr) {
    EXPECT_THROW(make_spmv_strategy("vector", {{"threads_per_row", 3}}), input_error);
    EXPECT_THROW(make_spmv_strategy("vector", {{"threads_per_row", 64}}), input_error);
    EXPECT_THROW(make_spmv_strategy("vector", {{"rows_per_team", -1}}), input_error);
    EXPECT_THROW(make_spmv_strategy("vector", {{"threads_per_row", 2.5}}), input_error);  // not an integer
    vector_spmv_params p;
    p.threads_per_row = 3;
    EXPECT_THROW(make_vector_spmv(p), parameter_error);  // the typed factory checks the struct too
  }
  EXPECT_THROW(make_spmv_strategy("stream", {{"rows_per_team", 48}}), input_error);      // not a power of two
  EXPECT_THROW(make_spmv_strategy("stream", {{"threads_per_row", 8}}), input_error);     // stream has no such key
  EXPECT_THROW(make_spmv_strategy("scalar_avx2", {{"rows_per_team", 8}}), input_error);  // no parameters
  const auto msg = ppl_test::error_of<parameter_error>([] { make_spmv_strategy("vector", {{"threads_per_row", 3}}); });
  EXPECT_EQ(msg, "'threads_per_row' = 3 is not one of 1, 2, 4, 8, 16, 32");
#if defined(PPL_HAS_X86_SIMD)
  EXPECT_EQ(spmv_strategies().find("scalar_avx2") != nullptr,
            __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
#else
  EXPECT_EQ(spmv_strategies().find("scalar_avx2"), nullptr);
#endif
#if !defined(KOKKOS_ENABLE_CUDA)
  EXPECT_EQ(spmv_strategies().find("vector_cuda"), nullptr);
  EXPECT_EQ(spmv_strategies().find("stream_cuda"), nullptr);
#else
  EXPECT_THROW(make_spmv_strategy("stream_cuda", {{"rows_per_team", 4}}), input_error);    // fewer than 8
  EXPECT_THROW(make_spmv_strategy("stream_cuda", {{"rows_per_team", 48}}), input_error);   // not a power of two
  EXPECT_THROW(make_spmv_strategy("stream_cuda", {{"rows_per_team", 256}}), input_error);  // one lane per row
  EXPECT_THROW(make_spmv_strategy("vector_cuda", {{"rows_per_team", 8}}), input_error);    // one row per lane group
#endif
}

}  // namespace
}  // namespace ppl
