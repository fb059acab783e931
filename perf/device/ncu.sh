#!/usr/bin/env bash
# Nsight Compute on one named kernel of ppl (clocks left alone: --clock-control none), to explain a measured time.
#
#   perf/device/ncu.sh RESULTS_DIR TARGET                 e.g. perf/device/ncu.sh perf/results/ncu-h200 spmv-stream-cuda
#   perf/device/ncu.sh RESULTS_DIR custom KERNEL_REGEX PROGRAM ARGS...
#
# Targets (the kernel, and the program that launches it):
#   spmv-stream-cuda   stream_cuda's kernel, 27 per row, 3M rows (bench_spmv_no_cusparse)
#   spmv-stream        the portable stream kernel, same matrix
#   spmv-vector-cuda   vector_cuda with 16 threads per row, 81 per row, 3M rows
#   vector-ops         the Krylov reductions dots3 and xr_update_dots at 3M rows (bench_vector_ops)
#   cutoff             both cutoff kernels on the 1M-atom water box (configs/perf/cutoff_water.yaml), one launch each
#   potential-tiles    gather_coalesced's tiled kernel and the hand-written one of perf/baselines/ on 256x256x64, 40k
#                      atoms (bench_potential)
#   ions               the placement kernels (bounded_*: select, bounds, first, candidates, finish; the full pass's
#                      select and add_ion with --set ions.algorithm=full_pass) of configs/perf/ions_100k_400_cutoff.yaml, 3 ions
# NCU_SECTIONS replaces the sections (default: SpeedOfLight, LaunchStats, Occupancy, MemoryWorkloadAnalysis,
# ComputeWorkloadAnalysis, WarpStateStats, InstructionStats); NCU_COUNT the launches profiled per kernel (default 1).
# Writes RESULTS/ncu-TARGET.txt.gz and the key lines into README.md.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
target=${2:-}
[ -n "$target" ] || die "usage: $(basename "$0") RESULTS_DIR TARGET (spmv-stream-cuda, spmv-stream, spmv-vector-cuda, vector-ops, cutoff, potential-tiles, ions, custom)"
driver_start "Nsight Compute: $target (perf/device/ncu.sh)" "$@"
ncu=$(ncu_path)
[ -n "$ncu" ] || die "Nsight Compute (ncu) not found"
read -r -a sections <<<"${NCU_SECTIONS:-SpeedOfLight LaunchStats Occupancy MemoryWorkloadAnalysis ComputeWorkloadAnalysis WarpStateStats InstructionStats}"
count=${NCU_COUNT:-1}

profile() {  # profile NAME KERNEL PROGRAM ARGS...: one ncu run, its report in RESULTS/NAME.log
  local name=$1 kernel=$2 s args=(--clock-control none --kernel-name-base demangled -c "$count")
  shift 2
  for s in "${sections[@]}"; do args+=(--section "$s"); done
  step "$name" 400 "$ncu" "${args[@]}" -k "$kernel" "$@"
}
case $target in
  spmv-stream-cuda | spmv-stream | spmv-vector-cuda)
    export PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=1
    case $target in
      spmv-stream-cuda) kernel='regex:stream_cuda_kernel' filter='nnz27/.*/stream_cuda/' ;;
      spmv-stream) kernel='regex:^.*stream_kernel' filter='nnz27/.*/stream/' ;;
      *) kernel='regex:vector_cuda_kernel' filter='nnz81/.*/vector_cuda_t16/' ;;
    esac
    cmd=("$(exe bench_spmv_no_cusparse)" --benchmark_filter="$filter") ;;
  vector-ops)
    export PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=1
    kernel='regex:dots3|xr_update_dots'
    count=${NCU_COUNT:-2}
    cmd=("$(exe bench_vector_ops)" --benchmark_filter='^vec/(dots3|xr_update_dots)/') ;;
  cutoff)
    kernel='regex:binned'
    PPL=$(exe ppl)
    for s in cutoff_binned_cuda cutoff_binned; do
      profile "ncu-cutoff-$s" "$kernel" "$PPL" run configs/perf/cutoff_water.yaml -q \
        --set strategy="$s" --set timing.warmup=0 --set timing.repeats=1 --set output.summary="$RESULTS/$s.json"
    done
    cmd=() ;;
  potential-tiles)
    kernel='regex:coalesced_kernel|tiles_kernel'
    cmd=("$(exe bench_potential)" --benchmark_filter='256x256x64_40k/(gather_coalesced|baseline_cuda/tiles)/min_time'
      --benchmark_min_time=0.01) ;;
  ions)
    kernel='regex:add_ion|select_point|bounded_'
    cmd=("$(exe ppl)" run configs/perf/ions_100k_400_cutoff.yaml -q --set 'ions.counts={Na+: 3}'
      --set output.summary="$RESULTS/ions.json") ;;
  custom)
    [ $# -ge 4 ] || die "usage: $(basename "$0") RESULTS_DIR custom KERNEL_REGEX PROGRAM ARGS..."
    kernel="regex:$3"
    cmd=("${@:4}") ;;
  *) die "unknown target $target" ;;
esac
if [ ${#cmd[@]} -gt 0 ]; then
  profile "ncu-$target" "$kernel" "${cmd[@]}"
fi
for log in "$RESULTS"/ncu-*.log; do
  [ -f "$log" ] || continue
  { grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Compute \(SM\) Throughput|Issue Slots Busy|Executed Ipc|Executed Instructions  |Registers Per|Block Size|Grid Size|Shared Memory Config|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|==ERR|==WARNING" \
    "$log" || true; } | cut -c1-140 | head -80 | record "$(basename "$log" .log)"
  gzip -f "$log"
done
driver_end
