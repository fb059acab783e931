#!/usr/bin/env bash
# On the GPU machine, the session's last check (2026-12-01), with the final binaries: test_potential_strategies and
# test_ions on CUDA, and strategy: auto on the PMPP plane, the PMPP lattice, ubiquitin and the large case
# (perf/device/atom_split.sh auto; a full lattice now gets gather_hybrid_rsqrt_cuda). Into $OUT/round12.tgz.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
timeout 300 .device/bin/test_potential_strategies --gtest_brief=1 >"$OUT/test_potential_strategies.log" 2>&1
grep -E "Failure|FAILED  \]|PASSED|SKIPPED  \]" "$OUT/test_potential_strategies.log" | head -8
timeout 200 .device/bin/test_ions --gtest_brief=1 >"$OUT/test_ions.log" 2>&1
tail -3 "$OUT/test_ions.log"
ATOM_SPLIT_PARTS="auto" bash perf/device/atom_split.sh 2>&1 | grep -v "^name\|^NVIDIA"
tar czf /tmp/round12.tgz -C "$OUT" . && find "$OUT" -type f -delete && mv /tmp/round12.tgz "$OUT"/
