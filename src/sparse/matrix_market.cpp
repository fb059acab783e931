// Matrix Market reader and writer. Ours rather than Kokkos Kernels 3.4's read_mtx, which reports no line numbers,
// ignores parse failures (a bad token becomes 0), keeps duplicates as separate entries, rejects `integer` files for
// double matrices, does not check indices or the entry count and drops diagonals unless told otherwise
// (docs/solver.md).
#include "ppl/sparse/matrix_market.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <numeric>
#include <ostream>
#include <sstream>

#include "ppl/core/error.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/io/text_reader.hpp"

namespace ppl {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> tokens(const std::string& line) {
  std::istringstream is(line);
  std::vector<std::string> out;
  for (std::string t; is >> t;) out.push_back(t);
  return out;
}

// Reads a file line by line (plain or gzip-compressed), skipping comments and blank lines after the header, and
// names "file:line" in errors.
class mm_lines {
 public:
  explicit mm_lines(const std::string& path) : in_(path, "the Matrix Market file") {}
  [[noreturn]] void fail(const std::string& what) const { in_.fail(what); }
  [[noreturn]] void fail_at(std::int64_t line, const std::string& what) const {
    throw input_error(in_.path() + ":" + std::to_string(line) + ": " + what);
  }
  std::int64_t line_number() const { return in_.line_number(); }
  bool raw(std::string& line) { return in_.next(line); }
  // The next line that is neither blank nor a comment.
  bool data(std::string& line) { return in_.next_data(line, '%'); }

 private:
  text_reader in_;
};

std::int64_t parse_index(mm_lines& f, const std::string& t, const char* what) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(t.c_str(), &end, 10);
  if (end == t.c_str() || *end != '\0' || errno == ERANGE) f.fail(std::string("bad ") + what + " '" + t + "'");
  return v;
}

double parse_value(mm_lines& f, const std::string& t, bool integer) {
  errno = 0;
  char* end = nullptr;
  double v = 0;
  if (integer) {
    const long long i = std::strtoll(t.c_str(), &end, 10);
    v = static_cast<double>(i);
  } else {
    v = std::strtod(t.c_str(), &end);
  }
  if (end == t.c_str() || *end != '\0')
    f.fail(std::string("bad ") + (integer ? "integer" : "real") + " value '" + t + "'");
  if (!std::isfinite(v)) f.fail("value '" + t + "' is not a finite number");
  // ERANGE also flags an underflow, whose result (0 or subnormal) is the nearest double and is kept.
  if (errno == ERANGE && std::fabs(v) >= 1.0) f.fail("value '" + t + "' is out of range");
  return v;
}

// Banner and size line, checked the same way for the cheap header read (ppl validate) and the full readers.
matrix_market_header read_header(mm_lines& f, matrix_market_object what) {
  std::string line;
  if (!f.raw(line)) f.fail("empty file, expected a '%%MatrixMarket matrix ...' header");
  const auto t = tokens(line);
  if (t.size() != 5 || t[0] != "%%MatrixMarket")
    f.fail("bad header '" + line + "', expected '%%MatrixMarket matrix <format> <field> <symmetry>'");
  matrix_market_header h;
  h.format = lower(t[2]);
  h.field = lower(t[3]);
  h.symmetry = lower(t[4]);
  if (lower(t[1]) != "matrix") f.fail("unsupported object '" + t[1] + "' (only 'matrix')");
  if (h.format != "coordinate" && h.format != "array") f.fail("unknown format '" + t[2] + "' (coordinate or array)");
  if (h.field == "complex") f.fail("unsupported field 'complex': ppl solves real systems (real, integer or pattern)");
  if (h.field == "double") h.field = "real";
  if (h.field != "real" && h.field != "integer" && h.field != "pattern")
    f.fail("unsupported field '" + t[3] + "' (real, integer or pattern)");
  if (h.symmetry != "general" && h.symmetry != "symmetric" && h.symmetry != "skew-symmetric")
    f.fail("unsupported symmetry '" + t[4] + "' (general, symmetric or skew-symmetric)");
  if (what == matrix_market_object::sparse_matrix) {
    if (h.format != "coordinate") f.fail("expected a 'coordinate' (sparse) matrix, got 'array' (a dense vector?)");
  } else {
    if (h.format != "array") f.fail("expected an 'array' (dense) vector, got 'coordinate'");
    if (h.field == "pattern") f.fail("an array cannot have the 'pattern' field");
    if (h.symmetry != "general") f.fail("a vector must be 'general'");
  }

  // "rows cols [entries]": rows and columns must fit the int indices. Nothing is allocated from these numbers;
  // 2^62 keeps the doubled entry count of a symmetric file within 64 bits.
  const std::size_t count = h.format == "coordinate" ? 3 : 2;
  if (!f.data(line)) f.fail("missing size line after the header");
  h.size_line = f.line_number();
  const auto s = tokens(line);
  if (s.size() != count)
    f.fail("bad size line '" + line + "', expected " + (count == 3 ? "'rows cols entries'" : "'rows cols'"));
  std::int64_t v[3] = {0, 0, 0};
  for (std::size_t i = 0; i < count; ++i) {
    v[i] = parse_index(f, s[i], "size");
    const std::int64_t hi = i < 2 ? std::numeric_limits<int>::max() : (std::int64_t(1) << 62);
    if (v[i] < 0 || v[i] > hi)
      f.fail("size '" + s[i] + "' out of range 0.." + std::to_string(hi) +
             (i < 2 ? " (rows and columns are 32-bit indices)" : ""));
  }
  h.rows = v[0];
  h.cols = v[1];
  h.entries = count == 3 ? v[2] : v[0] * v[1];
  if (h.symmetry != "general" && h.rows != h.cols) f.fail(h.symmetry + " matrix must be square");
  if (what == matrix_market_object::vector && h.cols != 1)
    f.fail("expected a vector (n x 1), got " + std::to_string(h.rows) + " x " + std::to_string(h.cols));
  return h;
}

