#!/usr/bin/env bash
# CSR SpMV on a CUDA GPU (docs/solver.md, "SpMV strategies"): every registered strategy (the portable scalar,
# vector, stream and auto; vector_cuda and stream_cuda), Kokkos Kernels' spmv and cuSPARSE (CSR_ALG1, CSR_ALG2) on
# the generated 27- and 81-per-row matrices, against the device copy bandwidth of the same process.
#
#   perf/device/spmv.sh RESULTS_DIR          e.g. perf/results/spmv-h200
#
# bench_spmv checks each variant against the float64 host product, warms it up, then takes SPMV_REPEATS samples
# (default 100) of 10 back-to-back products between fences: median, p10, p90, min, max; GB/s of the median.
# Parts (SPMV_PARTS, default "bench"):
#   bench   bench_spmv at SPMV_ROWS rows (default 1000000,3000000; the 27-per-row matrix at 3M rows has 3,048,625
#           rows and 81.2M nonzeros), 27 and 81 per row as two processes with a time limit each, merged into
#           spmv.json. Without a loadable libcusparse the cuSPARSE-free build (bench_spmv_no_cusparse) runs;
#   k46     the same strategies of a Kokkos 4.6 build (PPL_K46_BUILD, default build/cuda-k46: cmake/deps/bootstrap.sh
#           cuda-k46 --sources DIR && cmake --workflow --preset cuda-k46-build) beside this build's, 3M rows;
#   probe   perf/sparse/cuda/spmv_probe.cu (standalone CUDA: copy and read ceilings, CSR designs), built with nvcc
#           if needed -> probe.csv;
#   host    the OpenMP build's bench_spmv on this machine's CPU (PPL_OPENMP_BUILD), 970,299 rows, on all CPUs, half
#           of them and one -> host-threads*.json.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
PARTS=${SPMV_PARTS:-bench}
driver_start "CSR SpMV strategies (perf/device/spmv.sh)" "$@"
rows=${SPMV_ROWS:-1000000,3000000}
repeats=${SPMV_REPEATS:-100}

# bench_spmv needs libcusparse (and its libnvJitLink) at run time: from the CUDA install or pip's nvidia wheels. Sets
# PROGRAM to bench_spmv, or to bench_spmv_no_cusparse when a library is still missing.
find_spmv_program() {
  local missing lib dir
  PROGRAM=$(exe bench_spmv)
  missing=$(ldd "$PROGRAM" 2>/dev/null | awk '/not found/ {print $1}') || true
  for lib in $missing; do
    dir=$(find /usr/local/cuda*/ /usr/lib /opt /usr/local/lib/python3* /usr/lib/python3* -name "$lib" \
      -printf '%h\n' 2>/dev/null | head -1) || true
    if [ -n "$dir" ]; then export LD_LIBRARY_PATH=$dir:${LD_LIBRARY_PATH:-}; fi
  done
  if ldd "$PROGRAM" 2>/dev/null | grep 'not found' >/dev/null; then
    echo "bench_spmv cannot load $(ldd "$PROGRAM" | awk '/not found/ {print $1}' | tr '\n' ' '): no cuSPARSE peer"
    PROGRAM=$(exe bench_spmv_no_cusparse)
  fi
}

if want bench; then
  find_spmv_program
  echo "== $(basename "$PROGRAM"), rows $rows, $repeats samples"
  for nnz in 27 81; do
    PPL_SPMV_ROWS=$rows PPL_SPMV_REPEATS=$repeats bench "spmv-nnz$nnz" 280 "$PROGRAM" \
      --benchmark_filter="copy|nnz$nnz/" --benchmark_counters_tabular=true
  done
  "${SUMMARIZE[@]}" merge "$RESULTS/spmv.json" "$RESULTS/spmv-nnz27.json" "$RESULTS/spmv-nnz81.json"
  summary "effective GB/s of the median product, [threads per row]" spmv-table "$RESULTS/spmv.json"
fi

if want k46; then
  k46=$(PPL_BUILD=${PPL_K46_BUILD:-build/cuda-k46} exe bench_spmv_no_cusparse) || k46=
  if [ -n "$k46" ]; then
    echo "== Kokkos 3.x and 4.x builds, 3M rows"
    filter='copy|/(stream|stream_cuda|vector_cuda_t8|vector_cuda_t16)/'
    PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=30 bench spmv-this-build 200 "$(exe bench_spmv_no_cusparse)" \
      --benchmark_filter="$filter"
    PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=30 bench spmv-k46 200 "$k46" --benchmark_filter="$filter"
    summary "this build against the Kokkos 4.6 build (GB/s)" spmv-table "$RESULTS/spmv-this-build.json"
    summary "the Kokkos 4.6 build (GB/s)" spmv-table "$RESULTS/spmv-k46.json"
  else
    echo "(no Kokkos 4.6 build under ${PPL_K46_BUILD:-build/cuda-k46}: part k46 skipped)"
  fi
fi

if want probe; then
  echo "== spmv_probe (standalone CUDA)"
  probe=$(exe spmv_probe 2>/dev/null) || {
    probe=$PPL_BUILD/perf/spmv_probe
    mkdir -p "$(dirname "$probe")"
    "$(nvcc_path)" -O3 -std=c++17 -arch="$(sm_arch)" -lineinfo -o "$probe" perf/sparse/cuda/spmv_probe.cu
  }
  step probe 300 "$probe" --matrix both --reps 30 --csv "$RESULTS/probe.csv"
  { grep -E "copy|read|best|stream|vector" "$RESULTS/probe.log" || true; } | head -40 | record "spmv_probe"
fi

if want host; then
  program=$(host_exe bench_spmv)
  all=$(nproc)
  for t in "$all" $((all / 2)) 1; do
    [ "$t" -ge 1 ] || continue
    echo "== OpenMP bench_spmv, $t threads"
    OMP_NUM_THREADS=$t PPL_SPMV_ROWS=970299 PPL_SPMV_REPEATS=10 PPL_COPY_GIB=0.25 bench "host-threads$t" 300 \
      "$program" --kokkos-threads="$t" --benchmark_filter='copy|/(scalar|scalar_avx2|auto|kokkos_kernels|vector_t16|stream)/'
    summary "host CPU, $t threads (GB/s; ms in host-threads$t.json)" spmv-table "$RESULTS/host-threads$t.json"
  done
fi
driver_end
