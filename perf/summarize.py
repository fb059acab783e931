#!/usr/bin/env python3
"""Short tables from ppl's benchmark output (Google Benchmark JSON of perf/potential and perf/sparse, and the JSON
summaries `ppl run` writes). The perf/device drivers print these into their results' README.md; they work on any
backend's files.

  summarize.py potential FILE...     bench_potential: median ms, spread (cv), atom-evaluations/s, rsqrt ceiling
  summarize.py end-to-end FILE...    bench_potential end_to_end/: median total ms and its phases
  summarize.py spmv FILE...          bench_spmv: median ms, p10/p90, GB/s per benchmark
  summarize.py spmv-table FILE...    bench_spmv: GB/s per matrix (rows) and strategy family (columns, the best
                                     threads_per_row in brackets), the copy bandwidth, auto against cuSPARSE
  summarize.py vector-ops FILE...    bench_vector_ops: median us, p10/p90, GB/s, fraction of copy
  summarize.py krylov FILE...        bench_krylov: ms per iteration (median, cv), x floor, copy GB/s, phase fractions
  summarize.py ilu0 FILE...          bench_ilu0: set-up (with its phases) and one application per path, one SpMV
  summarize.py jobs FILE...          `ppl run` summaries (potential, ions, solve): one line each
  summarize.py ions-compare A B      two ions summaries: are the placed points the same, ion by ion?
  summarize.py merge OUT FILE...     Google Benchmark files merged into OUT (the first file's context)
"""
import json
import math
import os
import re
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def benchmarks(path):
    return load(path)["benchmarks"]


def short(name):
    """A benchmark's name without Google Benchmark's suffixes (min_time, iterations, repeats, manual_time)."""
    name = re.sub(r"/(min_time:[^/]*|iterations:\d+|repeats:\d+|manual_time|real_time)", "", name)
    return re.sub(r"_(mean|median|stddev|cv)$", "", name)


def aggregates(path):
    """run name -> {aggregate name -> benchmark}; a benchmark without aggregates is its own 'median'."""
    out = {}
    for b in benchmarks(path):
        key = short(b.get("run_name", b["name"]))
        out.setdefault(key, {})[b.get("aggregate_name", "median")] = b
    return out


def cv_text(agg):
    cv = agg.get("cv")
    return f"{100 * cv['real_time']:.1f}%" if cv and math.isfinite(cv["real_time"]) else "-"


def potential(path):
    print(f"{'benchmark (median of the repetitions)':58} {'ms':>9} {'cv':>6} {'evals/s':>10} {'ceiling':>8} "
          f"{'rel L2':>9}")
    for name, agg in aggregates(path).items():
        b = agg.get("median")
        if b is None or not name.startswith("potential/"):
            continue
        print(f"{name[len('potential/'):]:58} {b['real_time']:9.3f} {cv_text(agg):>6} {b.get('evals_per_s', 0):10.3e} "
              f"{b.get('rsqrt_ceiling_fraction', 0):8.3f} {b.get('verify_rel_l2', 0):9.2e}")


def end_to_end(path):
    keys = ("setup_ms", "alloc_out_ms", "compute_ms", "copy_back_ms", "upload_ms", "allocations", "reuses")
    for name, agg in aggregates(path).items():
        b = agg.get("median")
        if b is None or not name.startswith("end_to_end/"):
            continue
        phases = " ".join(f"{k}={b[k]:.4f}" for k in keys if k in b)
        print(f"{name}: total {b['real_time']:.4f} ms (cv {cv_text(agg)}), {phases}")


def copy_bandwidth(bs):
    return next((b["GBps"] for b in bs if b["name"].startswith("copy/") and "GBps" in b), float("nan"))


def spmv(path):
    for b in benchmarks(path):
        if b["name"].startswith("copy"):
            print(f'{short(b["name"]):44s} {b["GBps"]:.0f} GB/s')
        elif "median_ms" in b:
            print(f'{short(b["name"]):44s} {b["median_ms"]:.4f} ms (p10 {b["p10_ms"]:.4f}, p90 {b["p90_ms"]:.4f})  '
                  f'{b["GBps"]:.0f} GB/s  {b.get("fraction_of_copy", float("nan")):.3f} of copy')
        elif "error_message" in b:
            print(f'{short(b["name"]):44s} skipped: {b["error_message"]}')


FAMILIES = ["scalar", "scalar_avx2", "vector", "auto", "stream", "vector_cuda", "stream_cuda", "kokkos_kernels",
            "cusparse_alg1", "cusparse_alg2"]


