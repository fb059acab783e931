#!/usr/bin/python3
"""Log-log plot of the cutoff scale study (perf/potential/cutoff_scale.sh): the median compute time and the set-up
(binning) time of each strategy against the lattice size, from the JSON summaries in a folder.

  /usr/bin/python3 perf/potential/plot_cutoff_scale.py perf/results/cutoff-openmp --out perf/results/cutoff-openmp/scale.png

Debian's python3-matplotlib is the only dependency."""
import argparse
import glob
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    series = {}
    for path in glob.glob(os.path.join(args.folder, "*.json")):
        s = json.load(open(path))
        # A summary's map part (docs/summary.schema.json); summaries from before that layout held it at the top.
        m = s.get("map", s)
        if "timing" not in m:
            continue
        strategy = m["strategy"]["requested"] if isinstance(m["strategy"], dict) else m["strategy"]
        label = strategy + (" (coulomb)" if m["interaction"]["kind"] == "coulomb" else "")
        series.setdefault(label, []).append((m["lattice"]["points"], m["timing"]["median_s"], m["setup_s"],
                                              m["atoms"]["count"]))
    fig, ax = plt.subplots(figsize=(7, 5))
    for label, pts in sorted(series.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=label + ": compute")
        if label.startswith("cutoff_binned"):
            ax.plot([p[0] for p in pts], [p[2] for p in pts], "x--", label=label + ": set-up (binning)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("lattice points (0.5 A over a water box of 0.1 atoms/A^3)")
    ax.set_ylabel("seconds (median of 3)")
    ax.set_title("cutcp 12 A vs direct Coulomb summation")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
