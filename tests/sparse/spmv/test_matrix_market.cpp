// Matrix Market reader and writer: the shared files (sizes from data/README.md, entries spot-checked
// against the raw text), symmetric expansion, pattern/integer fields, duplicates, round trips, and malformed files
// whose errors must name file:line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "host_reference.hpp"
#include "ppl/core/error.hpp"
#include "ppl/io/text_reader.hpp"
#include "support/ppl_test.hpp"
#include "ppl/sparse/matrix_market.hpp"

namespace ppl {
namespace {

namespace fs = std::filesystem;

std::string shared(const std::string& f) {
  return ppl_test::data_path("matrices/" + f + ".gz");
}

using ppl_test::temp_dir;

double entry(const host_csr& A, int r, int c) {
  for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j)
    if (A.entries[j] == c) return A.values[j];
  return 0.0;
}

// Reads the raw file independently (no comments, no symmetric files here): sum of duplicates per (row, col).
std::map<std::pair<int, int>, double> raw_entries(const std::string& path) {
  std::istringstream in(ppl_test::read_file(path));
  std::string line;
  bool size_seen = false;
  std::map<std::pair<int, int>, double> m;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '%') continue;
    std::istringstream is(line);
    if (!size_seen) {
      size_seen = true;
      continue;
    }
    int i, j;
    double v;
    is >> i >> j >> v;
    m[{i - 1, j - 1}] += v;
  }
  return m;
}

TEST(matrix_market, shared_files_match_the_readme_and_the_raw_text) {
  struct expect {
    const char* file;
    int rows;
    std::size_t nnz;
  };
  for (const expect& e :
       {expect{"2dcyl1.mtx", 1784, 34656}, expect{"ani4.mtx", 3081, 20971}, expect{"ani1_nonsymm.mtx", 36, 238}}) {
    const host_csr A = read_matrix_market_host(shared(e.file));
    EXPECT_EQ(A.rows, e.rows) << e.file;
    EXPECT_EQ(A.cols, e.rows) << e.file;
    EXPECT_EQ(A.values.size(), e.nnz) << e.file;
    const auto raw = raw_entries(shared(e.file));
    EXPECT_EQ(raw.size(), A.values.size()) << e.file;
    for (const auto& kv : raw) ASSERT_EQ(entry(A, kv.first.first, kv.first.second), kv.second) << e.file;
    for (int r = 0; r < A.rows; ++r)
      for (auto j = A.row_map[r] + 1; j < A.row_map[r + 1]; ++j) ASSERT_LT(A.entries[j - 1], A.entries[j]);
  }
}

TEST(matrix_market, symmetric_pattern_integer_duplicates_and_comments) {
  temp_dir d;
  const host_csr s = read_matrix_market_host(d.write("s.mtx",
                                                     "%%MatrixMarket matrix coordinate real symmetric\n"
                                                     "% a comment\n\n"
                                                     "3 3 4\n1 1 2.5\n3 1 -1\n% between entries\n2 2 4\n3 1 0.5\n"));
  EXPECT_EQ(s.values.size(), 4u);  // (0,0) (1,1) (0,2) (2,0): the duplicate (3,1) summed, then mirrored
  EXPECT_EQ(entry(s, 0, 0), 2.5);
  EXPECT_EQ(entry(s, 2, 0), -0.5);
  EXPECT_EQ(entry(s, 0, 2), -0.5);
  EXPECT_EQ(entry(s, 1, 1), 4.0);
  const host_csr p = read_matrix_market_host(
      d.write("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 3 3\n1 3\n2 1\n1 1\n"));
  EXPECT_EQ(p.rows, 2);
  EXPECT_EQ(p.cols, 3);
  EXPECT_EQ(entry(p, 0, 2), 1.0);
  EXPECT_EQ(entry(p, 0, 0), 1.0);
  EXPECT_EQ(p.entries[0], 0);  // sorted within the row
  const host_csr i = read_matrix_market_host(
      d.write("i.mtx", "%%MatrixMarket matrix coordinate integer general\r\n2 2 2\r\n1 2 -7\r\n2 1 3\r\n"));
  EXPECT_EQ(entry(i, 0, 1), -7.0);
  EXPECT_EQ(entry(i, 1, 0), 3.0);
  const host_csr k = read_matrix_market_host(
      d.write("k.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1.5\n"));
  EXPECT_EQ(entry(k, 1, 0), 1.5);
  EXPECT_EQ(entry(k, 0, 1), -1.5);
}

TEST(matrix_market, round_trip_is_exact) {
  temp_dir d;
  const host_csr A = test::random_csr(test::edge_case_row_lengths(200, 5), 1100, 6);
  write_matrix_market(d.file("a.mtx"), A, "random test matrix\nsecond comment line");
  const host_csr B = read_matrix_market_host(d.file("a.mtx"));
  EXPECT_EQ(B.rows, A.rows);
  EXPECT_EQ(B.cols, A.cols);
  EXPECT_EQ(B.row_map, A.row_map);
  EXPECT_EQ(B.entries, A.entries);
  EXPECT_EQ(B.values, A.values);  // 17 significant digits: bit-exact
  // Through the device as well.
  write_matrix_market(d.file("b.mtx"), to_device(A));
  EXPECT_EQ(read_matrix_market_host(d.file("b.mtx")).values, A.values);

  const auto x = test::random_vector(777, 8);
  write_matrix_market_vector(d.file("x.mtx"), x, "rhs");
  EXPECT_EQ(read_matrix_market_vector_host(d.file("x.mtx")), x);
  write_matrix_market_vector(d.file("y.mtx"), const_vector_view(to_device(x)));
  EXPECT_EQ(to_host(const_vector_view(read_matrix_market_vector(d.file("y.mtx")))), x);
}

