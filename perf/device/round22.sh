#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12): the SpMV strategies of the Kokkos 4.6.01 CUDA build
# (bench_spmv_k46) and of the Kokkos 3.4 build (bench_spmv_no_cusparse) at 1M and 3M rows, 27 and 81 per row, in
# one call; Nsight Compute launch and memory figures of vector_cuda [16] and stream_cuda at 81 per row in both.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
filter='copy|/(stream|stream_cuda|vector_cuda_t8|vector_cuda_t16)/'
for v in k34 k46; do
  exe=$bin/bench_spmv_no_cusparse; [ $v = k46 ] && exe=$bin/bench_spmv_k46
  PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 timeout 150 $exe --benchmark_filter="$filter" \
    --benchmark_out="$OUT/spmv-$v.json" --benchmark_out_format=json >"$OUT/spmv-$v.txt" 2>&1 || echo "$v rc $?"
  echo "-- Kokkos ${v#k}"
  grep -E "^(copy|spmv)" "$OUT/spmv-$v.txt" | awk '{print $1, $2, $3}'
done
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
for v in k34 k46; do
  exe=$bin/bench_spmv_no_cusparse; [ $v = k46 ] && exe=$bin/bench_spmv_k46
  for k in vector_cuda_t16 stream_cuda; do
    PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=1 timeout 90 "$ncu" --clock-control none --section SpeedOfLight \
      --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --kernel-name-base demangled \
      -k 'regex:vector_cuda_kernel|stream_cuda_kernel' -c 1 $exe --benchmark_filter="nnz81/rows3000000/$k/" \
      >"$OUT/ncu-$v-$k.txt" 2>&1 || echo "ncu $v $k rc $?"
    echo "-- ncu $v $k"
    grep -E "Duration|DRAM Throughput|L1/TEX Hit|L2 Hit|Shared Memory Config|Block Size|Achieved Occ|Registers Per" \
      "$OUT/ncu-$v-$k.txt" | cut -c1-90
  done
done
cd "$OUT" && tar czf /tmp/round22.tgz . && find . -type f -delete && mv /tmp/round22.tgz .
