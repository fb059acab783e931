#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12): why `stream_cuda` (3M rows, 27 per row: 0.364 ms in bench_spmv, round16)
# is slower than the probe's CSR-Stream kernel it follows (0.286 ms): Nsight Compute (full sections) on both
# kernels, their SASS, and bench_spmv's stream_cuda against the probe once more in the same call.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=30 timeout 100 $bin/bench_spmv_no_cusparse \
  --benchmark_filter='copy|nnz27.*/(stream_cuda|vector_cuda_t8)/' >"$OUT/spmv.txt" 2>&1 || echo "bench rc $?"
grep -E "^(copy|spmv)" "$OUT/spmv.txt" | awk '{print $1, $2, $3}'
s="--set full"
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=1 timeout 120 "$ncu" --clock-control none $s --kernel-name-base demangled \
  -k 'regex:stream_cuda_kernel' -c 1 $bin/bench_spmv_no_cusparse --benchmark_filter='nnz27.*/stream_cuda/' \
  >"$OUT/ncu-stream-cuda.txt" 2>&1 || echo "ncu ppl rc $?"
timeout 120 "$ncu" --clock-control none $s -k regex:spmv_stream -c 1 $bin/spmv_probe --matrix 27 --reps 2 \
  >"$OUT/ncu-stream-probe.txt" 2>&1 || echo "ncu probe rc $?"
for f in cuda probe; do
  echo "-- $f"
  grep -E "^  [a-z].*\(|Duration|Executed Instructions  |DRAM Throughput|Memory Throughput  |L1/TEX Hit|L2 Hit|Achieved Occ|Block Limit|Dynamic Shared|Shared Memory Config|Warp Cycles Per Issued|dram__bytes|lts__t_bytes" \
    "$OUT/ncu-stream-$f.txt" | cut -c1-110 | head -24
done
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$cuobjdump" -sass $bin/bench_spmv_no_cusparse 2>/dev/null | awk '/Function :/{p = /stream_cuda_kernel/} p' >"$OUT/sass-stream-cuda.txt"
"$cuobjdump" -sass $bin/spmv_probe 2>/dev/null | awk '/Function :/{p = /spmv_stream/} p' >"$OUT/sass-stream-probe.txt"
timeout 100 $bin/spmv_probe --matrix 27 --reps 30 >"$OUT/probe.txt" 2>&1 || echo "probe rc $?"
grep -E "copy  |stream<64>" "$OUT/probe.txt"
cd "$OUT" && tar czf /tmp/round17.tgz . && find . -type f -delete && mv /tmp/round17.tgz .
