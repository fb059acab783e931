// Matrix Market files whose size line claims more than the file holds: the readers must report an input error
// naming file:line without sizing any buffer from the claim (once they reserved from it: std::bad_alloc, exit 1,
// or minutes of zero-filling), and sizes beyond the int indices are input errors too. Also the value edge cases:
// underflow, integer overflow, complex, trailing garbage.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "alloc_probe.hpp"
#include "ppl/core/error.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "support/ppl_test.hpp"

namespace ppl {
namespace {

// Reading a small file may take the reader's own buffers (a 256 KiB gzip chunk, lines up to 1 MiB), never more.
constexpr std::size_t small_file_budget = std::size_t(4) << 20;

struct claim {
  const char* name;
  bool vector;
  const char* text;
  int line;
  const char* says;
};

void PrintTo(const claim& c, std::ostream* os) {
  *os << c.name;
}

class oversized_claim : public ::testing::TestWithParam<claim> {};

TEST_P(oversized_claim, is_an_input_error_without_allocating_from_the_header) {
  const claim& c = GetParam();
  ppl_test::temp_dir d;
  const auto path = d.write(std::string(c.name) + ".mtx", c.text);
  std::string msg;
  const std::size_t largest = test::largest_allocation_during([&] {
    msg = ppl_test::error_of<input_error>([&] {
      if (c.vector)
        read_matrix_market_vector_host(path);
      else
        read_matrix_market_host(path);
    });
  });
  EXPECT_THAT(msg, ::testing::HasSubstr(path + ":" + std::to_string(c.line) + ": "));
  EXPECT_THAT(msg, ::testing::HasSubstr(c.says));
  if (test::allocation_probe_available) {
    EXPECT_LE(largest, small_file_budget) << "largest allocation while reading " << c.name;
  }
}

#define MM_GENERAL "%%MatrixMarket matrix coordinate real general\n"
const claim claims[] = {
    {"entries_1e10", false, MM_GENERAL "3 3 10000000000\n1 1 1\n", 3, "after 1 of the 10000000000 declared"},
    {"entries_2_62", false, MM_GENERAL "3 3 4611686018427387904\n1 1 1\n", 3, "after 1 of the 4611686018427387904"},
    {"entries_2_62_symmetric", false,
     "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 4611686018427387904\n2 1\n", 3, "after 1 of the"},
    {"entries_beyond_2_62", false, MM_GENERAL "3 3 4611686018427387905\n1 1 1\n", 2, "out of range"},
    {"rows_1e9", false, MM_GENERAL "1000000000 1000000000 1\n1 1 1\n", 2,
     "declares 1000000000 rows but the file holds 1 entries"},
    {"rows_int_max", false, MM_GENERAL "2147483647 3 1\n1 1 1\n", 2, "declares 2147483647 rows"},
    {"cols_int_max", false, MM_GENERAL "3 2147483647 1\n1 1 1\n", 2, "declares 2147483647 columns"},
    {"rows_int_max_symmetric", false,
     "%%MatrixMarket matrix coordinate real symmetric\n2147483647 2147483647 1\n2 1 1\n", 2,
     "declares 2147483647 rows but the file holds 2 entries"},
    {"rows_beyond_int", false, MM_GENERAL "2147483648 3 1\n1 1 1\n", 2, "out of range"},
    {"vector_1e9", true, "%%MatrixMarket matrix array real general\n1000000000 1\n1\n", 3,
     "after 1 of the 1000000000 declared values"},
    {"vector_int_max", true, "%%MatrixMarket matrix array real general\n2147483647 1\n1\n2\n", 4,
     "after 2 of the 2147483647"},
    {"vector_beyond_int", true, "%%MatrixMarket matrix array real general\n2147483648 1\n1\n", 2, "out of range"},
};
#undef MM_GENERAL

INSTANTIATE_TEST_SUITE_P(headers, oversized_claim, ::testing::ValuesIn(claims),
                         [](const ::testing::TestParamInfo<claim>& i) { return std::string(i.param.name); });

TEST(matrix_market_limits, empty_rows_up_to_the_allowance_are_read) {
  ppl_test::temp_dir d;
  // A 3 x 5 matrix with one entry: empty rows and columns are legal Matrix Market.
  const host_csr A = read_matrix_market_host(d.write("a.mtx",
                                                     "%%MatrixMarket matrix coordinate real general\n"
                                                     "3 5 1\n2 4 7\n"));
  EXPECT_EQ(A.rows, 3);
  EXPECT_EQ(A.cols, 5);
  EXPECT_EQ(A.row_map, (std::vector<std::int64_t>{0, 0, 1, 1}));
  const auto n = std::to_string(matrix_market_max_empty_rows + 1);
  const host_csr B = read_matrix_market_host(
      d.write("b.mtx", "%%MatrixMarket matrix coordinate real general\n" + n + " 1 1\n1 1 1\n"));
  EXPECT_EQ(B.row_map.size(), static_cast<std::size_t>(matrix_market_max_empty_rows) + 2);
}

TEST(matrix_market_limits, header_read_alone_reports_what_the_readers_check) {
  ppl_test::temp_dir d;
  const auto h = read_matrix_market_header(
      d.write("a.mtx", "%%MatrixMarket matrix coordinate Pattern Symmetric\n% c\n\n4 4 3\nnot read\n"),
      matrix_market_object::sparse_matrix);
  EXPECT_EQ(h.format, "coordinate");
  EXPECT_EQ(h.field, "pattern");
  EXPECT_EQ(h.symmetry, "symmetric");
  EXPECT_EQ(h.rows, 4);
  EXPECT_EQ(h.cols, 4);
  EXPECT_EQ(h.entries, 3);
  EXPECT_EQ(h.size_line, 4);
  const auto v = read_matrix_market_header(d.write("v.mtx", "%%MatrixMarket matrix array real general\n7 1\n"),
                                           matrix_market_object::vector);
  EXPECT_EQ(v.rows, 7);
  const std::string m = ppl_test::error_of<input_error>(
      [&] { read_matrix_market_header(d.file("v.mtx"), matrix_market_object::sparse_matrix); });
  EXPECT_NE(m.find("v.mtx:1: expected a 'coordinate'"), std::string::npos) << m;
}

// Values: an underflow reads as the nearest double (it was reported as "not a finite number"); an integer beyond
// 64 bits, a complex field and lines after the declared entries are errors that say so.
TEST(matrix_market_limits, value_edge_cases) {
  ppl_test::temp_dir d;
  const host_csr A = read_matrix_market_host(
      d.write("u.mtx", "%%MatrixMarket matrix coordinate real general\n1 2 2\n1 1 1e-400\n1 2 -4.9e-324\n"));
  EXPECT_EQ(A.values[0], 0.0);
  EXPECT_EQ(A.values[1], -4.9e-324);
  auto err = [&](const char* name, const std::string& text) {
    const auto p = d.write(name, text);
    return ppl_test::error_of<input_error>([&] { read_matrix_market_host(p); });
  };
  using ::testing::HasSubstr;
  EXPECT_THAT(err("i.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 99999999999999999999\n"),
              HasSubstr("i.mtx:3: value '99999999999999999999' is out of range"));
  EXPECT_THAT(err("c.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n"),
              HasSubstr("c.mtx:1: unsupported field 'complex': ppl solves real systems"));
  EXPECT_THAT(err("g.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n\n% ok\ntrailing garbage\n"),
              HasSubstr("g.mtx:6: more entries than the 1 the size line declares: 'trailing garbage'"));
}

// Duplicates are summed; each value is finite, but their sum may overflow: an input error at the line of the entry
// whose addition overflowed (comments and the mirror image of a symmetric file's entries counted right), not an Inf
// in A that the solve would report as diverged_nan.
TEST(matrix_market_limits, duplicates_summing_beyond_a_double_name_the_entry_that_overflowed) {
  ppl_test::temp_dir d;
  auto err = [&](const char* name, const std::string& text) {
    const auto p = d.write(name, text);
    return ppl_test::error_of<input_error>([&] { read_matrix_market_host(p); });
  };
  using ::testing::HasSubstr;
  EXPECT_THAT(err("g.mtx",
                  "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1e308\n2 2 1\n% note\n"
                  "2 1 1\n1 1 1e308\n"),
              HasSubstr("g.mtx:7: duplicate entries of (1, 1) sum to a value beyond the range of a double"));
  EXPECT_THAT(err("n.mtx",
                  "%%MatrixMarket matrix coordinate real general\n1 1 3\n1 1 -1e308\n1 1 -1e308\n"
                  "1 1 1e308\n"),
              HasSubstr("n.mtx:4: duplicate entries of (1, 1)"));
  // The entry at line 5 is stored twice ((2, 1) and its mirror (1, 2)); its duplicate at line 7 overflows (1, 2)
  // first in row order.
  EXPECT_THAT(err("s.mtx",
                  "%%MatrixMarket matrix coordinate real symmetric\n2 2 4\n1 1 1\n2 2 1\n2 1 1.5e308\n"
                  "% c\n2 1 1.5e308\n"),
              HasSubstr("s.mtx:7: duplicate entries of (1, 2)"));
  // Duplicates that cancel or stay in range are summed as before.
  const host_csr A = read_matrix_market_host(
      d.write("ok.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 3\n1 1 1e308\n1 1 -1e308\n1 1 5\n"));
  ASSERT_EQ(A.values.size(), 1u);
  EXPECT_EQ(A.values[0], 5.0);
}

}  // namespace
}  // namespace ppl
