#!/usr/bin/env python3
"""The electrostatic potential averaged over a trajectory, as OpenDX for VMD (volmap coulomb -allframes -combine avg).

    python3 examples/python/trajectory_mean.py TOPOLOGY TRAJECTORY OUT.dx [--cutoff 12] [--spacing 1] ...

TOPOLOGY carries the charges (PQR, PSF, PRMTOP, TPR, ...; or --charges-from a PQR with the same atoms in the same
order); TRAJECTORY is anything MDAnalysis reads (DCD, XTC, TRR, NetCDF, ...). The lattice surrounds the first
frame's selection, --padding beyond it. Without --cutoff the map is full electrostatics (multilevel summation,
docs/msm.md). Then, in VMD: mol new TOPOLOGY; mol addfile OUT.dx.
"""
import argparse
import sys
import time
import warnings

import MDAnalysis as mda
import numpy as np

import ppl
import ppl.mdanalysis


def main():
    warnings.simplefilter("ignore")  # MDAnalysis' deprecation notes (after its import: it sets filters of its own)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("topology")
    ap.add_argument("trajectory")
    ap.add_argument("out", help="the map (.dx or .dx.gz; .mrc for MRC)")
    ap.add_argument("--select", default="all", help="MDAnalysis selection of the atoms that carry charge (all)")
    ap.add_argument("--charges-from", help="a PQR whose charges to use (same atoms, same order)")
    ap.add_argument("--spacing", type=float, default=1.0, help="lattice spacing, A (1.0)")
    ap.add_argument("--padding", type=float, default=5.0, help="lattice beyond the atoms, A (5.0)")
    ap.add_argument("--cutoff", type=float, help="a cutoff map (cutcp, radius in A) instead of full electrostatics")
    ap.add_argument("--combine", default="mean", choices=["mean", "min", "max", "sum"])
    ap.add_argument("--start", type=int, default=None)
    ap.add_argument("--stop", type=int, default=None)
    ap.add_argument("--step", type=int, default=None)
    args = ap.parse_args()

    u = mda.Universe(args.topology, args.trajectory)
    atoms = u.select_atoms(args.select)
    if len(atoms) == 0:
        sys.exit(f"error: --select '{args.select}' selects no atom")
    charges = None
    if args.charges_from:
        _, charges, _ = ppl.read_pqr(args.charges_from)
        if len(charges) != len(atoms):
            sys.exit(f"error: {args.charges_from} has {len(charges)} atoms, the selection {len(atoms)}")
    lattice = ppl.Lattice.around(atoms.positions, spacing=args.spacing, padding=args.padding)
    interaction = {"kind": "cutoff", "radius": args.cutoff} if args.cutoff else "msm"
    frames = slice(args.start, args.stop, args.step)
    n = len(u.trajectory[frames])
    t0 = time.perf_counter()

    def progress(i, total):
        if i == total or i % max(1, total // 10) == 0:
            dt = time.perf_counter() - t0
            eta = dt / i * (total - i)
            print(f"  frame {i}/{total}  {i / dt:.0f} frames/s  ETA {eta:.0f} s", file=sys.stderr)

    print(f"{len(atoms)} atoms, {n} frames, lattice {lattice.dims} at {args.spacing} A", file=sys.stderr)
    combined = ppl.mdanalysis.potential_map(atoms, lattice, frames=frames, combine=args.combine, charges=charges,
                                            interaction=interaction, progress=progress)
    writer = ppl.write_mrc if args.out.endswith((".mrc", ".mrc.gz")) else ppl.write_dx
    writer(args.out, np.ascontiguousarray(combined), lattice,
           f"ppl: {args.combine} over {n} frames of {args.trajectory}, kT/e")
    print(f"wrote {args.out}: {args.combine} of {n} frames, min {combined.min():.3f}, max {combined.max():.3f} kT/e",
          file=sys.stderr)


if __name__ == "__main__":
    main()
