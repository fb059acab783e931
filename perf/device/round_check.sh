#!/usr/bin/env bash
# On the GPU machine, in one call: what a round of merged work needs on CUDA before it lands (tests of the families
# it touched and their targets), one summary line per measurement:
#   1. cutoff (issue 9): perf/device/cutoff.sh's tests and target, and the portable cutoff_binned on the target box;
#   2. ions (issue 10): perf/device/ions.sh (tests, the 400^3 target, CUDA against OpenMP);
#   3. sparse (issue 12): test_sparse_krylov and test_sparse_precond on CUDA (GMRES, ILU(0) through Kokkos Kernels'
#      spiluk/sptrsv), then the 970k-row system of configs/examples/solve_cd_1m.yaml with BiCGSTAB, GMRES(30) and
#      BiCG, Jacobi and ILU(0).
# ROUND_PARTS picks the parts (default "cutoff ions sparse"). Expects .device/bin/{ppl,test_potential_strategies,
# test_spatial,test_ions,test_sparse_krylov,test_sparse_precond} built for CUDA and .device/lib (perf/device/pack.sh).
source perf/device/setup.sh >/dev/null
parts=" ${ROUND_PARTS:-cutoff ions sparse} "
want() { [[ $parts == *" $1 "* ]]; }
bin=.device/bin
if want cutoff; then
  CUTOFF_PARTS="tests target" CUTOFF_TIMEOUT=90 bash perf/device/cutoff.sh | grep -v "^\[ seed\|Skipped\|protein in vacuum"
  timeout 90 "$bin/ppl" run configs/perf/cutoff_water.yaml --set strategy=cutoff_binned \
    --set output.summary="$OUT/water1m-portable.json" >"$OUT/water1m-portable.log" 2>&1 || echo "portable: exit $?"
  grep -E "^time|^efficiency" "$OUT/water1m-portable.log" | sed 's/^/water1m-portable: /'
fi
if want ions; then
  bash perf/device/ions.sh 2>&1 | grep -v "^name,\|^NVIDIA"
fi
if want sparse; then
  echo "== sparse tests"
  for t in test_sparse_krylov test_sparse_precond; do
    timeout 150 stdbuf -oL "$bin/$t" --gtest_brief=1 >"$OUT/$t.log" 2>&1
    echo "$t: exit $?, $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/$t.log" | tr '\n' ' ')"
  done
  echo "== solve_cd_1m (970,299 rows)"
  for v in bicgstab:jacobi gmres:jacobi bicg:jacobi bicgstab:ilu0 gmres:ilu0; do
    m=${v%%:*} p=${v##*:}
    timeout 90 "$bin/ppl" run configs/examples/solve_cd_1m.yaml --set solver.method="$m" \
      --set solver.preconditioner="$p" --set solver.progress_every=0 --set output.summary="$OUT/cd1m-$m-$p.json" \
      --set output.history="$OUT/cd1m-$m-$p.csv" >"$OUT/cd1m-$m-$p.log" 2>&1 || echo "$m+$p: exit $?"
    python3 - "$OUT/cd1m-$m-$p.json" "$m+$p" <<'PY' || true
import json, sys
s = json.load(open(sys.argv[1])); t = s["times"]
print(f"{sys.argv[2]}: {s['outcome']} in {s['iterations']} iterations, true residual {s['true_residual']:.2e}, "
      f"set-up {t['setup']:.3f} s (preconditioner {t['precond_setup']:.3f} s), {t['per_iteration'] * 1e3:.3f} ms per "
      f"iteration, total {t['total']:.3f} s, SpMV {s['spmv']['strategy']}")
PY
  done
fi
