#!/usr/bin/python3
"""Plots of a `job: sweep` results file (JSON lines, docs/sweep.md), written beside it and named after the study:

  <study>_throughput.png  throughput against one varied parameter, one line per strategy (and per value of any other
                          varied key)
  <study>_size.png        median time against problem size (atom-evaluations per map, or nonzeros), log-log, the
                          best point per strategy and size
  <study>_heatmap.png     solve sweeps with spmv.threads_per_row: threads per row against nonzeros per row, each
                          cell the time per iteration relative to the best of its row
  <study>_ceiling.png     fraction of the ceiling (rsqrt rate or copy bandwidth), the best point per strategy; only
                          when the records have one (a GPU)

  /usr/bin/python3 perf/plot_study.py coarsening.jsonl [--param strategy_params.coarsening] [--study NAME]

Debian's python3-matplotlib is the only dependency. Prints the path of each PNG written."""
import argparse
import json
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def save(fig, out):
    """Writes the figure as a PNG at `out` and frees it; returns out."""
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def upgrade(r):
    """A record in the layout of docs/summary.schema.json (job "sweep"); records written before that layout
    (no "schema" key: time.median, setup_seconds, a flat record) are rewritten into it, so old results still plot."""
    if "schema" in r:
        return r
    t = r.get("time", {})
    return {"job": "sweep", "key": r.get("key"),
            "sweep": {"study": r.get("study"), "point": r.get("point"), "base_job": r.get("job"),
                      "settings": r.get("settings", {}), "config": r.get("config", {})},
            "measurement": {
                "strategy": r.get("strategy", "?"),
                "timing": {"median_s": t.get("median"), "min_s": t.get("min"), "max_s": t.get("max"),
                           "samples_s": t.get("seconds", [])},
                "time_per": "iteration" if r.get("time_unit") == "s per iteration" else "map",
                "setup_s": r.get("setup_seconds"),
                "throughput": {"value": r.get("throughput", 0), "unit": r.get("throughput_unit", "")},
                "ceiling": {"kind": r.get("ceiling_kind", ""), "value": r.get("ceiling"),
                            "fraction": r.get("fraction_of_ceiling")},
                "problem": r.get("problem", {})}}


def study_of(r):
    return r["sweep"].get("study")


def settings_of(r):
    return r["sweep"].get("settings") or {}


def load(path, study):
    records = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = upgrade(json.loads(line))
            except (json.JSONDecodeError, AttributeError, KeyError):
                sys.exit(f"{path}:{n}: not a sweep record")
            if study is None or study_of(r) == study:
                records.append(r)
    if not records:
        sys.exit(f"{path}: no records" + (f" of study '{study}'" if study else ""))
    return records


def text(v):
    return json.dumps(v) if isinstance(v, (list, dict)) else str(v)


def varied_keys(records):
    """Settings keys in first-seen order with how many distinct values each takes."""
    values = defaultdict(set)
    order = []
    for r in records:
        for k, v in settings_of(r).items():
            if k not in values:
                order.append(k)
            values[k].add(text(v))
    return [(k, len(values[k])) for k in order]


