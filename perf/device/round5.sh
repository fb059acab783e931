#!/usr/bin/env bash
# On the GPU machine, the fourth session's check after the block-width and auto changes
# (perf/results/auto-h200): the potential tests on CUDA, strategy: auto on the PMPP plane, the PMPP lattice,
# ubiquitin and the large case, and the PMPP lattice and ubiquitin with each direct strategy by name.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
timeout 300 stdbuf -oL .device/bin/test_potential_strategies --gtest_brief=1 >"$OUT/test_potential_strategies.log" 2>&1
grep -E "Failure|exception|FAILED  \]|PASSED|SKIPPED  \]" "$OUT/test_potential_strategies.log" | head -12
ATOM_SPLIT_PARTS="auto" bash perf/device/atom_split.sh 2>&1 | grep -v "^name\|^NVIDIA"
for s in gather_coalesced gather_atom_split gather_hybrid_rsqrt_cuda; do
  .device/bin/ppl run configs/perf/direct_pmpp.yaml --set strategy=$s --set timing.repeats=10 \
    --set output.summary="$OUT/pmpp-whole-$s.json" >"$OUT/pmpp-whole-$s.log" 2>&1
  echo "pmpp whole $s: $(grep -E '^(time|throughput)' "$OUT/pmpp-whole-$s.log" | tr '\n' ' ')"
  .device/bin/ppl run configs/examples/ubiquitin.yaml --set strategy=$s --set timing.warmup=2 --set timing.repeats=10 \
    --set output.dx=/tmp/u.dx --set output.summary="$OUT/ubq-$s.json" >"$OUT/ubq-$s.log" 2>&1
  echo "ubiquitin $s: $(grep -E '^(time|throughput)' "$OUT/ubq-$s.log" | tr '\n' ' ')"
done
