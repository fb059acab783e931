#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12): the GPU reductions of src/sparse/vector_ops.cpp rewritten (teams of
# one wave, partials added by the last team), against the binaries of round14 (`*_before`, Kokkos' range
# reduction: PPL_VEC_REDUCE_LEAGUE=0) in the same call; the CUDA Krylov tests; the portable stream kernel's
# instruction mix against the probe's (Nsight Compute, InstructionStats) and its SASS.
# Expects .device/bin/{bench_vector_ops,bench_krylov,bench_spmv_no_cusparse,test_sparse_krylov,spmv_probe} and the
# `_before` binaries, .device/lib.
source perf/device/setup.sh
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
echo "== test_sparse_krylov (CUDA)"
gtest_run $bin/test_sparse_krylov test_sparse_krylov.log
vec() {  # label, binary
  PPL_VEC_REDUCE_LEAGUE=0 PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 timeout 90 $bin/$2 \
    --benchmark_out="$OUT/vec_$1.json" --benchmark_out_format=json >"$OUT/vec_$1.txt" 2>&1 || echo "vec $1 rc $?"
  echo "-- $1"
  grep -E "^(copy|vec)" "$OUT/vec_$1.txt" | sed -E 's/ +[0-9.]+ [um]s +[0-9.]+ [um]s +[0-9]+//; s/iterations:[0-9]+.manual_time//' | cut -c1-120
}
krylov() {  # label, binary
  echo "-- $1"
  PPL_VEC_REDUCE_LEAGUE=0 krylov_run krylov_$1 $bin/$2 '^bicg[a-z]*/(vector_cuda|stream)/jacobi/cd27/' 1000000,3000000 150
}
echo "== vector kernels"
vec before bench_vector_ops_before
vec after bench_vector_ops
echo "== bench_krylov"
krylov before bench_krylov_before
krylov after bench_krylov
krylov after2 bench_krylov
echo "== SpMV at 3M rows"
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=30 timeout 150 $bin/bench_spmv_no_cusparse \
  --benchmark_filter='copy|nnz27.*/(stream|vector_cuda_t8)/' --benchmark_out="$OUT/spmv.json" \
  --benchmark_out_format=json >"$OUT/spmv.txt" 2>&1 || echo "bench_spmv rc $?"
grep -E "^(copy|spmv)" "$OUT/spmv.txt" | sed -E 's/ +[0-9.]+ ms +[0-9.]+ ms +[0-9]+//' | cut -c1-130
echo "== Nsight Compute: instruction mix of the two stream kernels"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
s="--section InstructionStats --section LaunchStats --section SpeedOfLight --print-details all"
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=1 timeout 90 "$ncu" --clock-control none $s -k regex:stream_kernel -c 1 \
  $bin/bench_spmv_no_cusparse --benchmark_filter='nnz27.*/stream/' >"$OUT/ncu-stream-ppl.txt" 2>&1 || echo "ncu ppl rc $?"
timeout 90 "$ncu" --clock-control none $s -k regex:spmv_stream -c 1 $bin/spmv_probe --matrix 27 --reps 2 \
  >"$OUT/ncu-stream-probe.txt" 2>&1 || echo "ncu probe rc $?"
for f in ppl probe; do echo "-- $f"; grep -E "Duration|Executed Ipc|Issued Warp|Executed Instructions|Registers" "$OUT/ncu-stream-$f.txt" | head -8; done
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$cuobjdump" -sass $bin/bench_spmv_no_cusparse 2>/dev/null | awk '/Function :/{p = /stream_kernel/} p' >"$OUT/sass-stream-ppl.txt"
"$cuobjdump" -sass $bin/spmv_probe 2>/dev/null | awk '/Function :/{p = /spmv_stream/} p' >"$OUT/sass-stream-probe.txt"
wc -l "$OUT"/sass-*.txt
cd "$OUT" && tar czf /tmp/round15.tgz . && find . -type f -delete && mv /tmp/round15.tgz .
