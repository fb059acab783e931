#!/usr/bin/env bash
# On the GPU machine (one call): the SpMV tests on the CUDA backend, then bench_spmv with JSON to
# $OUT/spmv-h200.json, then a short table (printed last).
#
# Expects what perf/device/pack.sh makes from the cuda build: .device/bin/{bench_spmv,bench_spmv_no_cusparse,
# test_sparse_spmv}, .device/lib/ (their non-system shared libraries). cuSPARSE
# is not carried (162 MB): libcusparse.so.12 and its libnvJitLink.so.13 come from the machine's CUDA install or
# the Python nvidia-cusparse wheel; this script finds them, adds their folders to LD_LIBRARY_PATH and prints what
# is still missing; without them it runs bench_spmv_no_cusparse (all but the cuSPARSE peer).
# Optional: PPL_SPMV_ROWS (default 500000,1000000,2000000,3000000), PPL_SPMV_REPEATS (default 100),
# PPL_SPMV_PART_TIMEOUT (seconds per part, default 240; the whole script stays under the 10-minute call),
# SPMV_SKIP_TESTS=1 (no test_sparse_spmv).
source perf/device/setup.sh
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin

missing() { ldd "$1" 2>/dev/null | awk '/not found/ {print $1}'; }
for round in 1 2 3; do
  libs=$( (missing $bin/bench_spmv; missing $bin/test_sparse_spmv) | sort -u)
  [ -z "$libs" ] && break
  for lib in $libs; do
    dir=$(find /usr/local /usr/lib /opt /usr/local/lib/python3* /usr/lib/python3* /root/.local -name "$lib" \
            -printf '%h\n' 2>/dev/null | head -1)
    if [ -z "$dir" ] && command -v python3 >/dev/null; then
      dir=$(python3 - "$lib" <<'PY' 2>/dev/null
import glob, os, site, sys
roots = site.getsitepackages() + [site.getusersitepackages()]
hits = [h for r in roots for h in glob.glob(os.path.join(r, "nvidia", "**", sys.argv[1]), recursive=True)]
print(os.path.dirname(hits[0]) if hits else "")
PY
)
    fi
    if [ -n "$dir" ]; then
      echo "found $lib in $dir"
      export LD_LIBRARY_PATH=$dir:$LD_LIBRARY_PATH
    fi
  done
done
echo "== ldd (libraries still missing are listed as 'not found')"
for exe in $bin/bench_spmv $bin/bench_spmv_no_cusparse $bin/test_sparse_spmv; do
  echo "$exe:"; ldd "$exe" | grep -E 'not found|cusparse|nvJitLink|cudart|yaml|fmt|benchmark|gtest' | sed 's/^/  /'
done

bench=$bin/bench_spmv
if [ -n "$(missing $bench)" ]; then
  echo "WARNING: bench_spmv cannot load $(missing $bench | tr '\n' ' '); running bench_spmv_no_cusparse (no cuSPARSE peer)"
  bench=$bin/bench_spmv_no_cusparse
fi

status=0
if [ -z "${SPMV_SKIP_TESTS:-}" ]; then  # SPMV_SKIP_TESTS=1: the benchmark only (it verifies each variant first)
  echo "== test_sparse_spmv (CUDA)"
  timeout 150 $bin/test_sparse_spmv --gtest_brief=1 > "$OUT/test_sparse_spmv-cuda.log" 2>&1 || status=1
  tail -5 "$OUT/test_sparse_spmv-cuda.log"
fi

# Two parts (27 and 81 per row), each with its own time limit so that one slow part cannot take the whole call;
# each part measures the copy bandwidth first. The parts are merged into $OUT/spmv-h200.json.
for part in 27 81; do
  echo "== bench_spmv, ${part} per row"
  timeout "${PPL_SPMV_PART_TIMEOUT:-240}" $bench --benchmark_filter="copy|nnz${part}/" \
    --benchmark_out="$OUT/spmv-h200-nnz${part}.json" --benchmark_out_format=json \
    --benchmark_counters_tabular=true > "$OUT/spmv-h200-nnz${part}.txt" 2>&1 || { echo "part ${part} failed or timed out"; status=1; }
  tail -2 "$OUT/spmv-h200-nnz${part}.txt"
done
python3 - "$OUT" <<'PY' || status=1
import json, sys
out, merged = sys.argv[1], None
for part in ("27", "81"):
    try:
        d = json.load(open(f"{out}/spmv-h200-nnz{part}.json"))
    except Exception as e:
        print(f"part {part}: no valid JSON ({e})"); continue
    if merged is None: merged = d
    else: merged["benchmarks"] += [b for b in d["benchmarks"] if not b["name"].startswith("copy/")]
if merged: json.dump(merged, open(f"{out}/spmv-h200.json", "w"), indent=1)
PY

# The table: per matrix, GB/s of the median of each family's best variant (threads per row in brackets).
python3 - "$OUT/spmv-h200.json" <<'PY' || { echo "(no python3: see $OUT/spmv-h200-nnz*.txt)"; status=1; }
import json, re, sys
d = json.load(open(sys.argv[1]))
copy = next((b["GBps"] for b in d["benchmarks"] if b["name"].startswith("copy/")), float("nan"))
rows, sweep = {}, {}
for b in d["benchmarks"]:
    m = re.match(r"spmv/nnz(\d+)/rows(\d+)/(\w+?)(?:_t(\d+))?(?:/|$)", b["name"])
    if not m or "GBps" not in b: continue
    key = (int(m.group(1)), int(m.group(2)))
    fam, tpr = m.group(3), m.group(4)
    if tpr: sweep.setdefault((key, fam), {})[int(tpr)] = b["GBps"]
    best = rows.setdefault(key, {}).get(fam)
    if best is None or b["GBps"] > best[0]:
        rows[key][fam] = (b["GBps"], tpr or "", b.get("label", ""))
fams = ["scalar", "vector", "auto", "stream", "vector_cuda", "stream_cuda", "kokkos_kernels", "cusparse_alg1",
        "cusparse_alg2"]
print(f"\nSpMV effective GB/s (median; 12 B/nnz + row map + x + y), device copy {copy:.0f} GB/s")
print(f"{'matrix':>18} " + " ".join(f"{f:>16}" for f in fams))
for (nnz, r), v in sorted(rows.items()):
    cells = []
    for f in fams:
        if f not in v: cells.append(f"{'-':>16}"); continue
        g, t, label = v[f]
        if f == "auto": t = (re.search(r"(\d+) threads/row", label) or [None, ""])[1]
        cells.append(f"{g:>10.0f}{'[' + t + ']' if t else '':>6}")
    print(f"{f'{nnz}/row {r}':>18} " + " ".join(cells))
print("threads_per_row sweeps, GB/s at t = 2 / 4 / 8 / 16 / 32:")
for (key, fam), v in sorted(sweep.items()):
    print(f"  {key[0]}/row {key[1]:>8} {fam:>12}: " + " / ".join(f"{v[t]:.0f}" if t in v else "-" for t in (2, 4, 8, 16, 32)))
big = max((k for k in rows if k[0] == 27), default=None)
if big:
    v = rows[big]
    best = max((g, f, t) for f, (g, t, _) in v.items() if not f.startswith("cusparse"))
    cs = max((g for f, (g, _, _) in v.items() if f.startswith("cusparse")), default=float("nan"))
    print(f"target, 27/row at {big[1]} rows: best strategy {best[1]}[{best[2]}] {best[0]:.0f} GB/s "
          f"(target >= 3000, {best[0] / copy:.0%} of copy), best cuSPARSE {cs:.0f} GB/s")
PY
exit $status
