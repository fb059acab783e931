#!/usr/bin/env bash
# On the GPU machine, in one call: the direct-summation part of issue 3.
#   1. test_potential_strategies on the CUDA backend (every registered strategy, parameter sweeps, edge cases);
#   2. bench_potential, 5 repetitions, aggregates only, JSON to $OUT/potential-h200.json (text in bench.txt);
#   3. SASS of the hot kernels (cuobjdump -sass) into $OUT/sass-<kernel>.txt, with an opcode histogram each;
#   4. a short table last (median per benchmark: ms, atom-evaluations/s, fraction of the rsqrt ceiling, error).
# Expects (perf/device/pack.sh makes them from the `cuda` preset): .device/bin/{ppl,test_potential_strategies,
# bench_potential}, .device/lib/ (the non-system shared libraries: yaml-cpp, fmt, benchmark, gtest).
# Run with `.device` carried. Environment: POTENTIAL_BENCH_FILTER (a
# --benchmark_filter regex, default all), POTENTIAL_REPETITIONS (default 5).
source perf/device/setup.sh
set -o pipefail
OUT=${OUT:-out/potential}
mkdir -p "$OUT"
bin=.device/bin
status=0

echo "== test_potential_strategies (CUDA)"
timeout 180 "$bin/test_potential_strategies" --gtest_brief=1 --gtest_output="xml:$OUT/test_potential_strategies.xml" \
  >"$OUT/test_potential_strategies.log" 2>&1 || status=1
tail -4 "$OUT/test_potential_strategies.log"

echo "== bench_potential"
timeout 420 "$bin/bench_potential" --benchmark_filter="${POTENTIAL_BENCH_FILTER:-.}" \
  --benchmark_out="$OUT/potential-h200.json" --benchmark_out_format=json \
  --benchmark_repetitions="${POTENTIAL_REPETITIONS:-5}" --benchmark_report_aggregates_only=true \
  >"$OUT/bench.txt" 2>&1 || status=1
grep -cE "_median" "$OUT/bench.txt" | sed 's/^/median rows: /'

echo "== SASS"
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [ -x "$cuobjdump" ]; then
  "$cuobjdump" -sass "$bin/bench_potential" >"$OUT/sass-all.txt" 2>&1 || status=1
  # One file per kernel of interest, found by its mangled name: Function sections of cuobjdump's listing.
  # name:key[+key2]: the Function sections whose mangled name contains every key.
  for pair in gather_coalesced_C8:coalesced_kernelILi8E+portable_row gather_coarsened_C8:coarsened_kernelILi8EE \
    gather_fast:gather_kernelILb1EE constmem_C8:constmem_kernelILi8EE \
    hybrid_C8_S0:coalesced_kernelILi8E+hybrid_rowILi0EE hybrid_C8_S1:coalesced_kernelILi8E+hybrid_rowILi1EE \
    hybrid_C8_S2:coalesced_kernelILi8E+hybrid_rowILi2EE baseline_constmem_ftz:constmem_kernelILNS_10rsqrt_kindE1EE \
    baseline_tiles:tiles_kernel; do
    name=${pair%%:*} keys=${pair#*:}
    awk -v keys="$keys" 'BEGIN {n = split(keys, k, "+")}
      /Function : / {keep = 1; for (i = 1; i <= n; ++i) if (index($0, k[i]) == 0) keep = 0} keep' \
      "$OUT/sass-all.txt" >"$OUT/sass-$name.txt"
    # Opcode histogram (first word after the /*addr*/ column), most frequent first.
    sed -nE 's#^ +/\*[0-9a-f]{4,}\*/ +(@P?!?[A-Z0-9]+ +)?([A-Z][A-Z0-9_.]*).*#\2#p' "$OUT/sass-$name.txt" |
      sort | uniq -c | sort -rn >"$OUT/sass-$name.histogram.txt"
    printf '%-18s %6s instructions, MUFU.RSQ %s\n' "$name" "$(awk '{s+=$1} END {print s+0}' "$OUT/sass-$name.histogram.txt")" \
      "$(grep -c 'MUFU.RSQ' "$OUT/sass-$name.txt")"
  done
else
  echo "cuobjdump not found: no SASS"
fi

echo "== summary (median of ${POTENTIAL_REPETITIONS:-5}; evals/s = atom-evaluations per second)"
if command -v python3 >/dev/null && [ -s "$OUT/potential-h200.json" ]; then
  python3 - "$OUT/potential-h200.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"{'benchmark':58} {'ms':>9} {'evals/s':>10} {'ceiling':>8} {'rel L2':>9}")
for b in d["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    name = b["run_name"].replace("potential/", "").replace("/min_time:0.200/manual_time", "")
    print(f"{name:58} {b['real_time']:9.3f} {b.get('evals_per_s', 0):10.3e} "
          f"{b.get('rsqrt_ceiling_fraction', 0):8.3f} {b.get('verify_rel_l2', 0):9.2e}")
PY
else
  grep -E "_median" "$OUT/bench.txt" | awk '{print $1, $2, $3}'
fi
exit $status
