#pragma once
// The solute plus the placed ions as structure files (`job: ions` outputs): PQR (what ppl and APBS read) and PDB
// (HETATM records, what VMD, PyMOL, MDAnalysis and gemmi read), with the ions named by the job's convention.
#include <cstdint>
#include <string>
#include <vector>

#include "ppl/io/atoms.hpp"
#include "ppl/ions/species.hpp"

namespace ppl {

struct placed_ion {
  const ion_species* species = nullptr;
  int point = -1;              // lattice index
  double x = 0, y = 0, z = 0;  // A (the lattice point's float64 position)
  double potential = 0;        // V at the point just before the ion was placed (the job's units)
  double nearest_solute = 0;   // A; distance to the nearest solute atom (+Inf without atoms)
  double seconds = 0;          // wall time of this ion's step (select, mask, update)
  std::int64_t blocks = -1;    // bounded placement: lattice blocks brought up to date in that step (-1: full pass)
};

// Solute atoms keep their records (labels; atoms without labels are written as ATOM X UNK); ions follow as HETATM
// records of chain I, one residue each (numbers from 1), named by `convention`. Written atomically.
void write_pqr_with_ions(const std::string& path, const atoms& solute, const std::vector<placed_ion>& ions,
                         ion_convention convention, const std::vector<std::string>& remarks);
// PDB: fixed columns (serial 7-11, name 13-16, residue 18-21, chain 22, number 23-26, x y z 31-54, segment 73-76,
// element 77-78, charge 79-80). Serial numbers above 99999 wrap around, as VMD's writer does; residue numbers
// outside -999..9999 (solute and ions) are written modulo 10000 (10023 -> 23, -1000 -> 9000), the convention VMD,
// PyMOL and gemmi read as four-digit numbers (hybrid-36 is not read by VMD), with the insertion code kept. Coordinates
// must fit %8.3f (job: ions checks this when the job is read).
void write_pdb_with_ions(const std::string& path, const atoms& solute, const std::vector<placed_ion>& ions,
                         ion_convention convention, const std::vector<std::string>& remarks);

// Whether every coordinate fits the PDB's %8.3f columns ([-999.999, 9999.999]).
bool fits_pdb_columns(double v);

}  // namespace ppl
