#!/usr/bin/python3
"""Bar charts of Google Benchmark JSON results (tuning studies): one bar per benchmark (its median when repetitions
were aggregated, with min..max whiskers when those are present), for one counter or the real time.

  /usr/bin/python3 perf/plot.py perf/results/potential-h200/bench_potential-sweeps.json --counter evals_per_s \
      --filter 'hybrid|40k' --ceiling 4.18e12 --out perf/results/potential-h200/bench_potential-sweeps.png

Debian's python3-matplotlib (installed by cmake/deps/bootstrap.sh) is the only dependency."""
import argparse
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path, counter, pattern):
    with open(path) as f:
        doc = json.load(f)
    rows = {}
    for b in doc.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        # Drop Google Benchmark's run settings from the label: they are the same for every row.
        name = re.sub(r"/(min_time|iterations|repeats|manual_time|real_time)[^/]*", "", name)
        if pattern and not re.search(pattern, name):
            continue
        value = b.get(counter) if counter != "real_time" else b.get("real_time")
        if value is None:
            continue
        kind = b.get("aggregate_name", "value")
        rows.setdefault(name, {})[kind] = float(value)
    return doc.get("context", {}), rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result", help="Google Benchmark JSON (--benchmark_out)")
    ap.add_argument("--counter", default="real_time", help="counter to plot (default: real_time)")
    ap.add_argument("--filter", default="", help="regular expression on benchmark names")
    ap.add_argument("--ceiling", type=float, default=None, help="draw a horizontal line at this value")
    ap.add_argument("--out", required=True, help="PNG to write")
    args = ap.parse_args()
    context, rows = load(args.result, args.counter, args.filter)
    if not rows:
        sys.exit(f"{args.result}: no benchmark matches counter '{args.counter}' and filter '{args.filter}'")
    names = list(rows)
    mid = [r.get("median", r.get("mean", r.get("value", 0.0))) for r in rows.values()]
    fig, ax = plt.subplots(figsize=(max(6, 0.45 * len(names) + 2), 7))
    ax.bar(range(len(names)), mid, color="#4477aa")
    for i, r in enumerate(rows.values()):
        if "min" in r and "max" in r:
            ax.plot([i, i], [r["min"], r["max"]], color="black", linewidth=1)
    if args.ceiling:
        ax.axhline(args.ceiling, color="#cc3311", linestyle="--", label=f"ceiling {args.ceiling:.3g}")
        ax.legend()
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel(args.counter)
    ax.set_title(f"{context.get('device_name', '')} {context.get('default_execution_space', '')}".strip())
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
