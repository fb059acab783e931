#!/usr/bin/env python3
"""Short tables from the Google Benchmark JSON of ppl's sparse benchmarks (used by perf/device/round*.sh and for the
summaries in perf/results/round*-h200):

  summarize.py krylov FILE...      bench_krylov: ms per iteration, x floor, copy GB/s, phase fractions (medians)
  summarize.py vector-ops FILE...  bench_vector_ops: median us, p10/p90, GB/s, fraction of copy
  summarize.py spmv FILE...        bench_spmv: median ms, p10/p90, GB/s per benchmark
  summarize.py spmv-table FILE     bench_spmv: GB/s per matrix (rows) and strategy (columns)
"""
import json
import re
import sys


def benchmarks(path):
    with open(path) as f:
        return json.load(f)["benchmarks"]


def short(name):
    return name.split("/iterations")[0]


def krylov(path):
    for b in benchmarks(path):
        if b.get("aggregate_name") == "median":
            print(f'{short(b["name"]):48s} {b["real_time"]:.4f} ms/it  x_floor {b["x_floor"]:.3f}  '
                  f'copy {b["copy_GBps"]:.0f} GB/s  spmv {b["spmv_frac"]:.3f} dot {b["dot_frac"]:.3f} '
                  f'update {b["update_frac"]:.3f} host {b["host_frac"]:.3f}  | {b.get("label", "")[:60]}')


def vector_ops(path):
    for b in benchmarks(path):
        if b["name"].startswith("copy"):
            print(f'{short(b["name"]):40s} {b["GBps"]:.0f} GB/s')
        else:
            print(f'{short(b["name"]):40s} {b["median_us"]:8.2f} us (p10 {b["p10_us"]:.2f}, p90 {b["p90_us"]:.2f})  '
                  f'{b["GBps"]:.0f} GB/s  {b.get("fraction_of_copy", float("nan")):.3f} of copy')


def spmv(path):
    for b in benchmarks(path):
        if b["name"].startswith("copy"):
            print(f'{short(b["name"]):44s} {b["GBps"]:.0f} GB/s')
        elif "median_ms" in b:
            print(f'{short(b["name"]):44s} {b["median_ms"]:.4f} ms (p10 {b["p10_ms"]:.4f}, p90 {b["p90_ms"]:.4f})  '
                  f'{b["GBps"]:.0f} GB/s')


def spmv_table(path):
    rows, families = {}, []
    for b in benchmarks(path):
        if b["name"].startswith("copy"):
            print(f'copy {b["GBps"]:.0f} GB/s')
        m = re.match(r"spmv/nnz(\d+)/rows(\d+)/(\w+)/", b["name"])
        if m and "GBps" in b:
            rows.setdefault((int(m.group(1)), int(m.group(2))), {})[m.group(3)] = b["GBps"]
            if m.group(3) not in families:
                families.append(m.group(3))
    print("matrix          " + " ".join(f"{f:>15}" for f in families))
    for (nnz, n), v in sorted(rows.items()):
        print(f"{nnz}/row {n:>8} " + " ".join(f"{v[f]:>15.0f}" if f in v else f"{'-':>15}" for f in families))


def main(argv):
    kinds = {"krylov": krylov, "vector-ops": vector_ops, "spmv": spmv, "spmv-table": spmv_table}
    if len(argv) < 3 or argv[1] not in kinds:
        sys.exit(__doc__)
    for path in argv[2:]:
        if len(argv) > 3:
            print(f"# {path}")
        kinds[argv[1]](path)


if __name__ == "__main__":
    main(sys.argv)
