#!/usr/bin/env python3
"""Writes a PQR file's atoms as raw float32 x, y, z, q records (16 bytes per atom, little-endian, no header), the
input of perf/peers/msmpot/driver.cu, and with --spacing/--padding prints the driver's lattice arguments for ppl's
`lattice: {spacing: H, padding: P}` around those atoms.

    pqr_to_xyzq.py IN.pqr[.gz] OUT.xyzq [--spacing H --padding P]

Reads as ppl's PQR reader does (src/io/atoms.cpp): ATOM and HETATM records, whitespace-separated fields, the last
five being x y z charge radius. The lattice follows ppl's lattice_around (src/spatial/lattice.cpp), in float64 on
the file's values: lo = min - P, hi = max + P, n = floor((hi - lo) / H) + 1 per axis, origin lo. Prints one line,
`--origin X Y Z --spacing H --dims NX NY NZ` (nothing without --spacing), and a summary on stderr.
"""
import argparse
import array
import gzip
import math
import sys


def read_pqr(path):
    opener = gzip.open if path.endswith(".gz") else open
    rows = []
    with opener(path, "rt") as f:
        for n, line in enumerate(f, 1):
            fields = line.split()
            if not fields or fields[0] not in ("ATOM", "HETATM"):
                continue
            if len(fields) < 10:
                sys.exit(f"{path}:{n}: {fields[0]} record has {len(fields)} fields, expected at least 10")
            try:
                x, y, z, q, r = (float(s) for s in fields[-5:])
            except ValueError:
                sys.exit(f"{path}:{n}: x y z charge radius are not all numbers")
            if not all(math.isfinite(v) and abs(v) <= 1.0e6 for v in (x, y, z, q, r)) or r < 0:
                sys.exit(f"{path}:{n}: a value out of range")
            rows.append((x, y, z, q))
    if not rows:
        sys.exit(f"{path}: no ATOM or HETATM records")
    return rows


def lattice_around(xyz, spacing, padding):
    origin, dims = [], []
    for d in range(3):
        lo = min(a[d] for a in xyz) - padding
        hi = max(a[d] for a in xyz) + padding
        origin.append(lo)
        dims.append(int(math.floor((hi - lo) / spacing)) + 1)
    return origin, dims


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pqr")
    p.add_argument("out")
    p.add_argument("--spacing", type=float)
    p.add_argument("--padding", type=float, default=0.0)
    a = p.parse_args()
    atoms = read_pqr(a.pqr)
    rec = array.array("f", (v for row in atoms for v in row))  # float32, rounded to nearest as C's (float) cast
    if sys.byteorder != "little":
        rec.byteswap()
    with open(a.out, "wb") as f:
        rec.tofile(f)
    print(f"{a.pqr}: {len(atoms)} atoms, net charge {math.fsum(r[3] for r in atoms):.6g} e -> {a.out}", file=sys.stderr)
    if a.spacing is not None:
        if not a.spacing > 0 or not a.padding >= 0:
            sys.exit("--spacing must be > 0 and --padding >= 0")
        origin, dims = lattice_around(atoms, a.spacing, a.padding)
        print("--origin {!r} {!r} {!r} --spacing {!r} --dims {} {} {}".format(*origin, a.spacing, *dims))


if __name__ == "__main__":
    main()
