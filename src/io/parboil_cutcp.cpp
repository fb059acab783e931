// Parboil cutcp's output file (include/ppl/io/parboil_cutcp.hpp).
#include "ppl/io/parboil_cutcp.hpp"

#include <cmath>
#include <cstring>
#include <ostream>

#include "ppl/core/error.hpp"
#include "ppl/io/atomic_file.hpp"

namespace ppl {
namespace {

void put_u32(std::vector<unsigned char>& b, std::uint32_t u) {
  for (int k = 0; k < 4; ++k) b.push_back((unsigned char)(u >> (8 * k)));
}
void put_f32(std::vector<unsigned char>& b, float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, 4);
  put_u32(b, u);
}
std::uint32_t get_u32(const std::string& s, std::size_t at) {
  std::uint32_t u = 0;
  for (std::size_t k = 0; k < 4; ++k) u |= std::uint32_t((unsigned char)s[at + k]) << (8 * k);
  return u;
}
float get_f32(const std::string& s, std::size_t at) {
  const std::uint32_t u = get_u32(s, at);
  float v;
  std::memcpy(&v, &u, 4);
  return v;
}

}  // namespace

void write_parboil_cutcp(const std::string& path, const std::array<int, 3>& dims, const float* values) {
  auto fail = [&](const std::string& why) {
    throw error(exit_code::failure, "parboil_cutcp output " + path + ": " + why);
  };
  if (dims[0] < 1 || dims[1] < 1 || dims[2] < 1) fail("the lattice has no points");
  const std::uint64_t plane = std::uint64_t(dims[0]) * std::uint64_t(dims[1]);
  if (plane > 0xffffffffu) fail("nx * ny does not fit the format's uint32");
  const std::size_t n = std::size_t(plane) * std::size_t(dims[2]);
  double abs_sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i])) fail("a value is not finite");
    abs_sum += std::abs(double(values[i]));
  }
  std::vector<unsigned char> b;
  b.reserve(8 + 8 * std::size_t(plane));
  put_f32(b, float(abs_sum));
  put_u32(b, std::uint32_t(plane));
  const float* last = values + std::size_t(plane) * std::size_t(dims[2] - 1);
  for (const float* p : {values, last})
    for (std::size_t i = 0; i < plane; ++i) put_f32(b, p[i]);
  write_file_atomically(
      path, [&](std::ostream& out) { out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size())); });
}

parboil_cutcp_file parse_parboil_cutcp(const std::string& bytes, const std::string& what) {
  if (bytes.size() < 8)
    throw input_error(what + ": not a Parboil cutcp output (" + std::to_string(bytes.size()) + " bytes)");
  parboil_cutcp_file f;
  f.abs_sum = get_f32(bytes, 0);
  f.plane_points = get_u32(bytes, 4);
  const std::uint64_t expected = 8 + 8 * std::uint64_t(f.plane_points);
  if (bytes.size() != expected)
    throw input_error(what + ": a Parboil cutcp output with nx * ny = " + std::to_string(f.plane_points) + " has " +
                      std::to_string(expected) + " bytes, not " + std::to_string(bytes.size()));
  f.first.resize(f.plane_points);
  f.last.resize(f.plane_points);
  for (std::size_t i = 0; i < f.plane_points; ++i) {
    f.first[i] = get_f32(bytes, 8 + 4 * i);
    f.last[i] = get_f32(bytes, 8 + 4 * (std::size_t(f.plane_points) + i));
  }
  return f;
}

}  // namespace ppl
