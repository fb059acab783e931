#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12, the two targets still open):
#   1. SpMV: the portable `stream` kernel (registers without spills, row offsets in scratch) against vector_cuda [8]
#      and the copy bandwidth, 3M rows, 27 per row; then the plain-CUDA probe (its stream kernel with cache hints
#      and with plain loads, the bisection between the two);
#   2. the Krylov vector kernels one at a time (bench_vector_ops), 1M and 3M rows, for each reduction launch
#      shape: PPL_VEC_REDUCE_LEAGUE=0 is Kokkos' RangePolicy reduction (at most 256 blocks), k > 0 a TeamPolicy of
#      k teams per multiprocessor whose threads stride over the items;
#   3. bench_krylov, BiCGSTAB + Jacobi with vector_cuda and stream, 1M and 3M rows, for the same shapes;
#   4. Nsight Compute on the reductions (both shapes) and on the two stream kernels.
# Expects .device/bin/{bench_spmv_no_cusparse,spmv_probe,bench_vector_ops,bench_krylov}, .device/lib.
source perf/device/setup.sh
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
leagues=${ROUND14_LEAGUES:-0 2 4 8}
echo "== 1. SpMV at 3M rows"
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=30 timeout 150 $bin/bench_spmv_no_cusparse \
  --benchmark_filter='copy|/(stream|vector_cuda_t8)/' --benchmark_out="$OUT/spmv.json" \
  --benchmark_out_format=json >"$OUT/spmv.txt" 2>&1 || echo "bench_spmv rc $?"
grep -E "copy|stream|vector_cuda" "$OUT/spmv.txt" | sed -E 's/ +[0-9.]+ ms +[0-9.]+ ms +[0-9]+//' | cut -c1-170
timeout 150 $bin/spmv_probe --matrix 27 --reps 30 --csv "$OUT/probe.csv" >"$OUT/probe.txt" 2>&1 || echo "probe rc $?"
grep -E "copy|read|stream|vector<8>/b256|best" "$OUT/probe.txt" | head -12
echo "== 2. vector kernels"
for k in $leagues; do
  PPL_VEC_REDUCE_LEAGUE=$k PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 PPL_COPY_GIB=2 timeout 90 \
    $bin/bench_vector_ops --benchmark_out="$OUT/vec_k$k.json" --benchmark_out_format=json >"$OUT/vec_k$k.txt" 2>&1 ||
    echo "bench_vector_ops k=$k rc $?"
  echo "-- league $k"
  grep -E "^(copy|vec)" "$OUT/vec_k$k.txt" | sed -E 's/ +[0-9.]+ [um]s +[0-9.]+ [um]s +[0-9]+//' | cut -c1-150
done
echo "== 3. bench_krylov"
for k in $leagues; do
  echo "-- league $k"
  PPL_VEC_REDUCE_LEAGUE=$k krylov_run krylov_k$k $bin/bench_krylov '^bicgstab/(vector_cuda|stream)/jacobi/cd27/' \
    1000000,3000000 100
done
echo "== 4. Nsight Compute"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_registers,sm__maximum_warps_per_active_cycle_pct
for k in 0 4; do
  for kern in dots3 xr_update_dots axpby_jacobi; do
    [ $k != 0 ] && [ $kern = axpby_jacobi ] && continue
    PPL_VEC_REDUCE_LEAGUE=$k PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=1 timeout 60 "$ncu" --clock-control none \
      --cache-control none --metrics $metrics --kernel-name-base demangled -k "regex:${kern%_jacobi}" -c 2 \
      $bin/bench_vector_ops --benchmark_filter="^vec/$kern/" >>"$OUT/ncu_vec_k$k.txt" 2>&1 || echo "ncu k=$k $kern rc $?"
  done
done
grep -E "functor|gpu__time|dram__|warps_active|grid_size|registers_per" "$OUT"/ncu_vec_k*.txt | sed -E 's/Kokkos::Impl:://g; s/\(anonymous namespace\):://g' | cut -c1-190 | head -90
timeout 200 bash perf/device/ncu_spmv.sh >/dev/null 2>&1 || echo "ncu_spmv rc $?"
grep -E "^  [a-zA-Z_].*\(|Registers Per|Achieved Occ|Theoretical Occ|Duration|DRAM Throughput|exit" "$OUT/ncu-spmv.txt" | cut -c1-150 | head -40
cd "$OUT" && tar czf /tmp/round14.tgz . && find . -type f -delete && mv /tmp/round14.tgz .
