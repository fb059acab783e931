#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12): vector_cuda launched by ppl itself (<<<...>>> with 128 or 256 threads
# per block and cudaFuncCachePreferL1) against Kokkos 3.4's RangePolicy launch (64 threads per block, its deduced
# choice; round22's binary) and the Kokkos 4.6 build (128 per block), with stream_cuda beside, 1M and 3M rows.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
for v in kokkos64 b128 b256 k46 b128; do
  PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 timeout 120 $bin/bench_spmv_$v \
    --benchmark_filter='copy|/(stream_cuda|vector_cuda_t8|vector_cuda_t16)/' --benchmark_out="$OUT/spmv-$v.json" \
    --benchmark_out_format=json >"$OUT/spmv-$v.txt" 2>&1 || echo "$v rc $?"
  echo "-- $v"
  grep -E "^(copy|spmv)" "$OUT/spmv-$v.txt" | awk '{print $1, $2, $3}' | sed 's/iterations:30.manual_time//'
done
cd "$OUT" && tar czf /tmp/round23.tgz . && find . -type f -delete && mv /tmp/round23.tgz .
