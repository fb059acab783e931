#!/usr/bin/env bash
# On the GPU machine, in one call: issue 9's cutoff measurements.
#   1. the cutoff and registry tests of test_potential_strategies and test_spatial on the CUDA backend;
#   2. the target: configs/perf/cutoff_water.yaml (1,000,788 atoms, 8.0e7 points, cutcp 12 A) with cutoff_binned,
#      three runs (each: binning once, then 1 warm-up + 5 timed computes), JSON summaries in $OUT;
#   3. a few parameter choices of cutoff_binned on the same box;
#   4. the scale series: water boxes of 10k..1M atoms (lattice over the box at 0.5 A) with cutoff_binned, and direct
#      summation (gather_coalesced, coulomb) on the smaller ones for the crossover;
#   5. the direct strategies re-measured: configs/perf/direct_pmpp.yaml (PMPP atoms, whole lattice) with gather_coalesced and
#      gather_hybrid_rsqrt_cuda.
# CUTOFF_PARTS picks the parts (default "tests target params scale direct"); CUTOFF_RUNS the target's runs (3).
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
  grep -E "set-up|median|efficiency|verification " "$OUT/$name.log" | sed "s/^/$name: /"
}
parts=" ${CUTOFF_PARTS:-tests target params scale direct} "
want() { [[ $parts == *" $1 "* ]]; }
if want tests; then
echo "== tests"
timeout 200 "$bin/test_potential_strategies" --gtest_brief=1 \
  --gtest_filter='*Cutoff*:Registry/PotentialStrategy.*:Edges/*:Sweep/*' >"$OUT/test_potential_strategies.log" 2>&1
tail -3 "$OUT/test_potential_strategies.log"
timeout 60 "$bin/test_spatial" --gtest_brief=1 >"$OUT/test_spatial.log" 2>&1
tail -3 "$OUT/test_spatial.log"
fi
if want target; then
echo "== target"
for r in $(seq 1 "${CUTOFF_RUNS:-3}"); do run "water1m-run$r"; done
fi
if want params; then
echo "== parameters"
run water1m-cap8 --set 'strategy_params={bin_capacity: 8}'  # overflow summed on the host
run water1m-c8 --set 'strategy_params={coarsening: 8}'
run water1m-stage8 --set 'strategy_params={bins_per_stage: 8}'
run water1m-edge3 --set 'strategy_params={bin_edge: 3.0}'
fi
if want scale; then
echo "== scale"
for n in 21.5:43 46.4:93 100:200 146.5:293 215.5:431; do
  side=${n%%:*} dims=${n##*:}
  run "scale-binned-$dims" --set "input.water_box.size=[$side,$side,$side]" --set "lattice.dims=[$dims,$dims,$dims]" \
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
