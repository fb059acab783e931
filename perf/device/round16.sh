#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12): the new `stream_cuda` strategy and the `auto` rule that picks it, the
# portable `stream` with its phase 2 rewritten, the GPU reductions of round15:
#   1. perf/device/spmv.sh at 1M and 3M rows (test_sparse_spmv on CUDA, every strategy, cuSPARSE, copy);
#   2. test_sparse_krylov on CUDA;
#   3. bench_krylov: BiCGSTAB and BiCG + Jacobi with auto, vector_cuda, stream_cuda and stream, 27 per row at 1M
#      and 3M rows, 81 per row at 3M;
#   4. Nsight Compute: the portable stream kernel's instruction mix against the probe's.
# Expects .device/bin/{bench_spmv,bench_spmv_no_cusparse,test_sparse_spmv,test_sparse_krylov,bench_krylov,
# spmv_probe}, .device/lib.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
echo "== 1. SpMV"
PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 PPL_SPMV_PART_TIMEOUT=150 bash perf/device/spmv.sh 2>&1 |
  grep -vE "^  |^\.device|^found|^== ldd" | tail -22
echo "== 2. test_sparse_krylov (CUDA)"
gtest_run $bin/test_sparse_krylov test_sparse_krylov.log
echo "== 3. bench_krylov"
krylov_run krylov $bin/bench_krylov \
  '^bicg[a-z]*/(auto|vector_cuda|stream_cuda|stream)/jacobi/cd27/|^bicgstab/(auto|vector_cuda|stream_cuda)/jacobi/cd81/rows:3' \
  1000000,3000000 200
echo "== 4. Nsight Compute: stream kernels"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
s="--section InstructionStats --section LaunchStats --section SpeedOfLight --section MemoryWorkloadAnalysis"
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=1 timeout 90 "$ncu" --clock-control none $s --kernel-name-base demangled \
  -k 'regex:stream_kernel|stream_cuda_kernel' -c 2 $bin/bench_spmv_no_cusparse --benchmark_filter='nnz27.*/stream' \
  >"$OUT/ncu-stream-ppl.txt" 2>&1 || echo "ncu ppl rc $?"
timeout 90 "$ncu" --clock-control none $s -k regex:spmv_stream -c 1 $bin/spmv_probe --matrix 27 --reps 2 \
  >"$OUT/ncu-stream-probe.txt" 2>&1 || echo "ncu probe rc $?"
grep -hE "^  [a-z].*\(|Duration|Executed Instructions  |DRAM Throughput|Registers Per|L1/TEX Hit|L2 Hit" \
  "$OUT/ncu-stream-ppl.txt" "$OUT/ncu-stream-probe.txt" | cut -c1-120
cd "$OUT" && tar czf /tmp/round16.tgz . && find . -type f -delete && mv /tmp/round16.tgz .
