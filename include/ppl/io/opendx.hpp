#pragma once
// OpenDX scalar grids as APBS writes them, which VMD, PyMOL, Chimera and gridDataFormats read:
//   object 1 class gridpositions counts nx ny nz / origin / 3 delta lines / object 2 class gridconnections /
//   object 3 class array type double rank 0 items N data follows / values, 3 per line, z fastest /
//   attribute "dep" string "positions" / object "..." class field / its 3 components.
// Header numbers and values are printed with 6 significant digits (%12.6e).
#include <string>
#include <vector>

#include "ppl/io/grid.hpp"

namespace ppl {

// `values` is x fastest (size g.size()); the writer transposes to DX's z-fastest order. `comments` become
// "# ..." lines at the top. Written through write_file_atomically (a failure leaves no file under `path`); a
// `path` ending in ".gz" is gzip-compressed (gridDataFormats reads map.dx.gz).
void write_opendx(const std::string& path, const grid_geometry& g, const float* values,
                  const std::vector<std::string>& comments = {});

struct opendx_grid {
  grid_geometry geometry;
  std::vector<double> values;  // x fastest
};

// Reads what write_opendx writes (and APBS/gridDataFormats-style files with axis-aligned deltas). Malformed input
// -> input_error naming path:line.
opendx_grid read_opendx(const std::string& path);

}  // namespace ppl