def spmv_table(*paths):
    bs = [b for p in paths for b in benchmarks(p)]
    copy = copy_bandwidth(bs)
    rows, sweep = {}, {}
    for b in bs:
        m = re.match(r"spmv/nnz(\d+)/rows(\d+)/(\w+?)(?:_t(\d+))?(?:/|$)", b["name"])
        if not m or "GBps" not in b:
            continue
        key = (int(m.group(1)), int(m.group(2)))
        fam, tpr = m.group(3), m.group(4)
        if tpr:
            sweep.setdefault((key, fam), {})[int(tpr)] = b["GBps"]
        best = rows.setdefault(key, {}).get(fam)
        if best is None or b["GBps"] > best[0]:
            rows[key][fam] = (b["GBps"], tpr or "", b.get("label", ""))
    seen = {f for v in rows.values() for f in v}
    fams = [f for f in FAMILIES if f in seen] + sorted(seen - set(FAMILIES))
    print(f"SpMV effective GB/s (median; 12 B/nnz + row map + x + y), device copy {copy:.0f} GB/s")
    print(f"{'matrix':>18} " + " ".join(f"{f:>15}" for f in fams))
    for (nnz, r), v in sorted(rows.items()):
        cells = []
        for f in fams:
            if f not in v:
                cells.append(f"{'-':>15}")
                continue
            g, t, label = v[f]
            if f == "auto":
                t = (re.search(r"(\d+) threads/row", label) or [None, ""])[1]
            cells.append(f"{g:>9.0f}{'[' + t + ']' if t else '':>6}")
        print(f"{f'{nnz}/row {r}':>18} " + " ".join(cells))
    if sweep:
        print("threads_per_row sweeps, GB/s at t = 2 / 4 / 8 / 16 / 32:")
        for (key, fam), v in sorted(sweep.items()):
            print(f"  {key[0]}/row {key[1]:>8} {fam:>12}: " +
                  " / ".join(f"{v[t]:.0f}" if t in v else "-" for t in (2, 4, 8, 16, 32)))
    for nnz in sorted({k[0] for k in rows}):
        big = max(k for k in rows if k[0] == nnz)
        v = rows[big]
        best = max((g, f, t) for f, (g, t, _) in v.items() if not f.startswith("cusparse"))
        cs = max((g for f, (g, _, _) in v.items() if f.startswith("cusparse")), default=float("nan"))
        auto = v.get("auto", (float("nan"),))[0]
        print(f"{nnz}/row at {big[1]} rows: auto {auto:.0f} GB/s ({auto / copy:.0%} of copy), best {best[1]}"
              f"{'[' + best[2] + ']' if best[2] else ''} {best[0]:.0f}"
              + (f", best cuSPARSE {cs:.0f} (auto {auto / cs:.2f}x)" if math.isfinite(cs) else ""))


def vector_ops(path):
    for b in benchmarks(path):
        if b["name"].startswith("copy"):
            print(f'{short(b["name"]):40s} {b["GBps"]:.0f} GB/s')
        elif "median_us" in b:
            print(f'{short(b["name"]):40s} {b["median_us"]:8.2f} us (p10 {b["p10_us"]:.2f}, p90 {b["p90_us"]:.2f})  '
                  f'{b["GBps"]:.0f} GB/s  {b.get("fraction_of_copy", float("nan")):.3f} of copy')


def krylov(path):
    print(f"{'benchmark (median)':56} {'ms/iter':>9} {'cv':>6} {'x floor':>8} {'copy GB/s':>9}  phases")
    for name, agg in aggregates(path).items():
        b = agg.get("median")
        if b is None:
            continue
        if name.startswith("eigen"):
            print(f"{name:56} {b['real_time']:9.3f} {cv_text(agg):>6}")
            continue
        phases = " ".join(f"{k[:-5]} {b[k]:.2f}" for k in ("spmv_frac", "dot_frac", "update_frac", "precond_frac",
                                                            "host_frac") if k in b and math.isfinite(b[k]))
        print(f"{name:56} {b['real_time']:9.4f} {cv_text(agg):>6} {b.get('x_floor', float('nan')):8.3f} "
              f"{b.get('copy_GBps', float('nan')):9.0f}  {phases}")


def ilu0(path):
    agg = aggregates(path)
    for name, a in agg.items():
        b = a.get("median")
        if b is None:
            continue
        extra = ""
        if name.startswith("ilu0_setup/"):
            extra = " ".join(f"{k} {1e3 * b[k]:.1f} ms" for k in ("symbolic_s", "numeric_s", "solve_levels_s")
                             if k in b)
            extra += f", {b['factor_levels']:.0f} levels" if "factor_levels" in b else ""
        print(f"{name:44} {b['real_time']:10.3f} ms (cv {cv_text(a)}) {extra}")


