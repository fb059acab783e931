#!/usr/bin/env python3
"""What a Python call to ppl costs beyond the C++ work it runs (docs/python.md, "Performance").

    PYTHONPATH=build/openmp/python python3 perf/python/overhead.py [--cases ubiquitin,small] [--json OUT.json]

Each case makes one ppl.Plan and calls plan.compute() after warm-up runs: the wall time of the Python call
(time.perf_counter around it) beside plan.compute_seconds, the strategy's compute timed in C++ inside the same call
(between two fences). What the Python call adds (argument handling, the output array, the unit scale, on a CUDA
build with device="cpu" the copy to the host) is their difference; median and spread over the repeats.

  ubiquitin  data/molecules/ubq.pqr (1,231 atoms) on its 0.5 A lattice with 10 A padding (the default job), auto
  small      1,000 random atoms on a 1,000-point lattice (10^3 at 1 A): the per-call cost where the kernel is short;
             on a CUDA build also device="gpu" into a preallocated out= (no copy), and the one-shot potential_map
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

import ppl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def measure(call, plan, warmup, repeats):
    for _ in range(warmup):
        call()
    wall, inner = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        call()
        wall.append(time.perf_counter() - t0)
        inner.append(plan.compute_seconds)
    extra = [w - c for w, c in zip(wall, inner)]
    med = statistics.median
    return {
        "repeats": repeats,
        "python_wall_s": {"median": med(wall), "min": min(wall), "max": max(wall)},
        "cpp_compute_s": {"median": med(inner), "min": min(inner), "max": max(inner)},
        "overhead_s": {"median": med(extra), "min": min(extra), "max": max(extra)},
        "overhead_relative": med(extra) / med(inner),
    }


def ubiquitin(args):
    pos, q, _ = ppl.read_pqr(os.path.join(ROOT, "data", "molecules", "ubq.pqr"))
    lat = ppl.Lattice.around(pos, spacing=0.5, padding=10.0)
    plan = ppl.Plan(pos, q, lat)
    r = measure(lambda: plan.compute(), plan, 2, args.repeats_large)
    r.update(case="ubiquitin", atoms=len(q), points=lat.size, strategy=plan.strategy, device="cpu")
    return [r]


def small(args):
    rng = np.random.default_rng(7)
    pos = rng.uniform(0.0, 9.0, size=(1000, 3))
    q = rng.uniform(-1.0, 1.0, size=1000)
    lat = ppl.Lattice((0.0, 0.0, 0.0), 1.0, (10, 10, 10))
    plan = ppl.Plan(pos, q, lat)
    out = []
    r = measure(lambda: plan.compute(), plan, 50, args.repeats_small)
    r.update(case="small", atoms=1000, points=lat.size, strategy=plan.strategy, device="cpu")
    out.append(r)
    if ppl.cuda:
        dev = plan.compute(device="gpu")
        r = measure(lambda: plan.compute(out=dev), plan, 50, args.repeats_small)
        r.update(case="small", atoms=1000, points=lat.size, strategy=plan.strategy, device="gpu, out= reused")
        out.append(r)
    # One-shot: a plan made and dropped per call (strategy choice, staging); no C++ split, only the wall time.
    for _ in range(20):
        ppl.potential_map(pos, q, lat)
    wall = []
    for _ in range(args.repeats_small // 4):
        t0 = time.perf_counter()
        ppl.potential_map(pos, q, lat)
        wall.append(time.perf_counter() - t0)
    out.append({"case": "small", "device": "cpu", "call": "potential_map (one-shot)", "repeats": len(wall),
                "python_wall_s": {"median": statistics.median(wall), "min": min(wall), "max": max(wall)}})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", default="ubiquitin,small")
    ap.add_argument("--repeats-large", type=int, default=9)
    ap.add_argument("--repeats-small", type=int, default=2000)
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    info = ppl.info()
    results = []
    for case in args.cases.split(","):
        results += {"ubiquitin": ubiquitin, "small": small}[case](args)
    print(f"ppl {info['version']}: {info['default_space']}, {info['host_threads']} host threads, {info['device']}")
    print(f"{'case':10} {'device':22} {'strategy':24} {'python wall':>14} {'C++ compute':>14} {'overhead':>12} {'rel':>7}")
    for r in results:
        if "overhead_s" not in r:
            print(f"{r['case']:10} {r['call']:47} {r['python_wall_s']['median'] * 1e6:11.1f} us")
            continue
        print(f"{r['case']:10} {r['device']:22} {r['strategy']:24} {r['python_wall_s']['median'] * 1e6:11.1f} us "
              f"{r['cpp_compute_s']['median'] * 1e6:11.1f} us {r['overhead_s']['median'] * 1e6:9.1f} us "
              f"{100 * r['overhead_relative']:6.2f}%")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"info": info, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
