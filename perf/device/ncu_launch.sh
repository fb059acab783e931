#!/usr/bin/env bash
# On the GPU machine: launch statistics and occupancy (Nsight Compute, clocks left alone) of ppl's tiled kernel and
# of the hand-written kernel of the same design, to explain a speed difference between the two. Needs ncu (the
# Firecracker kind of machine has working counters; on gVisor it fails, which this script reports and survives).
# Writes $OUT/ncu-launch.txt.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -z "$ncu" ]; then
  echo "ncu not found" | tee "$OUT/ncu-launch.txt"
  exit 0
fi
filter=${NCU_BENCH_FILTER:-'256x256x64_40k/(gather_coalesced|baseline_cuda/tiles|gather_hybrid_rsqrt_cuda)/'}
timeout "${NCU_TIMEOUT:-200}" "$ncu" --clock-control none --section LaunchStats --section Occupancy \
  --section SpeedOfLight --section ComputeWorkloadAnalysis -k 'regex:coalesced_kernel|tiles_kernel' -c 6 \
  .device/bin/bench_potential --benchmark_filter="$filter" --benchmark_min_time=0.01 \
  >"$OUT/ncu-launch.txt" 2>&1
echo "ncu exit $?" >>"$OUT/ncu-launch.txt"
grep -E "==PROF==|Registers Per|Shared Memory Config|Dynamic Shared|Static Shared|Block Limit|Achieved Occ|Theoretical Occ|Waves Per SM|Duration|SM Frequency|Issue Slots Busy|SM Busy|coalesced_kernel|tiles_kernel|ncu exit|ERR" \
  "$OUT/ncu-launch.txt" | cut -c1-160 | head -120
