// OpenDX writer (APBS layout) and reader. See include/ppl/io/opendx.hpp.
#include "ppl/io/opendx.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>

#include "ppl/core/error.hpp"
#include "ppl/io/atomic_file.hpp"

namespace ppl {

void write_opendx(const std::string& path, const grid_geometry& g, const float* values,
                  const std::vector<std::string>& comments) {
  const int nx = g.dims[0], ny = g.dims[1], nz = g.dims[2];
  write_file_atomically(path, compression_for(path), [&](std::ostream& out) {
    fmt::memory_buffer b;
    auto it = std::back_inserter(b);
    for (const auto& c : comments) fmt::format_to(it, "# {}\n", c);
    fmt::format_to(it, "object 1 class gridpositions counts {} {} {}\n", nx, ny, nz);
    fmt::format_to(it, "origin {:12.6e} {:12.6e} {:12.6e}\n", g.origin[0], g.origin[1], g.origin[2]);
    fmt::format_to(it, "delta {:12.6e} {:12.6e} {:12.6e}\n", g.delta[0], 0.0, 0.0);
    fmt::format_to(it, "delta {:12.6e} {:12.6e} {:12.6e}\n", 0.0, g.delta[1], 0.0);
    fmt::format_to(it, "delta {:12.6e} {:12.6e} {:12.6e}\n", 0.0, 0.0, g.delta[2]);
    fmt::format_to(it, "object 2 class gridconnections counts {} {} {}\n", nx, ny, nz);
    fmt::format_to(it, "object 3 class array type double rank 0 items {} data follows\n", g.size());
    // z fastest in the file, x fastest in memory.
    std::size_t on_line = 0;
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        for (int k = 0; k < nz; ++k) {
          const float v = values[(std::size_t(k) * ny + j) * nx + i];
          if (!std::isfinite(v))
            throw error(exit_code::failure,
                        fmt::format("{}: non-finite value at lattice point ({}, {}, {})", path, i, j, k));
          fmt::format_to(it, on_line == 0 ? "{:12.6e}" : " {:12.6e}", double(v));
          if (++on_line == 3) {
            b.push_back('\n');
            on_line = 0;
          }
          if (b.size() > (1 << 20)) {
            out.write(b.data(), std::streamsize(b.size()));
            b.clear();
          }
        }
    if (on_line != 0) b.push_back('\n');
    fmt::format_to(it, "attribute \"dep\" string \"positions\"\n");
    fmt::format_to(it, "object \"regular positions regular connections\" class field\n");
    fmt::format_to(it, "component \"positions\" value 1\n");
    fmt::format_to(it, "component \"connections\" value 2\n");
    fmt::format_to(it, "component \"data\" value 3\n");
    out.write(b.data(), std::streamsize(b.size()));
  });
}

namespace {

struct dx_reader {
  std::string path;
  std::ifstream in;
  std::size_t line_no = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw input_error(path + ":" + std::to_string(line_no) + ": " + what);
  }
  // Next line split into words, skipping blank and comment lines; false at end of file.
  bool next(std::vector<std::string>& words) {
    std::string line;
    while (std::getline(in, line)) {
      ++line_no;
      words.clear();
      std::istringstream ss(line);
      for (std::string w; ss >> w;) words.push_back(w);
      if (!words.empty() && words[0][0] != '#') return true;
    }
    return false;
  }
  double number(const std::string& s) const {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
      fail("not a finite number: '" + s + "'");
    return v;
  }
  long integer(const std::string& s) const {
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || end != s.c_str() + s.size() || v < 0) fail("not a count: '" + s + "'");
    return v;
  }
};

bool starts(const std::vector<std::string>& w, std::initializer_list<const char*> prefix) {
  std::size_t i = 0;
  for (const char* p : prefix) {
    if (i >= w.size() || w[i] != p) return false;
    ++i;
  }
  return true;
}

}  // namespace

opendx_grid read_opendx(const std::string& path) {
  dx_reader r{path, std::ifstream(path)};
  if (!r.in) throw input_error(path + ": cannot open OpenDX file");
  opendx_grid out;
  auto& g = out.geometry;
  std::vector<std::string> w;
  bool have_counts = false, have_origin = false;
  int deltas = 0;
  std::size_t items = 0;
  bool have_data = false;
  while (r.next(w)) {
    if (w[0] == "object" && w.size() >= 4 && w[2] == "class" && w[3] == "gridpositions") {
      if (w.size() != 8 || w[4] != "counts") r.fail("expected 'object 1 class gridpositions counts nx ny nz'");
      for (int d = 0; d < 3; ++d) g.dims[d] = int(r.integer(w[5 + d]));
      have_counts = true;
    } else if (w[0] == "origin") {
      if (w.size() != 4) r.fail("expected 'origin x y z'");
      for (int d = 0; d < 3; ++d) g.origin[d] = r.number(w[1 + d]);
      have_origin = true;
    } else if (w[0] == "delta") {
      if (w.size() != 4 || deltas >= 3) r.fail("expected three 'delta dx dy dz' lines");
      for (int d = 0; d < 3; ++d) {
        const double v = r.number(w[1 + d]);
        if (d == deltas)
          g.delta[d] = v;
        else if (v != 0.0)
          r.fail("only axis-aligned grids are supported (off-diagonal delta)");
      }
      ++deltas;
    } else if (w[0] == "object" && w.size() >= 4 && w[2] == "class" && w[3] == "array") {
      // object 3 class array type double rank 0 items N data follows  (type may be quoted)
      std::size_t k = 4;
      for (; k + 1 < w.size(); ++k)
        if (w[k] == "items") break;
      if (k + 1 >= w.size()) r.fail("array without 'items N'");
      items = std::size_t(r.integer(w[k + 1]));
      if (!have_counts || !have_origin || deltas != 3) r.fail("array before the grid positions header");
      if (items != g.size()) r.fail("items " + std::to_string(items) + " != nx*ny*nz = " + std::to_string(g.size()));
      std::vector<double> zfast;
      zfast.reserve(items);
      while (zfast.size() < items && r.next(w))
        for (const auto& s : w) {
          if (zfast.size() == items) r.fail("more values than items");
          zfast.push_back(r.number(s));
        }
      if (zfast.size() != items)
        r.fail("file ends after " + std::to_string(zfast.size()) + " of " + std::to_string(items) + " values");
      const int nx = g.dims[0], ny = g.dims[1], nz = g.dims[2];
      out.values.resize(items);
      std::size_t n = 0;
      for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j)
          for (int kk = 0; kk < nz; ++kk) out.values[(std::size_t(kk) * ny + j) * nx + i] = zfast[n++];
      have_data = true;
    } else if (starts(w, {"attribute"}) || starts(w, {"object"}) || starts(w, {"component"})) {
      continue;  // gridconnections, field and its components carry nothing we need
    } else {
      r.fail("unexpected line starting with '" + w[0] + "'");
    }
  }
  if (!have_data) throw input_error(path + ": no 'object ... class array ... data follows' section");
  return out;
}

}  // namespace ppl