def solve_line(name, s):
    t = s["timing"]
    m = s["solver"]
    phases = t.get("phases_s")
    per_it = t.get("per_iteration_s")
    return (f"{name}: {m['method']} + {m['preconditioner']} {s['outcome']} in {s['iterations']} iterations, true "
            f"residual {s['true_residual_relative']:.2e} (relative), "
            + (f"{1e3 * per_it:.4f} ms per iteration, " if per_it is not None else "")
            + f"set-up {t['setup_s']:.3f} s (preconditioner {t['precond_setup_s']:.3f} s), total {t['total_s']:.3f} s, "
            f"SpMV {s['spmv'].get('mapping', '')}" + (f"; fenced phases (s): {phases}" if phases else ""))


def map_line(name, m, ions):
    t = m["timing"]
    w = m["work"]
    line = (f"{name}: {m['strategy']['chosen']} median {1e3 * t['median_s']:.3f} ms (min {1e3 * t['min_s']:.3f}, "
            f"max {1e3 * t['max_s']:.3f}; {t['warmup']} warm-up, {t['repeats']} timed), "
            f"{w['atom_evaluations_per_s']:.3e}/s, set-up {1e3 * m['setup_s']:.2f} ms")
    sb = m.get("strategy_breakdown", {})
    if "setup_binning_s" in sb:
        stencil = f", stencil {1e3 * sb['setup_stencil_s']:.2f}" if "setup_stencil_s" in sb else ""
        line += (f" (upload {1e3 * sb['setup_upload_s']:.2f}, binning {1e3 * sb['setup_binning_s']:.2f}{stencil}, "
                 f"overflow atoms {sb.get('overflow_atoms', 0):.0f})")
    if "short_range_s" in sb:  # msm: set-up + map, and the phases of the last compute
        levels = " ".join(f"{1e3 * sb[k]:.2f}" for k in sorted((k for k in sb if k.startswith("level")),
                                                             key=lambda k: int(k[5:-2])))
        line += (f", set-up + median {1e3 * (m['setup_s'] + t['median_s']):.2f} ms; phases (ms): short range "
                 f"{1e3 * sb['short_range_s']:.2f}, anterpolation {1e3 * sb['anterpolation_s']:.2f}, restriction "
                 f"{1e3 * sb['restriction_s']:.2f}, levels {levels}, interpolation {1e3 * sb['interpolation_s']:.2f}")
    if w.get("efficiency") is not None:
        line += f", work efficiency {100 * w['efficiency']:.1f}%"
    v = m["verification"]
    if v["mode"] != "none":
        line += f", error {v['relative_l2_error']:.2e} ({'passed' if v['passed'] else 'FAILED'})"
        if v.get("relative_rms_to_reference") is not None:
            line += f", relative RMS {v['relative_rms_to_reference']:.2e}"
    if ions:
        p = ions["per_ion"]
        line += (f"; ions: mask {1e3 * ions['mask_s']:.1f} ms, placement {1e3 * ions['placement_s']:.2f} ms for "
                 f"{len(ions['placed'])} ({ions.get('algorithm', 'full_pass')}), per ion median "
                 f"{1e3 * p['median_s']:.4f} ms (min {1e3 * p['min_s']:.4f}, max {1e3 * p['max_s']:.4f})")
        b = ions.get("blocks")
        if b:  # the bounded placement: blocks brought up to date per ion, and the map's finish after the last ion
            line += (f", blocks per ion median {b['per_ion']['median']} of {b['count']} (max {b['per_ion']['max']}), "
                     f"finish {1e3 * ions['finish_s']:.2f} ms")
        line += f", job {ions['job_s']:.3f} s"
    return line


