#pragma once
// Atoms: positions (Angstrom) and charges (e), as read (float64, host). Device kernels get float32 copies with
// positions relative to the lattice origin (see device_atoms), so far-away coordinates keep their precision.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ppl {

// An atom's record as a structure file named it (the PQR reader keeps them so a job can write the molecule back
// with new atoms added, job: ions); the generators leave the labels empty.
struct atom_label {
  std::string record, name, residue, chain, resseq;  // "ATOM", "CA", "MET", "A" (or ""), "1" (insertion code kept)
};

struct atoms {
  std::vector<double> x, y, z, q, radius;
  std::vector<atom_label> labels;  // empty, or one per atom
  std::string source;              // file name or generator description
  std::size_t size() const { return x.size(); }
  void push_back(double px, double py, double pz, double pq, double pr = 0.0);
};

// PQR (ATOM/HETATM records, whitespace-separated fields, optional chain id). Errors name file:line.
atoms read_pqr(const std::string& path);

// Uniform random atoms in [lo, hi] per axis with charges uniform in [qmin, qmax]. The PMPP benchmark is
// 10,000 atoms in [0,50]x[0,50]x[0,25] A, charges in [-2, 2], seed 42.
atoms random_atoms(std::size_t n, const double lo[3], const double hi[3], double qmin, double qmax, std::uint64_t seed);

// A TIP3-like water box (O -0.834 e, H +0.417 e, O-H 0.9572 A, H-O-H 104.52 deg) filling [0,lx]x[0,ly]x[0,lz] at
// 0.1 atoms/A^3 (round(V / 30 A^3) molecules), randomly oriented, no two molecules closer than 1.2 A, net charge 0.
atoms water_box(double lx, double ly, double lz, std::uint64_t seed);

}  // namespace ppl
