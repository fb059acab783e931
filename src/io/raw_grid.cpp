// Raw float32 grid + JSON sidecar. See include/ppl/io/raw_grid.hpp.
#include "ppl/io/raw_grid.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "ppl/io/atomic_file.hpp"

namespace ppl {

std::string raw_sidecar_path(const std::string& raw_path) {
  return raw_path + ".json";
}

void write_raw_float32(const std::string& path, const grid_geometry& g, const float* values,
                       const raw_grid_info& info) {
  const std::size_t n = g.size();
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < n; ++i) lo = std::min(lo, double(values[i])), hi = std::max(hi, double(values[i]));
  write_file_atomically(path, compression_for(path), [&](std::ostream& out) {
    // Little-endian bytes whatever the host order, in 64 KiB chunks.
    std::vector<unsigned char> buf;
    buf.reserve(1 << 16);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t u;
      std::memcpy(&u, &values[i], 4);
      for (int b = 0; b < 4; ++b) buf.push_back((unsigned char)(u >> (8 * b)));
      if (buf.size() >= (1 << 16)) {
        out.write(reinterpret_cast<const char*>(buf.data()), std::streamsize(buf.size()));
        buf.clear();
      }
    }
    out.write(reinterpret_cast<const char*>(buf.data()), std::streamsize(buf.size()));
  });
  nlohmann::ordered_json j;
  j["format"] = "ppl raw grid";
  j["file"] = path;
  if (gzip_name(path)) j["compression"] = "gzip";
  j["dtype"] = "float32";
  j["byte_order"] = "little";
  j["layout"] = "x fastest: index = (k*ny + j)*nx + i; numpy: fromfile(file, '<f4').reshape(nz, ny, nx)";
  j["dims"] = g.dims;
  j["origin"] = g.origin;
  j["spacing"] = g.delta;
  j["length_units"] = "angstrom";
  j["units"] = info.units;
  j["description"] = info.description;
  j["points"] = n;
  if (n > 0) j["min"] = lo, j["max"] = hi;
  write_file_atomically(raw_sidecar_path(path), [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

}  // namespace ppl
