#!/usr/bin/env bash
# H200, the final code of issue 12's fourth round (binaries carried as .device/pack.tar.xz, unpacked first):
# - the CUDA sparse tests (SpMV, Krylov, ILU(0));
# - ILU(0) set-up and applications on the GPU, and on the machine's CPU on 16 and 8 threads, with ppl's own level
#   sets for sptrsv (bench_ilu0);
# - the SpMV table at 3M rows (`auto` against cuSPARSE and the copy bandwidth);
# - BiCGSTAB + Jacobi and GMRES(30) + Jacobi per iteration with `auto` at 3M rows against the floor.
[ -f .device/pack.tar.xz ] && tar xJf .device/pack.tar.xz -C .device
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
gtest_run $bin/test_sparse_spmv test_sparse_spmv-cuda.txt 200
gtest_run $bin/test_sparse_krylov test_sparse_krylov-cuda.txt 200
gtest_run $bin/test_sparse_precond test_sparse_precond-cuda.txt 100
ilu0_run() {  # STEM EXE THREADS FILTER
  OMP_NUM_THREADS=$3 PPL_BENCH_ILU0_N=40,64,100 timeout 150 "$2" --kokkos-threads="$3" --benchmark_filter="$4" \
    --benchmark_report_aggregates_only=true --benchmark_out="$OUT/$1.json" --benchmark_out_format=json \
    >"$OUT/$1.txt" 2>&1 || echo "$1: bench_ilu0 rc $?"
  grep median "$OUT/$1.txt" | awk '{print $1, $2, $3}'
}
echo "-- ILU(0) on the GPU"; ilu0_run ilu0-cuda $bin/bench_ilu0 16 'cd27'
for T in 16 8; do echo "-- ILU(0), OpenMP, $T threads"; ilu0_run ilu0-omp-threads$T .device/omp/bench_ilu0 $T '.'; done
SPMV_SKIP_TESTS=1 PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=30 PPL_SPMV_PART_TIMEOUT=150 bash perf/device/spmv.sh 2>&1 |
  grep -E "SpMV effective|matrix|/row 30|^target" | head -20
krylov_run krylov $bin/bench_krylov '^(bicgstab|gmres)/auto/jacobi/cd27/' 3000000 200
cd "$OUT" && tar czf /tmp/round31.tgz . && find . -type f -delete && mv /tmp/round31.tgz .
