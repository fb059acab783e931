#!/usr/bin/env bash
# Krylov solves on a CUDA GPU (docs/solver.md): time per iteration against the memory floor, the vector kernels,
# ILU(0)'s set-up and application, and the example solve jobs.
#
#   perf/device/krylov.sh RESULTS_DIR          e.g. perf/results/krylov-h200
#
# bench_krylov runs KRYLOV_ITERS (50) iterations per solve with the tolerances at 0, timed by the solver's loop timer
# (it ends with a fence), 5 solves after a profiled warm-up solve: median and cv per iteration, x_floor (time over the
# floor bytes at the copy bandwidth measured in the same process) and the phase fractions of the profiled solve.
# Parts (KRYLOV_PARTS, default "bench vector_ops ilu0 solve"):
#   bench       BiCGSTAB, BiCG and GMRES(30) with Jacobi and `auto` SpMV on the generated 27-per-row systems at
#               KRYLOV_ROWS rows (default 1000000,3000000: 3,048,625 rows for 3M) and the 81-per-row one at 3M
#               (KRYLOV_FILTER replaces the filter) -> krylov.json;
#   strategies  BiCGSTAB and BiCG + Jacobi with every SpMV strategy, 27 per row -> krylov-strategies.json;
#   eigen       Eigen's BiCGSTAB + diagonal preconditioner on the host CPU, 1 and all threads (KRYLOV_EIGEN_ROWS,
#               default 1000000) -> krylov-eigen.json;
#   vector_ops  bench_vector_ops: each vector kernel of an iteration alone against the copy bandwidth, 1M and 3M rows;
#   ilu0        bench_ilu0 on the GPU: ILU(0) set-up (with its phases) and one application M^-1 r beside one SpMV, on
#               2dcyl1, ani4 and the 27-per-row systems of KRYLOV_ILU0_N (default 40,64,100: 100 is 970,299 rows);
#   solve       configs/examples/solve_cd_1m.yaml (970,299 rows) with BiCGSTAB, BiCG and GMRES(30), Jacobi and
#               ILU(0), and BiCGSTAB + Jacobi profiled (every phase fenced) -> solve-*.json;
#   k46         BiCGSTAB + Jacobi of a Kokkos 4.6 build (PPL_K46_BUILD, default build/cuda-k46) at 3M rows;
#   host        the OpenMP build (PPL_OPENMP_BUILD) on this machine's CPU: bench_ilu0 on all CPUs and half of them
#               (both triangular-solve paths), BiCGSTAB + Jacobi per iteration at 970,299 rows on all CPUs.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
PARTS=${KRYLOV_PARTS:-bench vector_ops ilu0 solve}
driver_start "Krylov solvers, vector kernels and ILU(0) (perf/device/krylov.sh)" "$@"
PPL=$(exe ppl)
export PPL_BENCH_KRYLOV_ITERS=${KRYLOV_ITERS:-50}
rows=${KRYLOV_ROWS:-1000000,3000000}

if want bench; then
  filter=${KRYLOV_FILTER:-'^(bicgstab|bicg|gmres)/auto/jacobi/cd27/|^(bicgstab|bicg)/auto/jacobi/cd81/rows:3'}
  echo "== bench_krylov ($filter; rows $rows)"
  PPL_BENCH_KRYLOV_ROWS=$rows bench krylov 300 "$(exe bench_krylov)" --benchmark_filter="$filter" \
    --benchmark_report_aggregates_only=true
  summary "per iteration, median of 5 solves of $PPL_BENCH_KRYLOV_ITERS iterations" krylov "$RESULTS/krylov.json"
fi

if want strategies; then
  PPL_BENCH_KRYLOV_ROWS=$rows bench krylov-strategies 300 "$(exe bench_krylov)" \
    --benchmark_filter='^bicg[a-z]*/[a-z_0-9]*/jacobi/cd27/' --benchmark_report_aggregates_only=true
  summary "every SpMV strategy, 27 per row" krylov "$RESULTS/krylov-strategies.json"
