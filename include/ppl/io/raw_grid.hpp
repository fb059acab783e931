#pragma once
// Raw float32 grids: the values, little-endian, x fastest, no header, in `path`, and a JSON sidecar `path`.json
// that says how to read them (dims, origin, spacing, layout, dtype, units, min, max). Easy to map with numpy:
//   np.fromfile(path, '<f4').reshape(nz, ny, nx)
// A `path` ending in ".gz" is gzip-compressed (the sidecar, `path`.json, is not, and says "compression": "gzip"):
//   np.frombuffer(gzip.open(path).read(), '<f4').reshape(nz, ny, nx)
#include <string>

#include "ppl/io/grid.hpp"

namespace ppl {

struct raw_grid_info {
  std::string units;        // e.g. "kT/e"
  std::string description;  // free text, e.g. "electrostatic potential of ubq.pqr"
};

std::string raw_sidecar_path(const std::string& raw_path);  // raw_path + ".json"

// Writes both files atomically (the raw file first, then the sidecar).
void write_raw_float32(const std::string& path, const grid_geometry& g, const float* values, const raw_grid_info& info);

}  // namespace ppl
