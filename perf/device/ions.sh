#!/usr/bin/env bash
# On the GPU machine, in one call: issue 10's ion-placement measurements (docs/ions.md).
#   1. test_ions on the CUDA backend (placement vs float64, masks, ties, the job end to end);
#   2. the target: configs/perf/ions_100k_400.yaml (100,000 atoms, 400^3 at 0.5 A, 150 ions), three runs with
#      gather_coalesced, one with gather_hybrid_rsqrt_cuda, one with the 12 A cutoff (cutoff_binned, then cutoff_binned_cuda); per run the
#      map time, mask time, placement time and median time per ion, JSON summaries in $OUT;
#   3. CUDA against OpenMP: configs/examples/ions_actin.yaml at 2 A, its placed points compared with the OpenMP run
#      committed in perf/results/ions-openmp/actin_2A.json (the maps differ in the last bits, MUFU rsqrt against
#      Newton steps, so a near-tie may go the other way; the first difference is printed).
# IONS_PARTS picks the parts (default "tests target compare").
# Expects .device/bin/{ppl,test_ions} built for CUDA (perf/device/pack.sh) and .device/lib.
source perf/device/setup.sh
set -o pipefail
bin=.device/bin
parts=" ${IONS_PARTS:-tests target compare} "
want() { [[ $parts == *" $1 "* ]]; }
summary() {  # summary JSON: one line of the times that matter
  python3 - "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); i = s["ions"]
print(f"{sys.argv[1].split('/')[-1]}: map {s['timing']['median_s']:.4f} s ({s['atom_evaluations_per_s']:.3e}/s), "
      f"mask {i['mask_seconds']:.4f} s, placement {i['placement_seconds'] * 1e3:.2f} ms for {len(i['placed'])} ions, "
      f"per ion median {i['per_ion_seconds']['median'] * 1e3:.4f} ms (min {i['per_ion_seconds']['min'] * 1e3:.4f}, "
      f"max {i['per_ion_seconds']['max'] * 1e3:.4f})")
PY
}
run() {  # run NAME CONFIG ARGS...: one job, timed as a whole, summary as $OUT/NAME.json, log as $OUT/NAME.log
  local name=$1 cfg=$2
  shift 2
  local t0=$(date +%s.%N) t1
  timeout "${IONS_TIMEOUT:-300}" "$bin/ppl" run "$cfg" --set output.summary="$OUT/$name.json" "$@" >"$OUT/$name.log" 2>&1 ||
    echo "$name: exit $?"
  t1=$(date +%s.%N)
  echo "$name: whole job $(python3 -c "print(f\"{$t1 - $t0:.3f}\")") s"
  [ -f "$OUT/$name.json" ] && summary "$OUT/$name.json"
}
if want tests; then
  echo "== tests"
  timeout 200 "$bin/test_ions" --gtest_brief=1 >"$OUT/test_ions.log" 2>&1
  tail -3 "$OUT/test_ions.log"
fi
if want target; then
  echo "== target"
  for r in 1 2 3; do run "ions100k-run$r" configs/perf/ions_100k_400.yaml; done
  run ions100k-hybrid configs/perf/ions_100k_400.yaml --set strategy=gather_hybrid_rsqrt_cuda
  run ions100k-cutoff configs/perf/ions_100k_400_cutoff.yaml
  run ions100k-cutoff-cuda configs/perf/ions_100k_400_cutoff.yaml --set strategy=cutoff_binned_cuda
fi
if want compare; then
  echo "== CUDA against OpenMP"
  (cd "$OUT" && timeout 120 "$OLDPWD/$bin/ppl" run "$OLDPWD/configs/examples/ions_actin.yaml" -q \
    --set lattice.spacing=2.0 --set output.summary="$OUT/actin_2A.json" >"$OUT/actin_2A.log" 2>&1 &&
    rm -f actin_ions.pqr actin_ions.pdb actin_potential.dx actin_potential_ions.dx) || echo "actin_2A: exit $?"
  python3 - "$OUT/actin_2A.json" perf/results/ions-openmp/actin_2A.json <<'PY'
import json, sys
a, b = (json.load(open(p))["ions"]["placed"] for p in sys.argv[1:3])
same = next((n for n, (x, y) in enumerate(zip(a, b)) if x["point"] != y["point"]), None)
if same is None and len(a) == len(b):
    print(f"all {len(a)} ions at the same points on CUDA and OpenMP")
else:
    n = same if same is not None else min(len(a), len(b))
    print(f"first {n} of {len(b)} ions agree; ion {n + 1}: CUDA {a[n]['point'] if n < len(a) else None} "
          f"(V {a[n]['potential'] if n < len(a) else None}), OpenMP {b[n]['point']} (V {b[n]['potential']})")
PY
fi