fi

if want eigen; then
  PPL_BENCH_KRYLOV_ROWS=${KRYLOV_EIGEN_ROWS:-1000000} PPL_BENCH_KRYLOV_EIGEN_ROWS=${KRYLOV_EIGEN_ROWS:-1000000} \
    bench krylov-eigen 300 "$(exe bench_krylov)" --benchmark_filter='^eigen_bicgstab/|^bicgstab/auto/jacobi/' \
    --benchmark_report_aggregates_only=true
  summary "Eigen on the host CPU beside ppl on the GPU" krylov "$RESULTS/krylov-eigen.json"
fi

if want vector_ops; then
  PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 bench vector-ops 120 "$(exe bench_vector_ops)"
  summary "vector kernels alone (median of 30 samples of 10 calls)" vector-ops "$RESULTS/vector-ops.json"
fi

if want ilu0; then
  PPL_BENCH_ILU0_N=${KRYLOV_ILU0_N:-40,64,100} bench ilu0 200 "$(exe bench_ilu0)" \
    --benchmark_report_aggregates_only=true
  summary "ILU(0) on the GPU: set-up and one application (ms, median of 3)" ilu0 "$RESULTS/ilu0.json"
fi

if want solve; then
  cd1m=configs/examples/solve_cd_1m.yaml
  for v in bicgstab:jacobi bicg:jacobi gmres:jacobi bicgstab:ilu0 gmres:ilu0; do
    m=${v%%:*} p=${v##*:}
    job "solve-$m-$p" 120 "$cd1m" --set solver.method="$m" --set solver.preconditioner="$p" \
      --set solver.progress_every=0 --set output.history="$RESULTS/solve-$m-$p.csv"
  done
  job solve-bicgstab-jacobi-profiled 120 "$cd1m" --set solver.profile=true --set solver.progress_every=0 \
    --set output.history="$RESULTS/solve-bicgstab-jacobi-profiled.csv"
  summary "configs/examples/solve_cd_1m.yaml, 970,299 rows, rtol 1e-8" jobs "$RESULTS"/solve-*.json
fi

if want k46; then
  k46=$(PPL_BUILD=${PPL_K46_BUILD:-build/cuda-k46} exe bench_krylov) || k46=
  if [ -n "$k46" ]; then
    PPL_BENCH_KRYLOV_ROWS=3000000 bench krylov-k46 200 "$k46" \
      --benchmark_filter='^bicgstab/auto/jacobi/cd(27|81)/' --benchmark_report_aggregates_only=true
    summary "the Kokkos 4.6 build" krylov "$RESULTS/krylov-k46.json"
  else
    echo "(no Kokkos 4.6 build under ${PPL_K46_BUILD:-build/cuda-k46}: part k46 skipped)"
  fi
fi

if want host; then
  all=$(nproc)
  for t in "$all" $((all / 2)); do
    OMP_NUM_THREADS=$t PPL_BENCH_ILU0_N=40,64,100 bench "host-ilu0-threads$t" 300 "$(host_exe bench_ilu0)" \
      --kokkos-threads="$t" --benchmark_report_aggregates_only=true
    summary "host CPU, $t threads: ILU(0), both triangular-solve paths" ilu0 "$RESULTS/host-ilu0-threads$t.json"
  done
  OMP_NUM_THREADS=$all PPL_BENCH_KRYLOV_ROWS=970299 bench host-krylov 300 "$(host_exe bench_krylov)" \
    --kokkos-threads="$all" --benchmark_filter='^bicgstab/(scalar|scalar_avx2|auto|kokkos_kernels)/jacobi/cd27/' \
    --benchmark_report_aggregates_only=true
  summary "host CPU, $all threads: BiCGSTAB + Jacobi" krylov "$RESULTS/host-krylov.json"
fi
driver_end