// The line of the file that holds stored entry `entry` (0-based, in the order read; a symmetric file's mirror
// image of an off-diagonal entry is the entry after it), found by reading the file again: only for an error
// message, so the reader keeps no line number per entry.
std::int64_t line_of_entry(const std::string& path, std::size_t entry) {
  mm_lines f(path);
  const matrix_market_header h = read_header(f, matrix_market_object::sparse_matrix);
  const bool sym = h.symmetry != "general";
  std::string line;
  std::size_t stored = 0;
  while (f.data(line)) {
    const auto t = tokens(line);
    const bool mirrored =
        sym && t.size() >= 2 && std::strtoll(t[0].c_str(), nullptr, 10) != std::strtoll(t[1].c_str(), nullptr, 10);
    stored += mirrored ? 2 : 1;
    if (stored > entry) return f.line_number();
  }
  return f.line_number();
}

void fill_header(std::ostream& os, const char* kind, const std::string& comment) {
  os << "%%MatrixMarket matrix " << kind << " real general\n";
  std::istringstream is(comment);
  for (std::string l; std::getline(is, l);) os << "% " << l << '\n';
}

}  // namespace

matrix_market_header read_matrix_market_header(const std::string& path, matrix_market_object what) {
  mm_lines f(path);
  return read_header(f, what);
}

