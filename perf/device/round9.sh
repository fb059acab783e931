#!/usr/bin/env bash
# On the GPU machine, the session's fourth measuring call (2026-12-01), after the auto rule's per-SM load test and
# eight-point groups in the ion placement: round5.sh (the potential tests on CUDA, strategy: auto on the PMPP plane,
# the PMPP lattice, ubiquitin and the large case, each direct strategy by name), then ions.sh's tests and target.
# Everything comes back in $OUT/round9.tgz.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
bash perf/device/round5.sh
IONS_PARTS="tests target" bash perf/device/ions.sh 2>&1 | grep -v "^name\|NVIDIA H200,"
tar czf /tmp/round9.tgz -C "$OUT" . && find "$OUT" -type f -delete && mv /tmp/round9.tgz "$OUT"/
