#!/usr/bin/env bash
# On the GPU machine: Nsight Compute (clocks left alone) on ppl's portable `stream` SpMV kernel, on `vector_cuda`,
# and on the probe's CUDA CSR-Stream kernel (perf/sparse/cuda/spmv_probe.cu), all on the 27-per-row matrix with
# about 3M rows, to find why the portable kernel is slower than the same algorithm in plain CUDA.
# Writes $OUT/ncu-spmv.txt (full) and prints the key lines.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "ncu not found" | tee "$OUT/ncu-spmv.txt"; exit 0; }
sections="--section LaunchStats --section Occupancy --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats"
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=3 timeout 200 "$ncu" --clock-control none $sections --kernel-name-base demangled \
  -k 'regex:stream_kernel|vector_cuda_kernel<8>' -c 12 .device/bin/bench_spmv_no_cusparse \
  --benchmark_filter='spmv/nnz27/rows3000000/(stream|vector_cuda_t8)/' >"$OUT/ncu-spmv.txt" 2>&1
echo "ncu (ppl) exit $?" >>"$OUT/ncu-spmv.txt"
if [ -x .device/bin/spmv_probe ] && [ -z "${NCU_SKIP_PROBE:-}" ]; then
  timeout 120 "$ncu" --clock-control none $sections -k 'regex:spmv_stream' -c 1 .device/bin/spmv_probe --matrix 27 \
    --reps 3 >>"$OUT/ncu-spmv.txt" 2>&1
  echo "ncu (probe) exit $?" >>"$OUT/ncu-spmv.txt"
fi
grep -E "^  [a-zA-Z_].*\(|Registers Per|Block Limit|Achieved Occ|Theoretical Occ|Duration|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Mem Busy|Warp Cycles Per Issued|Stall|Dynamic Shared|Static Shared|exit" \
  "$OUT/ncu-spmv.txt" | cut -c1-150 | head -100