// Each malformed file must fail with an input_error naming "path:line" and saying what is wrong.
struct bad_file {
  const char* name;
  const char* text;
  int line;
  const char* says;
};

class malformed_matrix : public ::testing::TestWithParam<bad_file> {};

TEST_P(malformed_matrix, error_names_file_and_line) {
  temp_dir d;
  const auto path = d.write(std::string(GetParam().name) + ".mtx", GetParam().text);
  try {
    read_matrix_market_host(path);
    FAIL() << "no error for " << GetParam().name;
  } catch (const input_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path + ":" + std::to_string(GetParam().line) + ":"), std::string::npos) << msg;
    EXPECT_NE(msg.find(GetParam().says), std::string::npos) << msg;
  }
}

const bad_file bad_matrices[] = {
    {"empty", "", 1, "empty file"},
    {"no_banner", "3 3 1\n1 1 1\n", 1, "bad header"},
    {"complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1, "unsupported field"},
    {"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", 1, "unsupported symmetry"},
    {"array_as_matrix", "%%MatrixMarket matrix array real general\n2 1\n1\n2\n", 1, "expected a 'coordinate'"},
    {"no_size", "%%MatrixMarket matrix coordinate real general\n% only a comment\n", 2, "missing size line"},
    {"bad_size", "%%MatrixMarket matrix coordinate real general\n3 x 1\n1 1 1\n", 2, "bad size"},
    {"short_size", "%%MatrixMarket matrix coordinate real general\n3 3\n1 1 1\n", 2, "bad size line"},
    {"negative_size", "%%MatrixMarket matrix coordinate real general\n-3 3 1\n1 1 1\n", 2, "out of range"},
    {"bad_value", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2 1.5x\n", 4, "bad real value"},
    {"missing_value", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n% c\n2 2\n", 5, "bad entry"},
    {"extra_token", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1 7\n", 3, "bad entry"},
    {"nan", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2 nan\n", 4, "not a finite number"},
    {"inf", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 -inf\n", 3, "not a finite number"},
    {"row_zero", "%%MatrixMarket matrix coordinate real general\n3 3 1\n0 1 1\n", 3, "row index 0 out of range"},
    {"col_too_big", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 4 1\n", 4, "column index 4 out"},
    {"integer_with_decimals", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", 3, "bad integer"},
    {"too_few", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 1\n", 4, "after 2 of the 3"},
    {"too_many", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n2 2 1\n", 4, "more entries"},
    {"upper_in_symmetric", "%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n", 3, "above the diagonal"},
    {"nonsquare_symmetric", "%%MatrixMarket matrix coordinate real symmetric\n3 2 1\n1 1 1\n", 2, "must be square"},
};

INSTANTIATE_TEST_SUITE_P(files, malformed_matrix, ::testing::ValuesIn(bad_matrices),
                         [](const ::testing::TestParamInfo<bad_file>& i) { return std::string(i.param.name); });

class malformed_vector : public malformed_matrix {};

TEST_P(malformed_vector, error_names_file_and_line) {
  temp_dir d;
  const auto path = d.write(std::string(GetParam().name) + ".mtx", GetParam().text);
  try {
    read_matrix_market_vector_host(path);
    FAIL() << "no error for " << GetParam().name;
  } catch (const input_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path + ":" + std::to_string(GetParam().line) + ":"), std::string::npos) << msg;
    EXPECT_NE(msg.find(GetParam().says), std::string::npos) << msg;
  }
}

const bad_file bad_vectors[] = {
    {"coordinate", "%%MatrixMarket matrix coordinate real general\n2 1 1\n1 1 1\n", 1, "expected an 'array'"},
    {"two_columns", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 2, "expected a vector"},
    {"short", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n", 4, "after 2 of the 3"},
    {"long", "%%MatrixMarket matrix array real general\n2 1\n1\n2\n3\n", 5, "more values"},
    {"nan", "%%MatrixMarket matrix array real general\n2 1\n1\nNaN\n", 4, "not a finite number"},
    {"two_per_line", "%%MatrixMarket matrix array real general\n2 1\n1 2\n", 3, "expected one number"},
};

INSTANTIATE_TEST_SUITE_P(files, malformed_vector, ::testing::ValuesIn(bad_vectors),
                         [](const ::testing::TestParamInfo<bad_file>& i) { return std::string(i.param.name); });

TEST(matrix_market, missing_file_and_unwritable_output) {
  EXPECT_THROW(read_matrix_market_host("/nonexistent/dir/a.mtx"), input_error);
  EXPECT_THROW(write_matrix_market_vector("/nonexistent/dir/x.mtx", std::vector<double>{1.0}), error);
}

}  // namespace
}  // namespace ppl