def legacy_job_line(name, s):
    """A summary written before docs/summary.schema.json (the results kept in perf/results/)."""
    if "outcome" in s and "times" in s:  # a solve job
        t = s["times"]
        method = f"{s['solver']['method']} + {s['solver']['preconditioner']}" if "solver" in s else "solve"
        phases = t.get("phases")
        return (f"{name}: {method} {s['outcome']} in {s['iterations']} iterations, true residual "
                f"{s['true_residual']:.2e}, "
                f"{1e3 * t['per_iteration']:.4f} ms per iteration, set-up {t['setup']:.3f} s (preconditioner "
                f"{t.get('precond_setup', 0):.3f} s), total {t['total']:.3f} s, SpMV {s['spmv'].get('mapping', '')}"
                + (f"; fenced phases (s): {phases}" if phases else ""))
    t = s["timing"]
    strategy = s.get("strategy_chosen") or s.get("strategy")
    line = (f"{name}: {strategy} median {1e3 * t['median_s']:.3f} ms (min {1e3 * t['min_s']:.3f}, max "
            f"{1e3 * t['max_s']:.3f}; {t.get('warmup', 0)} warm-up, {t.get('repeats', len(t.get('seconds', [])))} timed)"
            f", {s.get('atom_evaluations_per_s', 0):.3e}/s, set-up {1e3 * s.get('setup_s', 0):.2f} ms")
    sb = s.get("strategy_breakdown", {})
    if "setup_binning_s" in sb:
        line += (f" (upload {1e3 * sb['setup_upload_s']:.2f}, binning {1e3 * sb['setup_binning_s']:.2f}, overflow "
                 f"atoms {sb.get('overflow_atoms', 0):.0f})")
    if "work_efficiency" in s:
        line += f", work efficiency {100 * s['work_efficiency']:.1f}%"
    v = s.get("verification", {})
    if "relative_l2_error" in v:
        line += f", error {v['relative_l2_error']:.2e} ({'passed' if v.get('passed') else 'FAILED'})"
    i = s.get("ions")
    if i:
        p = i["per_ion_seconds"]
        line += (f"; ions: mask {1e3 * i['mask_seconds']:.1f} ms, placement {1e3 * i['placement_seconds']:.2f} ms for "
                 f"{len(i['placed'])}, per ion median {1e3 * p['median']:.4f} ms (min {1e3 * p['min']:.4f}, max "
                 f"{1e3 * p['max']:.4f}), job {i.get('job_seconds', float('nan')):.3f} s")
    return line


def job_line(path):
    """One line for a job summary (docs/summary.schema.json; older summaries through legacy_job_line)."""
    s = load(path)
    name = os.path.basename(path)
    if "schema" not in s:
        return legacy_job_line(name, s)
    if s["job"] == "solve":
        return solve_line(name, s["solve"])
    if s["job"] in ("potential", "ions"):
        return map_line(name, s["map"], s.get("ions"))
    return f"{name}: job {s['job']} on {s['device']['name']} ({s['backend']['execution_space']})"


def jobs(*paths):
    for p in paths:
        try:
            print(job_line(p))
        except (OSError, KeyError, ValueError) as e:
            print(f"{os.path.basename(p)}: no summary ({e!r})")


def ions_compare(a_path, b_path):
    sa, sb = (load(p)["ions"] for p in (a_path, b_path))
    a, b = sa["placed"], sb["placed"]
    diff = next((n for n, (x, y) in enumerate(zip(a, b)) if x["point"] != y["point"]), None)
    if diff is None and len(a) == len(b):
        print(f"all {len(a)} ions at the same points in {os.path.basename(a_path)} and {b_path}")
        ca, cb = sa.get("map_after_checksum"), sb.get("map_after_checksum")
        if ca and cb:  # summaries written since the checksum exists
            print(f"map after placement: checksums {ca} and {cb}: " + ("the same bits" if ca == cb else "DIFFERENT"))
        return
    n = diff if diff is not None else min(len(a), len(b))
    print(f"first {n} of {len(b)} ions agree; ion {n + 1}: {a[n]['point'] if n < len(a) else None} "
          f"(V {a[n]['potential'] if n < len(a) else None}) against {b[n]['point'] if n < len(b) else None}")


def merge(out, *paths):
    merged = None
    for p in paths:
        try:
            d = load(p)
        except (OSError, ValueError) as e:
            print(f"{p}: not merged ({e!r})")
            continue
        if merged is None:
            merged = d
        else:
            merged["benchmarks"] += [b for b in d["benchmarks"] if not b["name"].startswith("copy/")]
    if merged is not None:
        with open(out, "w") as f:
            json.dump(merged, f, indent=1)


def main(argv):
    per_file = {"potential": potential, "end-to-end": end_to_end, "spmv": spmv, "vector-ops": vector_ops,
                "krylov": krylov, "ilu0": ilu0}
    if len(argv) >= 3 and argv[1] in per_file:
        for path in argv[2:]:
            if len(argv) > 3:
                print(f"# {os.path.basename(path)}")
            try:
                per_file[argv[1]](path)
            except (OSError, ValueError) as e:
                print(f"{path}: unreadable ({e!r})")
    elif len(argv) >= 3 and argv[1] == "spmv-table":
        spmv_table(*[p for p in argv[2:] if os.path.exists(p)])
    elif len(argv) >= 3 and argv[1] == "jobs":
        jobs(*argv[2:])
    elif len(argv) == 4 and argv[1] == "ions-compare":
        ions_compare(argv[2], argv[3])
    elif len(argv) >= 4 and argv[1] == "merge":
        merge(argv[2], *argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
