#!/usr/bin/env bash
# PETSc side by side (docs/solver.md): builds bench_petsc (perf/sparse/petsc/bench_petsc.cpp) and runs it on one
# core and on all cores, then prints one table. Debian's petsc-dev is installed if missing (apt-get, idempotent;
# it is a benchmark peer only, so cmake/deps/bootstrap.sh does not install it).
#
#   perf/sparse/petsc_side_by_side.sh [OUT.jsonl]        (default perf/results/petsc-openmp/petsc-default.jsonl)
#
# Environment: PETSC_SYSTEMS (default "2dcyl1,ani4,cd27_40,cd81_20": data/ matrices and generated
# convection-diffusion systems cd27_<n> / cd81_<n> with n elements per direction), PETSC_REPEATS (default 3),
# PETSC_CORES (default: nproc), BUILD (default build/petsc-perf).
# Runs: (1) PETSc, 1 MPI rank, and ppl, 1 OpenMP thread, in one process; (2) PETSc on PETSC_CORES MPI ranks;
# (3) ppl on PETSC_CORES OpenMP threads. One JSON object per configuration per line in OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-perf/results/petsc-openmp/petsc-default.jsonl}
systems=${PETSC_SYSTEMS:-2dcyl1,ani4,cd27_40,cd81_20}
repeats=${PETSC_REPEATS:-3}
cores=${PETSC_CORES:-$(nproc)}
build=${BUILD:-build/petsc-perf}

if ! pkg-config --exists PETSc; then
  echo "petsc_side_by_side: installing Debian's petsc-dev (benchmark peer only)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends petsc-dev >&2
fi
cmake --preset openmp -B "$build" -DPPL_BUILD_PERF=ON -DPPL_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$cores" --target bench_petsc >&2
bench="$build/perf/sparse/bench_petsc"

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
common=(--systems "$systems" --repeats "$repeats" --data data)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
OMP_NUM_THREADS=1 OMP_PROC_BIND=false "$bench" --kokkos-threads=1 "${common[@]}" >>"$tmp"
if [ "$cores" -gt 1 ]; then
  OMP_NUM_THREADS=1 mpirun --allow-run-as-root --oversubscribe -np "$cores" "$bench" --kokkos-threads=1 \
    --petsc-only "${common[@]}" >>"$tmp"
  OMP_PROC_BIND=false "$bench" --kokkos-threads="$cores" --ppl-only "${common[@]}" >>"$tmp"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out" >&2

python3 - "$out" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("| system | rows | side | method | preconditioner | cores | iterations | ms/iteration | setup ms | solve ms | true residual |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    cores = r["ranks"] * r["threads"]
    its = r["iterations"] if r["converged"] else f'{r["iterations"]} ({r["reason"]})'
    print(f'| {r["system"]} | {r["rows"]} | {r["side"]} | {r["method"]} | {r["preconditioner"]} | {cores} | {its} '
          f'| {r["per_iteration_ms"]:.3f} | {1e3 * r["setup_s"]:.2f} | {1e3 * r["solve_s"]:.2f} | {r["true_residual"]:.1e} |')
EOF