def numeric(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def plot_throughput(records, param, out, study):
    unit = records[0]["measurement"]["throughput"]["unit"]
    others = [k for k, n in varied_keys(records) if k not in (param, "strategy") and n > 1]
    lines = defaultdict(list)
    for r in records:
        s = settings_of(r)
        if param not in s:
            continue
        m = r["measurement"]
        label = m.get("strategy", "?") + "".join(f", {k}={text(s.get(k))}" for k in others)
        lines[label].append((s[param], m["throughput"]["value"]))
    if not lines:
        return None
    fig, ax = plt.subplots(figsize=(8, 5))
    categorical = not all(numeric(x) for pts in lines.values() for x, _ in pts)
    ticks = sorted({text(x) for pts in lines.values() for x, _ in pts}) if categorical else None
    for label, pts in sorted(lines.items()):
        pts.sort(key=lambda p: text(p[0]) if categorical else p[0])
        xs = [ticks.index(text(x)) for x, _ in pts] if categorical else [x for x, _ in pts]
        ax.plot(xs, [y for _, y in pts], marker="o", label=label)
    if categorical:
        ax.set_xticks(range(len(ticks)))
        ax.set_xticklabels(ticks, rotation=30, ha="right")
    elif all(x > 0 for pts in lines.values() for x, _ in pts):
        ax.set_xscale("log", base=2)
    ax.set_xlabel(param)
    ax.set_ylabel(f"throughput ({unit})")
    ax.set_title(f"{study}: throughput against {param}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    return save(fig, out)


def size_of(r):
    p = r["measurement"].get("problem", {})
    if r["sweep"].get("base_job") == "solve":
        return p.get("nnz"), "nonzeros"
    return p.get("evaluations"), "atom-evaluations per map"


def plot_size(records, out, study):
    best = defaultdict(dict)
    xlabel = ""
    for r in records:
        size, xlabel = size_of(r)
        t = r["measurement"]["timing"].get("median_s")
        if not size or not t:
            continue
        b = best[r["measurement"].get("strategy", "?")]
        b[size] = min(b.get(size, math.inf), t)
    if sum(len(b) for b in best.values()) < 2 or all(len(b) < 2 for b in best.values()):
        return None
    fig, ax = plt.subplots(figsize=(7, 5))
    for strategy, b in sorted(best.items()):
        xs = sorted(b)
        ax.plot(xs, [b[x] for x in xs], marker="o", label=strategy)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"median time (s per {records[0]['measurement']['time_per']})")
    ax.set_title(f"{study}: time against problem size (best point per strategy and size)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    return save(fig, out)


def threads_per_row(r):
    s = settings_of(r)
    if "spmv.threads_per_row" in s:
        return s["spmv.threads_per_row"]
    return (r["sweep"].get("config") or {}).get("spmv", {}).get("threads_per_row")


def plot_heatmap(records, out, study):
    cells = {}
    for r in records:
        tpr = threads_per_row(r)
        m = r["measurement"]
        p = m.get("problem", {})
        t = m["timing"].get("median_s")
        if r["sweep"].get("base_job") != "solve" or tpr is None or not t:
            continue
        row = (round(p.get("nnz_per_row", 0), 1), p.get("rows", 0))
        cells[(row, tpr)] = min(cells.get((row, tpr), math.inf), t)
    rows = sorted({k[0] for k in cells})
    cols = sorted({k[1] for k in cells})
    if len(cols) < 2:
        return None
    fig, ax = plt.subplots(figsize=(1.2 * len(cols) + 3, 0.6 * len(rows) + 2))
    grid = []
    for row in rows:
        best = min(v for (rw, _), v in cells.items() if rw == row)
        grid.append([cells.get((row, c), math.nan) / best for c in cols])
    im = ax.imshow(grid, cmap="viridis_r", aspect="auto", vmin=1.0)
    for i, row in enumerate(rows):
        for j, c in enumerate(cols):
            v = cells.get((row, c))
            if v is not None:
                ax.text(j, i, f"{1e3 * v:.3g} ms", ha="center", va="center", fontsize=7, color="white")
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels([str(c) for c in cols])
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{nz:g}/row, {n:,} rows" for nz, n in rows])
    ax.set_xlabel("threads per row")
    ax.set_ylabel("nonzeros per row, rows")
    ax.set_title(f"{study}: time per iteration / best of its row")
    fig.colorbar(im, ax=ax, label="relative to the row's best")
    return save(fig, out)


def plot_ceiling(records, out, study):
    best = {}
    for r in records:
        f = r["measurement"]["ceiling"].get("fraction")
        if f is None:
            continue
        s = r["measurement"].get("strategy", "?")
        best[s] = max(best.get(s, 0.0), f)
    if not best:
        return None
    kind = next((r["measurement"]["ceiling"].get("kind") for r in records
                 if r["measurement"]["ceiling"].get("fraction") is not None), "")
    names = sorted(best, key=lambda s: -best[s])
    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(names) + 2), 5))
    ax.bar(range(len(names)), [100 * best[n] for n in names])
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("% of the ceiling (best point)")
    ax.set_title(f"{study}: fraction of the ceiling ({kind})", fontsize=9)
    ax.axhline(100, color="gray", linewidth=0.8)
    ax.grid(True, axis="y", alpha=0.3)
    return save(fig, out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="a sweep's results file (JSON lines)")
    ap.add_argument("--param", help="the varied key of the throughput plot (default: the first varied key with "
                    "more than one value, other than strategy)")
    ap.add_argument("--study", help="only the records of this study (default: the first record's)")
    a = ap.parse_args()
    records = load(a.results, a.study)
    study = a.study or study_of(records[0]) or os.path.splitext(os.path.basename(a.results))[0]
    records = [r for r in records if study_of(r) == study]
    keys = varied_keys(records)
    param = a.param or next((k for k, n in keys if k != "strategy" and n > 1), None) or \
        next((k for k, _ in keys), None)
    folder = os.path.dirname(os.path.abspath(a.results))
    written = []
    if param:
        written.append(plot_throughput(records, param, os.path.join(folder, f"{study}_throughput.png"), study))
    written.append(plot_size(records, os.path.join(folder, f"{study}_size.png"), study))
    written.append(plot_heatmap(records, os.path.join(folder, f"{study}_heatmap.png"), study))
    written.append(plot_ceiling(records, os.path.join(folder, f"{study}_ceiling.png"), study))
    written = [w for w in written if w]
    if not written:
        sys.exit(f"{a.results}: nothing to plot (one point per strategy and no ceiling)")
    for w in written:
        print(w)


if __name__ == "__main__":
    main()
