#pragma once
// The output file of Parboil's cutcp benchmark, the layout of its reference output
// (data/molecules/watbox.sl40.cutcp-lattice.dat.gz), so that a ppl map can be compared with Parboil's:
//   float32  sum of |V| over the whole lattice
//   uint32   nx * ny
//   float32  nx * ny values of the plane k = 0, x fastest
//   float32  nx * ny values of the plane k = nz - 1, x fastest
// all little-endian (whatever the host's byte order). A lattice of one plane (nz = 1) writes that plane twice.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ppl {

// `values` is x fastest (dims[0] * dims[1] * dims[2] of them). The sum of |V| is taken in float64 and rounded once.
// Non-positive dims, nx * ny above 2^32 - 1 or a non-finite value are refused (ppl::error, exit_code::failure) before
// anything is written. Written through write_file_atomically: a failure leaves no file under `path`.
void write_parboil_cutcp(const std::string& path, const std::array<int, 3>& dims, const float* values);

struct parboil_cutcp_file {
  float abs_sum = 0.0f;
  std::uint32_t plane_points = 0;  // nx * ny
  std::vector<float> first, last;  // planes k = 0 and k = nz - 1, x fastest
};

// The content of such a file (e.g. read by ppl_test::read_file, which also reads .gz). Throws input_error naming
// `what` unless the size is 8 + 2 * 4 * plane_points bytes.
parboil_cutcp_file parse_parboil_cutcp(const std::string& bytes, const std::string& what);

}  // namespace ppl
