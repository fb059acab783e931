#!/usr/bin/env python3
"""A study's records (the CSV view of a `job: sweep`, docs/sweep.md) as a markdown table: one row per value of the
--rows keys, one column per value of the --cols key, each cell the --value field (and --also, in brackets).

  perf/study_table.py msm_accuracy.csv --rows physics.interaction.order physics.interaction.cutoff \\
      --cols physics.interaction.spacing --value verification_error --also median_s
"""
import argparse
import csv


def number(text):
    try:
        v = float(text)
    except ValueError:
        return text
    return f"{v:.3g}" if abs(v) >= 1e-2 or v == 0 else f"{v:.2e}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--rows", nargs="+", required=True)
    ap.add_argument("--cols", required=True)
    ap.add_argument("--value", required=True)
    ap.add_argument("--also")
    a = ap.parse_args()
    with open(a.csv, newline="") as f:
        records = list(csv.DictReader(f))
    rows, cols, cells = [], [], {}
    for r in records:
        key = tuple(r[k] for k in a.rows)
        if key not in rows:
            rows.append(key)
        if r[a.cols] not in cols:
            cols.append(r[a.cols])
        text = number(r[a.value])
        if a.also:
            text += f" ({number(r[a.also])})"
        cells[key, r[a.cols]] = text
    print("| " + " | ".join(a.rows) + " | " + " | ".join(f"{a.cols} {c}" for c in cols) + " |")
    print("|" + "---|" * (len(a.rows) + len(cols)))
    for key in rows:
        print("| " + " | ".join(key) + " | " + " | ".join(cells.get((key, c), "") for c in cols) + " |")


if __name__ == "__main__":
    main()
