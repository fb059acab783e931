#pragma once
// A lattice as the map writers describe it (origin, the same spacing on every axis, dims): what the jobs and the
// Python module hand to write_opendx and write_mrc.
#include "ppl/io/grid.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

inline grid_geometry geometry_of(const lattice& g) {
  grid_geometry out;
  out.origin = g.origin;
  out.delta = {g.spacing, g.spacing, g.spacing};
  out.dims = g.dims;
  return out;
}

}  // namespace ppl
