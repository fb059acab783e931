#!/usr/bin/env python3
"""Frames per second of a potential map averaged over a trajectory (docs/python.md, "Performance").

    PYTHONPATH=build/cuda/python python3 perf/python/trajectory.py [--atoms 10000] [--frames 300] [--json OUT.json]

A synthetic system (--atoms random charges in a 100 A box, moving 0.3 A per frame at random) is written as a DCD
with MDAnalysis into a temporary folder, then mapped on a 100^3 lattice at 1 A with a 12 A cutcp cutoff and with
full electrostatics (MSM), the frames averaged on the device:

  read      MDAnalysis alone: iterate the frames and take each AtomGroup's positions;
  end_to_end ppl.mdanalysis.potential_map(atoms, lattice, frames=slice(None), combine="mean"): read, convert,
            upload, prepare (binning / the grids' charges), compute, combine; frames/s over the whole trajectory;
  phases    the same loop written out: per frame the read, plan.add_frame's wall time, and inside it the plan's
            setup_seconds (positions staged and binned) and compute_seconds (the kernel), medians.

Without MDAnalysis (a GPU machine whose Python has none) the frames come from a NumPy array in memory and the
output says so: the ppl part is the same, the reader is not measured.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import warnings

import numpy as np

import ppl
import ppl.mdanalysis

try:
    import MDAnalysis as mda
except ImportError:
    mda = None
# MDAnalysis' deprecation notes and the DCD writer's unit-cell warning (after the import: it sets filters of its own)
warnings.simplefilter("ignore")


def make_frames(atoms, frames, box, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, box, size=(atoms, 3)).astype(np.float32)
    out = np.empty((frames, atoms, 3), dtype=np.float32)
    for f in range(frames):
        out[f] = x
        x = np.mod(x + rng.normal(0.0, 0.3, size=x.shape).astype(np.float32), box)
    q = rng.uniform(-1.0, 1.0, size=atoms)
    return out, q - q.mean()


def universe(frames, q, folder):
    u = mda.Universe.empty(frames.shape[1], trajectory=True)
    u.add_TopologyAttr("charges", q)
    path = os.path.join(folder, "traj.dcd")
    with mda.Writer(path, frames.shape[1]) as w:
        for f in frames:
            u.atoms.positions = f
            w.write(u.atoms)
    u.load_new(path)
    return u


class ArrayTrajectory:
    """The frames from memory, where MDAnalysis is not installed."""

    def __init__(self, frames):
        self.frames = frames

    def __iter__(self):
        for f in self.frames:
            yield f


def run(args, interaction, u, frames, q, lat, label):
    n = len(frames)
    r = {"interaction": label, "frames": n}
    # end to end
    t0 = time.perf_counter()
    if u is not None:
        mean = ppl.mdanalysis.potential_map(u.atoms, lat, frames=slice(None), combine="mean", charges=q,
                                            interaction=interaction)
    else:
        plan = ppl.Plan(frames[0], q, lat, interaction=interaction)
        for f in frames:
            plan.add_frame(f, combine="mean")
        mean = plan.combined()
    dt = time.perf_counter() - t0
    r["end_to_end_s"] = dt
    r["end_to_end_fps"] = n / dt
    # phases, explicit loop
    plan = ppl.Plan(frames[0], q, lat, interaction=interaction)
    r["strategy"] = plan.strategy
    read, add, setup, kernel = [], [], [], []
    source = u.trajectory if u is not None else ArrayTrajectory(frames)
    t_start = time.perf_counter()
    t = time.perf_counter()
    for i, ts in enumerate(source):
        p = u.atoms.positions if u is not None else ts
        t1 = time.perf_counter()
        plan.add_frame(p, combine="mean")
        t2 = time.perf_counter()
        read.append(t1 - t), add.append(t2 - t1)
        setup.append(plan.setup_seconds), kernel.append(plan.compute_seconds)
        t = time.perf_counter()
    loop = time.perf_counter() - t_start
    again = plan.combined()
    med = statistics.median
    r["loop_fps"] = n / loop
    r["median_ms"] = {"read": 1e3 * med(read), "add_frame": 1e3 * med(add), "setup (upload, binning)": 1e3 * med(setup),
                      "kernel": 1e3 * med(kernel)}
    r["other_ms"] = 1e3 * med([a - s - k for a, s, k in zip(add, setup, kernel)])
    r["same_mean"] = bool(np.array_equal(mean, again))
    r["map_range"] = [float(mean.min()), float(mean.max())]
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--atoms", type=int, default=10000)
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--cutoff", type=float, default=12.0)
    ap.add_argument("--skip-msm", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args()
    box = 100.0
    frames, q = make_frames(args.atoms, args.frames, box, 11)
    lat = ppl.Lattice((0.0, 0.0, 0.0), 1.0, (100, 100, 100))
    info = ppl.info()
    out = {"info": info, "atoms": args.atoms, "lattice": list(lat.dims), "spacing": 1.0, "results": []}
    with tempfile.TemporaryDirectory() as folder:
        u = None
        if mda is not None:
            u = universe(frames, q, folder)
            t0 = time.perf_counter()
            for _ in u.trajectory:
                u.atoms.positions
            out["read_fps"] = len(frames) / (time.perf_counter() - t0)
            out["reader"] = f"MDAnalysis {mda.__version__}, DCD"
        else:
            out["reader"] = "none: MDAnalysis is not installed; frames from a NumPy array in memory"
        cases = [({"kind": "cutoff", "radius": args.cutoff}, f"cutoff {args.cutoff:g} A (cutcp)")]
        if not args.skip_msm:
            cases.append(("msm", "msm (defaults)"))
        for interaction, label in cases:
            run(args, interaction, u, frames[: min(20, len(frames))], q, lat, label)  # warm-up
            out["results"].append(run(args, interaction, u, frames, q, lat, label))
    print(f"ppl {info['version']} on {info['default_space']} ({info['device']}); {args.atoms} atoms, "
          f"lattice 100^3 at 1 A, {args.frames} frames; reader: {out['reader']}")
    if "read_fps" in out:
        print(f"  reading alone: {out['read_fps']:.0f} frames/s")
    for r in out["results"]:
        ms = ", ".join(f"{k} {v:.3f}" for k, v in r["median_ms"].items())
        print(f"  {r['interaction']:22} {r['strategy']:22} end to end {r['end_to_end_fps']:7.1f} frames/s, "
              f"loop {r['loop_fps']:7.1f}; per frame ms: {ms}, other {r['other_ms']:.3f}; "
              f"same mean: {r['same_mean']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
