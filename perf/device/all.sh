#!/usr/bin/env bash
# The headline measurements in one command, one results folder per benchmark (within about 8 minutes on an H200, after
# `cmake/deps/bootstrap.sh cuda && cmake --workflow --preset cuda-build`; the tests are perf/device/tests.sh):
#
#   perf/device/all.sh RESULTS_ROOT [MACHINE]     e.g. perf/device/all.sh perf/results h200
#
# writes RESULTS_ROOT/{potential,cutoff,spmv,krylov,ions}-MACHINE/ (MACHINE defaults to the GPU's model in lower
# case: "NVIDIA H200" -> h200), each with its README.md, JSON and logs:
#   potential  bench_potential's defaults on 256x256x64 (40k atoms), the PMPP lattice and plane, the hand-written
#              CUDA kernels; `strategy: auto` as jobs; the PMPP plane end to end;
#   cutoff     the 1M-atom water box: cutoff_binned_cuda three times, cutoff_binned twice, with the set-up breakdown;
#   spmv       every SpMV strategy and cuSPARSE at 3M rows, 27 and 81 per row, 30 samples each;
#   krylov     BiCGSTAB and GMRES(30) + Jacobi per iteration at 3M rows, ILU(0) set-up and application on the GPU;
#   ions       150 ions on 400^3, three times, with the hybrid kernel and with the 12 A cutoff map.
# Each driver's own defaults measure more (perf/README.md). A driver that fails does not stop the others; the exit
# status is 1 if any failed. The time: the steps' durations in the kept results add up to about 4-5 minutes, and
# all.sh prints each driver's seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $(basename "$0") RESULTS_ROOT [MACHINE]" >&2; exit 2; }
root=$1
machine=${2:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
  sed -E 's/^NVIDIA //; s/[^A-Za-z0-9]+/-/g' | tr 'A-Z' 'a-z')}
machine=${machine:-gpu}
mkdir -p "$root"
failed=()
run() {  # run NAME ENV...: perf/device/NAME.sh into ROOT/NAME-MACHINE with the headline settings ENV
  local name=$1 t0=$SECONDS
  shift
  echo "==== $name ($(date -u +%T) UTC)"
  env "$@" bash "$here/$name.sh" "$root/$name-$machine" || failed+=("$name")
  echo "==== $name: $((SECONDS - t0)) s"
}
run potential POTENTIAL_PARTS="bench auto end_to_end" POTENTIAL_REPEATS=5 \
  POTENTIAL_FILTER='^potential/(256x256x64_40k|pmpp_100x100x50|pmpp_slice_z10)/(gather|gather_coarsened|gather_coalesced|gather_atom_split|gather_constmem_cuda|gather_hybrid_rsqrt_cuda|baseline_cuda/tiles|baseline_cuda/ftz)/min_time'
run cutoff CUTOFF_PARTS=target CUTOFF_RUNS=3
run spmv SPMV_PARTS=bench SPMV_ROWS=3000000 SPMV_REPEATS=30
run krylov KRYLOV_PARTS="bench ilu0" KRYLOV_ROWS=3000000 KRYLOV_FILTER='^(bicgstab|gmres)/auto/jacobi/cd27/' \
  KRYLOV_ILU0_N=100
run ions IONS_PARTS="target compare" IONS_RUNS=3
run msm MSM_PARTS="target ions repeat peers" MSM_RUNS=3
echo "==== all: ${SECONDS} s; results in $root/*-$machine"
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}"
  exit 1
fi
