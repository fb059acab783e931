#!/usr/bin/env bash
# On the GPU machine, in one call: issue 9's cutoff measurements.
#   1. the cutoff and registry tests of test_potential_strategies and test_spatial on the CUDA backend;
#   2. the target: configs/perf/cutoff_water.yaml (1,000,788 atoms, 8.0e7 points, cutcp 12 A) with cutoff_binned_cuda,
#      three runs (each: binning once, then 1 warm-up + 5 timed computes), JSON summaries in $OUT;
#   3. parameter choices of cutoff_binned and cutoff_binned_cuda on the same box (one run each);
#   4. the scale series: water boxes of 10k..1M atoms (lattice over the box at 0.5 A) with cutoff_binned_cuda, and direct
#      summation (gather_coalesced, coulomb) on the smaller ones for the crossover;
#   5. the direct strategies re-measured: configs/perf/direct_pmpp.yaml (PMPP atoms, whole lattice) with gather_coalesced and
#      gather_hybrid_rsqrt_cuda.
# CUTOFF_PARTS picks the parts (default "tests target params scale direct"); CUTOFF_RUNS the target's runs (3);
# CUTOFF_STRATEGY the strategy of the target and the scale series (cutoff_binned_cuda).
# Expects .device/bin/{ppl,test_potential_strategies,test_spatial} built for CUDA (perf/device/pack.sh or a
# narrower build) and .device/lib.
source perf/device/setup.sh
set -o pipefail
bin=.device/bin
cfg=configs/perf/cutoff_water.yaml
run() {  # run NAME ARGS...: one job, its summary as $OUT/NAME.json, its log as $OUT/NAME.log
  local name=$1
  shift
  timeout "${CUTOFF_TIMEOUT:-300}" "$bin/ppl" run "$cfg" --set output.summary="$OUT/$name.json" "$@" >"$OUT/$name.log" 2>&1 ||
    echo "$name: exit $?"
  # one line per run: median, set-up, efficiency, verification
  awk -v n="$name" '/^time /{t=$3" (min "$6" max "$9")"} /^set-up /{s=$2} /^efficiency /{e=$2}
    /^verification /{v=$10" "$13} /^strategy .*setup_upload_s/{sub(/.*stencil_bins/, "stencil_bins"); b=$0}
    END{printf "%-20s median %s | set-up %s | eff %s | err %s | %s\n", n, t, s, e, v, b}' "$OUT/$name.log"
}
strategy=${CUTOFF_STRATEGY:-cutoff_binned_cuda}  # the target's and the scale series' strategy
parts=" ${CUTOFF_PARTS:-tests target params scale direct} "
want() { [[ $parts == *" $1 "* ]]; }
if want tests; then
echo "== tests"
timeout 200 stdbuf -oL "$bin/test_potential_strategies" --gtest_brief=1 \
  --gtest_filter='*Cutoff*:Registry/PotentialStrategy.*:Edges/*:Sweep/*' >"$OUT/test_potential_strategies.log" 2>&1
tail -3 "$OUT/test_potential_strategies.log"
timeout 60 stdbuf -oL "$bin/test_spatial" --gtest_brief=1 >"$OUT/test_spatial.log" 2>&1
tail -3 "$OUT/test_spatial.log"
fi
if want target; then
echo "== target"
for r in $(seq 1 "${CUTOFF_RUNS:-3}"); do run "water1m-run$r" --set strategy="$strategy"; done
fi
if want params; then
echo "== parameters and strategies (one run each)"
# NAME STRATEGY PARAMS: the portable kernel's atom test and coarsening, then cutoff_binned_cuda's shapes.
while read -r name variant params; do
  [ -n "$name" ] || continue
  run "water1m-$name" --set strategy="$variant" --set "strategy_params=$params" --set timing.repeats=3
done <<'VARIANTS'
binned-c8-cyl cutoff_binned {atom_test: cylinder}
binned-default cutoff_binned {}
binned-c4 cutoff_binned {coarsening: 4}
binned-s128 cutoff_binned {stage_atoms: 128}
binned-s512 cutoff_binned {stage_atoms: 512}
binned-s1024 cutoff_binned {stage_atoms: 1024}
binned-edge3 cutoff_binned {bin_edge: 3.0}
cuda-cyl cutoff_binned_cuda {atom_test: cylinder}
cuda-c4 cutoff_binned_cuda {coarsening: 4}
cuda-c16-r16 cutoff_binned_cuda {coarsening: 16, region: [16, 8, 8]}
cuda-c8-r16 cutoff_binned_cuda {coarsening: 8, region: [16, 8, 8]}
cuda-r8x4x8 cutoff_binned_cuda {region: [8, 4, 8]}
cuda-s128 cutoff_binned_cuda {stage_atoms: 128}
cuda-edge3 cutoff_binned_cuda {bin_edge: 3.0}
cuda-c4-edge3 cutoff_binned_cuda {coarsening: 4, bin_edge: 3.0}
cuda-edge2 cutoff_binned_cuda {bin_edge: 2.0}
large-bins cutoff_large_bins {}
VARIANTS
fi
if want scale; then
echo "== scale"
for n in 21.5:43 46.4:93 100:200 146.5:293 215.5:431; do
  side=${n%%:*} dims=${n##*:}
  run "scale-binned-$dims" --set strategy="$strategy" --set "input.water_box.size=[$side,$side,$side]" --set "lattice.dims=[$dims,$dims,$dims]" \
    --set timing.repeats=3
done
for n in 21.5:43 46.4:93 100:200; do
  side=${n%%:*} dims=${n##*:}
  run "scale-direct-$dims" --set "input.water_box.size=[$side,$side,$side]" --set "lattice.dims=[$dims,$dims,$dims]" \
    --set strategy=gather_coalesced --set 'physics.interaction={kind: coulomb}' \
    --set timing.repeats=3
done
fi
if want direct; then
echo "== direct summation re-measured"
for s in gather_coalesced gather_hybrid_rsqrt_cuda; do
  timeout 120 "$bin/ppl" run configs/perf/direct_pmpp.yaml --set strategy=$s --set output.summary="$OUT/pmpp-$s.json" \
    >"$OUT/pmpp-$s.log" 2>&1 || echo "pmpp $s: exit $?"
  grep -E "median|throughput" "$OUT/pmpp-$s.log" | sed "s/^/pmpp $s: /"
done
fi
