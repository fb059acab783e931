#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12, huge pages and scalar_avx2): the CUDA build after the host-memory change
# (Krylov vectors, generated systems and ILU(0) arrays now allocated by make_large_view, a no-op advice on device
# memory): test_sparse_spmv and test_sparse_krylov on CUDA; BiCGSTAB and BiCG + Jacobi with `auto` at 3M rows
# (27 per row) to check that the iteration time did not move (0.801 ms in round24).
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
gtest_run $bin/test_sparse_spmv test_sparse_spmv-cuda.log
gtest_run $bin/test_sparse_krylov test_sparse_krylov-cuda.log
krylov_run krylov-k34 $bin/bench_krylov '^bicg[a-z]*/auto/jacobi/cd27/' 3000000 150
cd "$OUT" && tar czf /tmp/round25.tgz . && find . -type f -delete && mv /tmp/round25.tgz .
