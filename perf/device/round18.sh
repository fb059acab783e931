#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12), with `stream_cuda` asking for its own L1/shared split:
#   1. perf/device/spmv.sh without its tests at 1M and 3M rows (every strategy, cuSPARSE, copy; the table);
#   2. bench_krylov: BiCGSTAB and BiCG + Jacobi with auto, vector_cuda, stream_cuda, 27 per row at 1M and 3M
#      rows, 81 per row at 3M;
#   3. a solve job with no `spmv` key (3,048,625 rows, 27 per row), plain and profiled: what `auto` chose and
#      the SpMV rate of the profiled run (fenced SpMV time, 2 SpMV per iteration + 1 for the initial residual);
#   4. Nsight Compute on stream_cuda (the L1/shared split and hit rates) and the SASS of the portable stream.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
echo "== 1. SpMV"
SPMV_SKIP_TESTS=1 PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 PPL_SPMV_PART_TIMEOUT=150 bash perf/device/spmv.sh 2>&1 |
  grep -vE "^  |^\.device|^found|^== ldd" | tail -14
echo "== 2. bench_krylov"
krylov_run krylov $bin/bench_krylov \
  '^bicg[a-z]*/(auto|vector_cuda|stream_cuda)/jacobi/cd27/|^bicgstab/(auto|vector_cuda|stream_cuda)/jacobi/cd81/rows:3' \
  1000000,3000000 200
echo "== 3. solve job, no spmv key"
cat >"$OUT/solve_3m.yaml" <<'YAML'
job: solve
matrix: {generator: convection_diffusion, n: 146, peclet: 1.0}
rhs: manufactured
solver: {method: bicgstab, rtol: 1.0e-8, max_iters: 5000, preconditioner: jacobi}
output: {summary: solve_3m.json}
YAML
(cd "$OUT" && timeout 60 "$OLDPWD/$bin/ppl" run solve_3m.yaml 2>&1 | grep -v "  iteration" | tee solve_3m.txt)
(cd "$OUT" && timeout 60 "$OLDPWD/$bin/ppl" run solve_3m.yaml -q --set solver.profile=true \
  --set output.summary=solve_3m_profiled.json >solve_3m_profiled.txt 2>&1; grep -E "phases|per iteration" solve_3m_profiled.txt)
python3 - "$OUT/solve_3m_profiled.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["matrix"]; t = d["times"]
n, nnz, it = m["rows"], m["nnz"], d["iterations"]
b = 12 * nnz + 4 * (n + 1) + 16 * n
print(f'profiled solve: {d["spmv"]["mapping"]}; {it} iterations, SpMV {2 * it + 1} x {b / 1e6:.1f} MB in '
      f'{t["phases"]["spmv"]:.4f} s (fenced): {(2 * it + 1) * b / t["phases"]["spmv"] / 1e9:.0f} GB/s')
PY
echo "== 4. Nsight Compute, SASS"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
PPL_SPMV_ROWS=3000000 PPL_SPMV_REPEATS=1 timeout 120 "$ncu" --clock-control none --set full --kernel-name-base demangled \
  -k 'regex:stream_cuda_kernel' -c 1 $bin/bench_spmv_no_cusparse --benchmark_filter='nnz27.*/stream_cuda/' \
  >"$OUT/ncu-stream-cuda.txt" 2>&1 || echo "ncu rc $?"
grep -E "Duration|Executed Instructions  |DRAM Throughput|L1/TEX Hit|L2 Hit|Shared Memory Config|Achieved Occ" \
  "$OUT/ncu-stream-cuda.txt" | cut -c1-110
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$cuobjdump" -sass $bin/bench_spmv_no_cusparse 2>/dev/null | awk '/Function :/{p = /stream_kernel/} p' >"$OUT/sass-stream-portable.txt"
cd "$OUT" && tar czf /tmp/round18.tgz . && find . -type f -delete && mv /tmp/round18.tgz .
