#!/usr/bin/env bash
# OpenMP waiting on an idle and a shared CPU (docs/cli.md, "OpenMP threads on a shared machine"): Jacobi-BiCGSTAB
# milliseconds per iteration on 2dcyl1 (1,784 rows) and a generated 59,319-row system, with libgomp's own spinning
# (GOMP_SPINCOUNT=300000, libgomp's default), ppl's default (no variable set), OMP_WAIT_POLICY=passive, and one
# thread; 2 threads on cores 2-3 idle, with a busy loop on core 3, with busy loops on both, and 16 threads on cores
# 0-15 idle and with a busy loop on core 15. Round robin, medians. Needs 16 cores; about 3 minutes.
#
#   PPL=build/openmp/ppl perf/host/openmp_wait.sh [RESULTS_DIR]     (CSV in RESULTS_DIR/openmp_wait.csv, default .;
#                                                                   the table on stdout)
set -u
P=${PPL:-build/openmp/ppl}
OUT=${1:-${OUT:-.}}
mkdir -p "$OUT"
J0=configs/examples/solve_2dcyl1.yaml
J1=$(mktemp -d)/cd40.yaml
printf 'job: solve\nmatrix: {generator: convection_diffusion, n: 40}\nsolver: {preconditioner: jacobi}\n' >"$J1"
out=$OUT/openmp_wait.csv
: >"$out"
one() {  # condition cores threads iterations job [VAR=value]
  local v
  v=$(env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT ${6:-} timeout 60 taskset -c "$2" "$P" --kokkos-threads="$3" run "$5" -q \
      --set solver.method=bicgstab --set output={} --set solver.rtol=1e-30 --set solver.max_iters="$4" 2>/dev/null |
      sed -n 's/.*, \([0-9.]*\) ms per iteration.*/\1/p')
  echo "$1;$(basename "$5" .yaml);$3;${6:-ppl_default};${v:-NA}" >>"$out"
}
run_set() {  # condition cores threads rounds iterations(2dcyl1) iterations(generated)
  for _ in $(seq "$4"); do
    for e in GOMP_SPINCOUNT=300000 "" OMP_WAIT_POLICY=passive; do
      one "$1" "$2" "$3" "$5" "$J0" $e
      one "$1" "$2" "$3" "$6" "$J1" $e
    done
    one "$1" "$2" 1 "$5" "$J0"
    one "$1" "$2" 1 "$6" "$J1"
  done
}
busy() { taskset -c "$1" sh -c 'while :; do :; done' & }
run_set idle2 2,3 2 7 400 100
run_set idle16 0-15 16 7 400 300
busy 3; b1=$!
run_set busy1 2,3 2 5 200 50
busy 2; b2=$!
run_set busy2 2,3 2 5 200 50
kill $b1 $b2
busy 15; b3=$!
run_set busy16 0-15 16 5 100 50
kill $b3
rm -r "$(dirname "$J1")"
awk -F';' '{k=$1" "$2" threads="$3" "$4; v[k]=v[k]" "$5} END{for (k in v) print k":"v[k]}' "$out" | sort |
  while IFS=: read -r k vals; do
    printf '%-60s median %s  [%s]\n' "$k" "$(tr ' ' '\n' <<<"$vals" | grep -v '^NA$\|^$' | sort -g |
      awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')" "$vals"
  done
