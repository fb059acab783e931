#!/usr/bin/env bash
# On the GPU machine, in one call: the Krylov part of issue 4.
#   1. test_sparse_krylov on the CUDA backend (every solver x SpMV strategy x Jacobi on/off, 2dcyl1, ani4, ...);
#   2. `ppl run configs/examples/solve_cd_1m.yaml` (a generated 970k-row system), plain and profiled, and
#      configs/examples/solve_2dcyl1.yaml;
#   3. bench_krylov (BiCGSTAB/BiCG per iteration vs memory floor, Eigen on the host CPU with 1 and all threads),
#      JSON per part in $OUT/krylov-h200-{cd27,cd81,eigen}.json, merged into $OUT/krylov-h200.json;
#   4. a short table last.
# Expects .device/bin/{ppl,test_sparse_krylov,bench_krylov} built for CUDA, .device/lib/ (the non-system shared
# libraries: yaml-cpp, fmt, benchmark, gtest): perf/device/pack.sh (here) or
# perf/device/build_on_device.sh (there; bench_krylov needs Eigen, which the devkit holds) makes them.
# Environment: KRYLOV_ROWS (default 500000,1000000,2000000,3000000), KRYLOV_EIGEN_ROWS (default 1000000,3000000),
# KRYLOV_PARTS (default "cd27 cd81 eigen"), KRYLOV_ITERS (iterations per timed solve, default 50; Eigen runs a tenth, at least 5). Worst case (every step
# at its timeout) 595 s.
source perf/device/setup.sh
set -o pipefail
status=0
bin=.device/bin
export PPL_BENCH_KRYLOV_ROWS=${KRYLOV_ROWS:-500000,1000000,2000000,3000000}
export PPL_BENCH_KRYLOV_EIGEN_ROWS=${KRYLOV_EIGEN_ROWS:-1000000,3000000}
export PPL_BENCH_KRYLOV_ITERS=${KRYLOV_ITERS:-50}

echo "== test_sparse_krylov (CUDA)"
timeout 120 "$bin/test_sparse_krylov" --gtest_brief=1 >"$OUT/test_sparse_krylov.log" 2>&1 || status=1
tail -4 "$OUT/test_sparse_krylov.log"

echo "== ppl run configs/examples/solve_cd_1m.yaml"
timeout 30 "$bin/ppl" run configs/examples/solve_cd_1m.yaml --set output.summary="$OUT/solve_cd_1m.json" \
  --set output.history="$OUT/solve_cd_1m_history.csv" 2>&1 | tee "$OUT/solve_cd_1m.txt" | grep -v "  iteration" ||
  status=1
timeout 30 "$bin/ppl" run configs/examples/solve_cd_1m.yaml -q --set solver.profile=true \
  --set output.summary="$OUT/solve_cd_1m_profiled.json" --set output.history="$OUT/solve_cd_1m_profiled.csv" \
  >"$OUT/solve_cd_1m_profiled.txt" 2>&1 || status=1
grep -E "outcome|phases|per iteration" "$OUT/solve_cd_1m_profiled.txt"
timeout 15 "$bin/ppl" run configs/examples/solve_2dcyl1.yaml -q --set output.solution="$OUT/solve_2dcyl1_x.mtx" \
  --set output.summary="$OUT/solve_2dcyl1.json" >"$OUT/solve_2dcyl1.txt" 2>&1 || status=1
grep -E "outcome|true residual" "$OUT/solve_2dcyl1.txt"

echo "== bench_krylov (rows: $PPL_BENCH_KRYLOV_ROWS, Eigen rows: $PPL_BENCH_KRYLOV_EIGEN_ROWS, $PPL_BENCH_KRYLOV_ITERS iterations per solve)"
# Three runs, each with its own JSON, so a timeout loses one part only; merged into krylov-h200.json below.
bench() {  # name, filter, timeout
  timeout "$3" "$bin/bench_krylov" --benchmark_filter="$2" --benchmark_out="$OUT/krylov-h200-$1.json" \
    --benchmark_out_format=json --benchmark_report_aggregates_only=true >"$OUT/bench_krylov_$1.txt" 2>&1 ||
    { echo "bench_krylov $1: failed or timed out (rc $?)"; status=1; }
}
for part in ${KRYLOV_PARTS:-cd27 cd81 eigen}; do  # KRYLOV_PARTS: a subset, e.g. "cd27 cd81" (no Eigen)
  case $part in
    cd27) bench cd27 '^bicg[a-z]*/.*/cd27/' 130 ;;
    cd81) bench cd81 '^bicg[a-z]*/.*/cd81/' 160 ;;
    eigen) bench eigen '^eigen_bicgstab/' 100 ;;
  esac
done

echo "== summary"
if command -v python3 >/dev/null; then
  python3 - "$OUT" <<'PY'
import json, sys, re, os
out = sys.argv[1]
rows, merged = [], None
for part in ("cd27", "cd81", "eigen"):
    path = os.path.join(out, f"krylov-h200-{part}.json")
    try:
        data = json.load(open(path))
    except Exception as e:
        print(f"(no {path}: {e})"); continue
    if merged is None: merged = data
    else: merged["benchmarks"] += data["benchmarks"]
    rows += [b for b in data["benchmarks"] if b.get("aggregate_name") == "median"]
if merged is not None:
    json.dump(merged, open(os.path.join(out, "krylov-h200.json"), "w"), indent=1)
def name(b): return b["run_name"].split("/iterations")[0]
best = {}
print(f"{'benchmark':58} {'ms/iter':>9} {'x floor':>8} {'x fl.31':>8} {'GB/s':>7} {'spmv%':>6}")
for b in rows:
    n = name(b); t = b["real_time"]
    if n.startswith("eigen"):
        print(f"{n:58} {t:9.3f} {'':>8} {'':>8} {'':>7} {'':>6}")
    else:
        print(f"{n:58} {t:9.3f} {b['x_floor']:8.2f} {b.get('x_floor31', 0):8.2f} {b['eff_GBps']:7.0f} {100*b['spmv_frac']:6.1f}")
    m = re.match(r"(\w+)/.*/(cd\d+)/rows:(\d+)(?:/threads:(\d+))?", n)
    if m:
        key = (m.group(2), int(m.group(3)))
        who = "eigen_t" + m.group(4) if n.startswith("eigen") else m.group(1)
        best.setdefault(key, {})
        if who not in best[key] or t < best[key][who][0]: best[key][who] = (t, n)
print("\nspeed-up of ppl BiCGSTAB (best strategy, GPU) over Eigen BiCGSTAB (host CPU), per iteration:")
for key in sorted(best):
    d = best[key]
    if "bicgstab" not in d: continue
    g = d["bicgstab"][0]
    eig = {k: v[0] for k, v in d.items() if k.startswith("eigen_t")}
    txt = ", ".join(f"{k[7:]} threads {v / g:.1f}x" for k, v in sorted(eig.items(), key=lambda kv: int(kv[0][7:])))
    print(f"  {key[0]} {key[1]:>8} rows: {g:.3f} ms ({d['bicgstab'][1].split('/')[1]}); vs Eigen {txt}")
PY
else
  grep -h "_median" "$OUT"/bench_krylov_*.txt | cut -c1-150  # (no python3: parts stay separate)
fi
exit $status
