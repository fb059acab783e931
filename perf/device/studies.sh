#!/usr/bin/env bash
# On the GPU machine: the tuning studies of configs/studies/ (docs/performance.md), each a `job: sweep` whose
# records land in $OUT/<study>.jsonl (and .csv), each under a time limit: a sweep writes every point as it is
# measured and skips measured points when rerun, so a study cut off by its limit continues where it stopped the
# next time the same command runs with the same results file in the current folder. Plots are made afterwards
# where matplotlib is (perf/plot_study.py). STUDIES picks the studies (default all, in this order) and
# STUDY_LIMIT_<name> their seconds. Also a BiCGSTAB + Jacobi timing on 1M and 3M rows (KRYLOV_CHECK=0 skips it).
# Beside pmpp_ch18, in the same call: the PMPP solutions' own benchmark when .device/bin/pmpp_ch18_benchmark exists
# (perf/device/pmpp_peer.sh) and bench_potential's end_to_end/ cases (set-up + compute + copy back, as that benchmark
# times its wrappers). bicg_paper_host runs bicg_paper's CPU points with an OpenMP build of ppl
# (.device/bin/ppl_openmp) on 1 thread and on every core, 20 iterations a solve, into bicg_paper_host.jsonl.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
repo=$PWD
bin=$repo/.device/bin
if [ "${KRYLOV_CHECK:-1}" = 1 ] && [ -x "$bin/bench_krylov" ]; then
  echo "== test_sparse_krylov (CUDA)"
  timeout 120 "$bin/test_sparse_krylov" --gtest_brief=1 >"$OUT/test_sparse_krylov.log" 2>&1
  tail -2 "$OUT/test_sparse_krylov.log"
  echo "== bench_krylov: BiCGSTAB + Jacobi, 27 per row, 3M rows"
  PPL_BENCH_KRYLOV_ROWS=1000000,3000000 PPL_BENCH_KRYLOV_ITERS=50 timeout 120 "$bin/bench_krylov" \
    --benchmark_filter='^bicgstab/(auto|vector_cuda)/jacobi/cd27/' --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=true --benchmark_out="$OUT/krylov-check.json" \
    --benchmark_out_format=json >"$OUT/krylov-check.txt" 2>&1
  grep -E "median|x_floor" "$OUT/krylov-check.txt" | cut -c1-200 | head -12
fi
cd "$OUT"
"$bin/ppl" info --json >info.json 2>/dev/null
limit() { local v="STUDY_LIMIT_$1"; echo "${!v:-$2}"; }
if [[ " ${STUDIES:-pmpp_ch18} " == *" pmpp_ch18 "* ]]; then
  if [ -x "$bin/pmpp_ch18_benchmark" ]; then
    echo "== the PMPP solutions' chapter 18 benchmark (sm_90)"
    timeout 120 "$bin/pmpp_ch18_benchmark" >pmpp_solutions.txt 2>&1
    grep -E "ms$|Speedup|vs Sequential" pmpp_solutions.txt | head -12
  fi
  if [ -x "$bin/bench_potential" ]; then
    echo "== end to end on the PMPP plane"
    BIN="$bin" bash "$repo/perf/device/end_to_end.sh"
  fi
fi
for s in ${STUDIES:-pmpp_ch18 pmpp_ch18_sequential coarsening binning bicg_paper bicg_paper_host}; do
  echo "== $s ($(date -u +%T))"
  case $s in
    pmpp_ch18_sequential)  # the chapter's sequential version on one host thread, the plane only
      timeout "$(limit $s 60)" "$bin/ppl" run "$repo/configs/studies/pmpp_ch18.yaml" -q --kokkos-threads=1 \
        --set 'vary={strategy: [reference], lattice.plane_z: [10.0]}' --set repeats=3 >"$s.log" 2>&1 ;;
    pmpp_ch18) timeout "$(limit $s 90)" "$bin/ppl" run "$repo/configs/studies/$s.yaml" -q >"$s.log" 2>&1 ;;
    coarsening) timeout "$(limit $s 90)" "$bin/ppl" run "$repo/configs/studies/$s.yaml" -q >"$s.log" 2>&1 ;;
    binning) timeout "$(limit $s 120)" "$bin/ppl" run "$repo/configs/studies/$s.yaml" -q >"$s.log" 2>&1 ;;
    bicg_paper) timeout "$(limit $s 120)" "$bin/ppl" run "$repo/configs/studies/$s.yaml" -q >"$s.log" 2>&1 ;;
    bicg_paper_host)  # the config header's CPU command, on one thread and on all of them
      for t in 1 "$(nproc)"; do
        OMP_NUM_THREADS=$t timeout "$(limit $s 150)" "$bin/ppl_openmp" run "$repo/configs/studies/bicg_paper.yaml" -q \
          --kokkos-threads="$t" --set base.solver.max_iters=20 --set warmup=0 --set repeats=1 \
          --set output.results=bicg_paper_host.jsonl --set 'vary={matrix.generator: [convection_diffusion, convection_diffusion, convection_diffusion, convection_diffusion, convection_diffusion_3x, convection_diffusion_3x, convection_diffusion_3x, convection_diffusion_3x], matrix.n: [80, 88, 104, 110, 63, 75, 85, 102], spmv.strategy: [scalar]}' \
          >>"$s.log" 2>&1
      done ;;
  esac
  rc=$? r=${s%_sequential}
  echo "exit $rc; $(wc -l <"$r.jsonl" 2>/dev/null) records in $r.jsonl"
  tail -2 "$s.log"
done
# The device tool brings back a handful of files per call: everything in one archive.
tar czf studies.tgz ./*.jsonl ./*.csv ./*.log ./*.txt ./*.json 2>/dev/null && rm -f ./*.jsonl ./*.csv ./*.log ./*.txt ./*.json
