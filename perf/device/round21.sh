#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12):
#   1. the portable `stream` built against Kokkos 4.6.01 (cuda-k46 preset; Kokkos 4.x sets a per-kernel L1/shared
#      carveout from the shared memory a launch needs, where 3.4 prefers shared memory), beside stream_cuda and
#      vector_cuda of the same build, 27 and 81 per row at 3M rows; Nsight Compute on its stream kernel;
#   2. BiCG with its next direction updates queued during the scalar copy, against round20's binary
#      (`bench_krylov_r20`, BiCGSTAB's overlap only), alternated twice; the CUDA Krylov tests.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
echo "== 1. Kokkos 4.6 build: SpMV"
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=30 timeout 150 $bin/bench_spmv_k46 \
  --benchmark_filter='copy|/(stream|stream_cuda|vector_cuda_t8|vector_cuda_t16)/' --benchmark_out="$OUT/spmv-k46.json" \
  --benchmark_out_format=json >"$OUT/spmv-k46.txt" 2>&1 || echo "bench_spmv_k46 rc $?"
grep -E "^(copy|spmv)" "$OUT/spmv-k46.txt" | awk '{print $1, $2, $3, $6}'
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=1 timeout 120 "$ncu" --clock-control none --section SpeedOfLight \
  --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section InstructionStats \
  --kernel-name-base demangled -k 'regex:stream_kernel' -c 1 $bin/bench_spmv_k46 --benchmark_filter='nnz27.*/stream/' \
  >"$OUT/ncu-stream-k46.txt" 2>&1 || echo "ncu rc $?"
grep -E "Duration|Executed Instructions  |DRAM Throughput|L1/TEX Hit|Shared Memory Config|Achieved Occ|Registers Per" \
  "$OUT/ncu-stream-k46.txt" | cut -c1-100
echo "== 2. test_sparse_krylov (CUDA)"
gtest_run $bin/test_sparse_krylov test_sparse_krylov-cuda.log
for round in 1 2; do
  for v in r20 after; do
    exe=$bin/bench_krylov; [ $v = r20 ] && exe=$bin/bench_krylov_r20
    echo "-- $v, round $round"
    krylov_run krylov_${v}_$round $exe '^bicg/auto/jacobi/cd27/|^bicgstab/auto/jacobi/cd27/rows:3' \
      100000,1000000,3000000 150
  done
done
cd "$OUT" && tar czf /tmp/round21.tgz . && find . -type f -delete && mv /tmp/round21.tgz .
