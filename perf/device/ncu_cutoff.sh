#!/usr/bin/env bash
# On the GPU machine: Nsight Compute on the two cutoff kernels of configs/perf/cutoff_water.yaml (1,000,788 atoms,
# 8.0e7 points, cutcp 12 A), one launch each (clocks left alone): speed of light, compute workload (pipe use),
# warp states (what stalls), instruction statistics, launch and occupancy. Explains where cutoff_binned_cuda stands
# against the rsqrt limit and what the portable kernel loses against it. Writes $OUT/ncu-cutoff-<strategy>.txt.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "ncu not found"; exit 0; }
for s in ${NCU_CUTOFF_STRATEGIES:-cutoff_binned_cuda cutoff_binned}; do
  timeout 240 "$ncu" --clock-control none --kernel-name-base demangled -k 'regex:binned' -c 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section InstructionStats \
    --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis \
    .device/bin/ppl run configs/perf/cutoff_water.yaml -q --set strategy="$s" --set timing.warmup=0 \
    --set timing.repeats=1 --set output.summary="$OUT/ncu-$s.json" >"$OUT/ncu-cutoff-$s.txt" 2>&1
  echo "== $s (ncu exit $?)"
  grep -E "Duration|Compute \(SM\) Throughput|DRAM Throughput|L1/TEX Hit|Issue Slots Busy|Issued Ipc Active|SM Busy|Executed Ipc|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Size|Grid Size|Stall|Warp Cycles Per Issued|Executed Instructions  |One or More Eligible|No Eligible|Active Warps Per" \
    "$OUT/ncu-cutoff-$s.txt" | cut -c1-120 | head -40
done
