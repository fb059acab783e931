// MRC2014 / CCP4 writer (float32, little-endian). See include/ppl/io/mrc.hpp for the layout and its readers.
#include "ppl/io/mrc.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/io/atomic_file.hpp"

namespace ppl {
namespace {

// The 1024-byte header; words are numbered from 1 as in the MRC2014 description.
class mrc_header {
 public:
  void i32(int word, std::int32_t v) { u32(word, std::uint32_t(v)); }
  void f32(int word, float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    u32(word, u);
  }
  void bytes(std::size_t offset, const char* s, std::size_t n) { std::memcpy(b_.data() + offset, s, n); }
  const char* data() const { return reinterpret_cast<const char*>(b_.data()); }

 private:
  void u32(int word, std::uint32_t u) {
    for (int k = 0; k < 4; ++k) b_[std::size_t(word - 1) * 4 + std::size_t(k)] = (unsigned char)(u >> (8 * k));
  }
  std::array<unsigned char, mrc_header_bytes> b_{};
};

float as_float32(const std::string& path, const char* what, double v) {
  if (!std::isfinite(v) || std::abs(v) > double(std::numeric_limits<float>::max()))
    throw error(exit_code::failure, fmt::format("{}: MRC {} {} does not fit a float32", path, what, v));
  return float(v);
}

std::string printable_label(const std::string& s) {
  std::string out = s.substr(0, mrc_label_chars);
  for (char& c : out)
    if (c < 0x20 || c > 0x7e) c = '?';
  return out;
}

}  // namespace

void write_mrc(const std::string& path, const grid_geometry& g, const float* values,
               const std::vector<std::string>& labels) {
  for (int d = 0; d < 3; ++d) {
    // dims are ints: every one fits the header's int32 words (std::int32_t is int on every platform ppl builds on).
    if (g.dims[d] < 1)
      throw error(exit_code::failure, fmt::format("{}: MRC map dimension {} is {}", path, "xyz"[d], g.dims[d]));
    if (!(g.delta[d] > 0.0))
      throw error(exit_code::failure, fmt::format("{}: MRC map spacing along {} is {}", path, "xyz"[d], g.delta[d]));
  }
  static_assert(sizeof(int) <= sizeof(std::int32_t), "lattice dimensions must fit the MRC header's int32 words");

  // Statistics first (float64 sums; rms is the population standard deviation, as MRC2014 and mrcfile define it),
  // so a non-finite value stops the write before a temporary file exists.
  const std::size_t n = g.size();
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = values[i];
    if (!std::isfinite(v)) {
      const std::size_t nx = std::size_t(g.dims[0]), ny = std::size_t(g.dims[1]);
      throw error(exit_code::failure, fmt::format("{}: non-finite value at lattice point ({}, {}, {})", path, i % nx,
                                                  i / nx % ny, i / (nx * ny)));
    }
    lo = std::min(lo, v), hi = std::max(hi, v), sum += v;
  }
  const double mean = sum / double(n);
  double dev2 = 0;
  for (std::size_t i = 0; i < n; ++i) dev2 += (values[i] - mean) * (values[i] - mean);
  const double rms = std::sqrt(dev2 / double(n));

  mrc_header h;
  for (int d = 0; d < 3; ++d) {
    h.i32(1 + d, g.dims[d]);                                                         // nx ny nz
    h.i32(5 + d, 0);                                                                 // nxstart ...
    h.i32(8 + d, g.dims[d]);                                                         // mx my mz
    h.f32(11 + d, as_float32(path, "cell length", double(g.dims[d]) * g.delta[d]));  // cella
    h.f32(14 + d, 90.0f);                                                            // cellb
    h.i32(17 + d, 1 + d);                                                            // mapc mapr maps
    h.f32(50 + d, as_float32(path, "origin", g.origin[d]));                          // origin, A
  }
  h.i32(4, 2);  // mode 2: 32-bit float
  h.f32(20, float(lo));
  h.f32(21, float(hi));
  h.f32(22, float(mean));
  h.i32(23, 1);  // ispg 1: one volume
  h.i32(24, 0);  // nsymbt: no extended header (exttyp, word 27, stays empty)
  h.i32(28, 20140);
  h.bytes(52 * 4, "MAP ", 4);
  h.bytes(53 * 4, "\x44\x44\x00\x00", 4);  // little-endian floats and integers
  h.f32(55, float(rms));
  std::int32_t nlabl = 0;
  for (const auto& l : labels) {
    if (std::size_t(nlabl) == mrc_max_labels) break;
    auto text = printable_label(l);
    if (text.find_first_not_of(' ') == std::string::npos) continue;
    text.resize(mrc_label_chars, ' ');
    h.bytes(56 * 4 + std::size_t(nlabl) * mrc_label_chars, text.data(), mrc_label_chars);
    ++nlabl;
  }
  h.i32(56, nlabl);

  write_file_atomically(path, compression_for(path), [&](std::ostream& out) {
    out.write(h.data(), std::streamsize(mrc_header_bytes));
    // Little-endian bytes whatever the host order, in 256 KiB chunks.
    constexpr std::size_t chunk = 1 << 16;
    std::vector<unsigned char> buf(4 * chunk);
    for (std::size_t first = 0; first < n; first += chunk) {
      const std::size_t count = std::min(chunk, n - first);
      for (std::size_t i = 0; i < count; ++i) {
        std::uint32_t u;
        std::memcpy(&u, &values[first + i], 4);
        for (int k = 0; k < 4; ++k) buf[4 * i + std::size_t(k)] = (unsigned char)(u >> (8 * k));
      }
      out.write(reinterpret_cast<const char*>(buf.data()), std::streamsize(4 * count));
    }
  });
}

}  // namespace ppl
