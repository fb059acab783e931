#pragma once
// MRC2014 / CCP4 density maps (the map format of cryo-EM and crystallography), written as float32.
//
// Who reads it: PyMOL (`load map.mrc`), UCSF ChimeraX and Chimera (`open map.mrc`), VMD (its ccp4plugin reads .mrc
// and .ccp4), and Python through mrcfile, which GridDataFormats (`gridData.Grid("map.mrc")`, MDAnalysis) uses.
// test_io reads what write_mrc writes with Debian's python3-mrcfile (`mrcfile.validate` + the data).
//
// The layout (1024-byte header of 256 four-byte words, little-endian, no extended header, then the data):
//   words 1-3 nx ny nz = dims          4 mode = 2 (float32)        5-7 nxstart nystart nzstart = 0
//   8-10 mx my mz = dims               11-13 cella = dims * delta (A), so the voxel size cella/m is the spacing
//   14-16 cellb = 90 90 90             17-19 mapc mapr maps = 1 2 3: columns are x, rows y, sections z (x
//                                      fastest, as the values are handed over: they are written as they are)
//   20-22 dmin dmax dmean              23 ispg = 1 (a single volume)  24 nsymbt = 0 (no extended header)
//   27 exttyp: empty (there is no extended header to describe)      28 nversion = 20140 (MRC2014)
//   50-52 origin (A) = position of point (0, 0, 0)                  53 "MAP "   54 machine stamp 0x44 0x44 0 0
//   55 rms = standard deviation from dmean   56 nlabl   57-256 ten 80-character labels
//
// Why the origin words and not nxstart: nxstart..nzstart place the map in whole voxels (origin = nxstart *
// spacing), which cannot express the origins ppl's lattices have (padding around a molecule at any coordinates,
// e.g. -12.375 A with a 0.3 A spacing). MRC2014 defines words 50-52 as the origin of the map in A, and ChimeraX,
// PyMOL, VMD and GridDataFormats read them. With nxstart = 0 the readers that combine both (GridDataFormats adds
// nxstart * spacing) or fall back to nxstart when the origin words are zero agree on the same origin.
//
// Limits of the format: the header holds 32-bit integers and float32 numbers. dims fit (every dimension of a
// lattice is an int, and a lattice has at most 2^31 - 1 points); the origin and cell are stored as float32, about
// 7 significant digits (the OpenDX header keeps 6; the raw output's JSON sidecar and the summary keep full
// precision).
#include <cstddef>
#include <string>
#include <vector>

#include "ppl/io/grid.hpp"

namespace ppl {

constexpr std::size_t mrc_header_bytes = 1024;
constexpr std::size_t mrc_max_labels = 10;
constexpr std::size_t mrc_label_chars = 80;

// `values` is x fastest (size g.size()), as for write_opendx. `labels`: at most 10 are kept, each cut to 80
// characters, characters outside printable ASCII replaced by '?', blank ones dropped (MRC2014 wants the used labels
// first and nlabl = their count). Non-finite values, non-positive dims or spacing, and an origin or cell that does
// not fit a float32 are refused (ppl::error, exit_code::failure) before anything is written. Written through
// write_file_atomically: a failure leaves no file under `path`. A `path` ending in ".gz" is gzip-compressed
// (mrcfile.open reads it).
void write_mrc(const std::string& path, const grid_geometry& g, const float* values,
               const std::vector<std::string>& labels = {});

}  // namespace ppl
