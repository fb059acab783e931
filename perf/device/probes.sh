#!/usr/bin/env bash
# On the GPU machine, in one call: the standalone design probes (no Kokkos, no build there):
#   .device/bin/potential_probe  (perf/potential/cuda/potential_probe.cu)
#   .device/bin/spmv_probe       (perf/sparse/cuda/spmv_probe.cu)
# built here with nvcc for sm_90 (commands at the top of each source). nvidia-smi samples the SM clock, power
# and temperature every 100 ms while they run, so the clock under load is on record beside the rates.
# Writes $OUT/probes.tar.gz (CSV, console logs, clock log, SASS of the probe kernels).
set -uo pipefail
: "${OUT:?OUT must name the output folder}"
work=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
  --format=csv | tee "$work/gpu-before.csv"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv,noheader -lms 100 >"$work/clock-log.csv" 2>&1 &
smi=$!
for probe in ${PROBES:-potential_probe spmv_probe}; do
  [ -x ".device/bin/$probe" ] || { echo "missing .device/bin/$probe"; continue; }
  echo "== $probe $(date +%T)" | tee -a "$work/marks.txt"
  timeout "${PROBE_TIMEOUT:-280}" ".device/bin/$probe" --csv "$work/$probe.csv" 2>&1 | tee "$work/$probe.log"
  echo "== end $probe $(date +%T)" | tee -a "$work/marks.txt"
done
kill $smi 2>/dev/null
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for probe in potential_probe spmv_probe; do
  [ -x ".device/bin/$probe" ] && "$cuobjdump" -sass ".device/bin/$probe" >"$work/sass-$probe.txt" 2>&1
done
# Clock statistics under load (rows with power above 200 W).
awk -F', ' '$4+0 > 200 {n++; s+=$2; if (min==""||$2<min) min=$2; if ($2>max) max=$2}
  END {if (n) printf "SM clock under load (>200 W, %d samples): mean %.0f MHz, min %d, max %d\n", n, s/n, min, max}' \
  "$work/clock-log.csv" | tee "$work/clock-summary.txt"
tar -czf "$OUT/probes.tar.gz" -C "$work" .