host_csr read_matrix_market_host(const std::string& path) {
  mm_lines f(path);
  const matrix_market_header h = read_header(f, matrix_market_object::sparse_matrix);
  const bool pattern = h.field == "pattern", integer = h.field == "integer";
  const bool sym = h.symmetry != "general", skew = h.symmetry == "skew-symmetric";
  const auto declared = static_cast<std::size_t>(h.entries);
  // Stored as read, never reserved from the size line: it may claim anything.
  std::vector<int> ri, ci;
  std::vector<double> vi;
  std::string line;
  std::size_t read = 0;
  while (f.data(line)) {
    if (read == declared)
      f.fail("more entries than the " + std::to_string(declared) + " the size line declares: '" + line + "'");
    const auto t = tokens(line);
    if (t.size() != (pattern ? 2u : 3u))
      f.fail("bad entry '" + line + "', expected " + (pattern ? "'row col'" : "'row col value'"));
    const auto i = parse_index(f, t[0], "row index"), j = parse_index(f, t[1], "column index");
    if (i < 1 || i > h.rows) f.fail("row index " + t[0] + " out of range 1.." + std::to_string(h.rows));
    if (j < 1 || j > h.cols) f.fail("column index " + t[1] + " out of range 1.." + std::to_string(h.cols));
    const double v = pattern ? 1.0 : parse_value(f, t[2], integer);
    if (sym && j > i)
      f.fail(h.symmetry + " file with an entry above the diagonal (row " + t[0] + ", column " + t[1] + ")");
    if (skew && i == j) f.fail("skew-symmetric file with a diagonal entry");
    ri.push_back(static_cast<int>(i - 1));
    ci.push_back(static_cast<int>(j - 1));
    vi.push_back(v);
    if (sym && i != j) {
      ri.push_back(static_cast<int>(j - 1));
      ci.push_back(static_cast<int>(i - 1));
      vi.push_back(skew ? -v : v);
    }
    ++read;
  }
  if (read != declared)
    f.fail("file ends after " + std::to_string(read) + " of the " + std::to_string(declared) + " declared entries");
  // The row offsets cost 8 bytes a row whether or not the row holds entries (and a transpose as much per column):
  // a size line claiming far more rows or columns than the file holds entries would allocate from the header.
  for (const auto& [n, what] : {std::pair{h.rows, "rows"}, std::pair{h.cols, "columns"}})
    if (n > static_cast<std::int64_t>(ri.size()) + matrix_market_max_empty_rows)
      f.fail_at(h.size_line, "the size line declares " + std::to_string(n) + " " + what + " but the file holds " +
                                 std::to_string(ri.size()) + " entries; at most " +
                                 std::to_string(matrix_market_max_empty_rows) + " " + what + " may be empty");

  // Counting sort by row, then by column within each row; duplicates summed.
  host_csr A;
  A.rows = static_cast<int>(h.rows);
  A.cols = static_cast<int>(h.cols);
  const auto rows = static_cast<std::size_t>(h.rows);
  std::vector<std::size_t> start(rows + 1, 0);
  for (int r : ri) ++start[static_cast<std::size_t>(r) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::size_t> order(ri.size());
  {
    auto next = start;
    for (std::size_t e = 0; e < ri.size(); ++e) order[next[ri[e]]++] = e;
  }
  A.row_map.reserve(rows + 1);
  A.row_map.assign(1, 0);
  A.entries.reserve(ri.size());
  A.values.reserve(ri.size());
  for (std::size_t r = 0; r < rows; ++r) {
    std::stable_sort(order.begin() + start[r], order.begin() + start[r + 1],
                     [&](std::size_t a, std::size_t b) { return ci[a] < ci[b]; });
    for (auto k = start[r]; k < start[r + 1]; ++k) {
      const std::size_t e = order[k];
      if (static_cast<std::int64_t>(A.entries.size()) > A.row_map.back() && A.entries.back() == ci[e]) {
        A.values.back() += vi[e];
        // Each value is finite, but a sum of duplicates may not be: Inf in A would end the solve as diverged_nan.
        if (!std::isfinite(A.values.back()))
          f.fail_at(line_of_entry(path, e), "duplicate entries of (" + std::to_string(r + 1) + ", " +
                                                std::to_string(ci[e] + 1) +
                                                ") sum to a value beyond the range of a double (duplicates are "
                                                "added); this entry makes the sum overflow");
      } else {
        A.entries.push_back(ci[e]);
        A.values.push_back(vi[e]);
      }
    }
    A.row_map.push_back(static_cast<std::int64_t>(A.entries.size()));
  }
  return A;
}

crs_matrix read_matrix_market(const std::string& path) {
  return to_device(read_matrix_market_host(path), path);
}

std::vector<double> read_matrix_market_vector_host(const std::string& path) {
  mm_lines f(path);
  const matrix_market_header h = read_header(f, matrix_market_object::vector);
  std::vector<double> x;  // grows as values are read: the size line is checked against them, not trusted
  std::string line;
  while (f.data(line)) {
    if (static_cast<std::int64_t>(x.size()) == h.rows)
      f.fail("more values than the " + std::to_string(h.rows) + " the size line declares: '" + line + "'");
    const auto t = tokens(line);
    if (t.size() != 1) f.fail("bad value line '" + line + "', expected one number");
    x.push_back(parse_value(f, t[0], h.field == "integer"));
  }
  if (static_cast<std::int64_t>(x.size()) != h.rows)
    f.fail("file ends after " + std::to_string(x.size()) + " of the " + std::to_string(h.rows) + " declared values");
  return x;
}

vector_view read_matrix_market_vector(const std::string& path) {
  return to_device(read_matrix_market_vector_host(path), path);
}

void write_matrix_market(const std::string& path, const host_csr& A, const std::string& comment) {
  write_file_atomically(path, [&](std::ostream& os) {
    fill_header(os, "coordinate", comment);
    os << A.rows << ' ' << A.cols << ' ' << A.values.size() << '\n';
    char buf[96];
    for (int r = 0; r < A.rows; ++r)
      for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j) {
        const int n = std::snprintf(buf, sizeof buf, "%d %d %.17g\n", r + 1, A.entries[j] + 1, A.values[j]);
        os.write(buf, n);
      }
  });
}

void write_matrix_market(const std::string& path, const crs_matrix& A, const std::string& comment) {
  write_matrix_market(path, to_host(A), comment);
}

void write_matrix_market_vector(const std::string& path, const std::vector<double>& x, const std::string& comment) {
  write_file_atomically(path, [&](std::ostream& os) {
    fill_header(os, "array", comment);
    os << x.size() << " 1\n";
    char buf[48];
    for (double v : x) {
      const int n = std::snprintf(buf, sizeof buf, "%.17g\n", v);
      os.write(buf, n);
    }
  });
}

void write_matrix_market_vector(const std::string& path, const_vector_view x, const std::string& comment) {
  write_matrix_market_vector(path, to_host(x), comment);
}

}  // namespace ppl
