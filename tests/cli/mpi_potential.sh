#!/usr/bin/env bash
# An MPI build's `job: potential` split over 1, 2, 3 (16 planes split unevenly) and 4 ranks (docs/mpi.md): every
# map file (OpenDX, MRC, raw and its sidecar) must be byte for byte the one the same job writes as one process
# without mpirun, for each strategy that can be split; the summary must name the rank count. A strategy that cannot
# be split is refused with exit 2 under more than one rank, as is any job but potential and ions. job: ions (the
# map split, the ions placed on rank 0) must write the one-process run's structures and maps.
# Usage: mpi_potential.sh PPL MPIEXEC
set -u
ppl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mpiexec=$2
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# One thread per rank and no spinning: 4 ranks may share 2 cores. (The bits do not depend on the thread count.)
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
mpirun=("$mpiexec" --allow-run-as-root --oversubscribe --bind-to none)
fail=0

job() {  # job STRATEGY PARAMS: outputs in the current folder, so every run's files have the same names
  cat <<JOB
job: potential
input: {random: {atoms: 300, box_lo: [0, 0, 0], box_hi: [12, 12, 8], seed: 7}}
lattice: {dims: [24, 24, 16], spacing: 0.5, origin: [0.1, -0.3, 0.7]}
strategy: $1
strategy_params: $2
verification: {mode: full}
output: {dx: map.dx, mrc: map.mrc, raw: map.raw, summary: summary.json}
JOB
}

for case in "gather_coalesced|{coarsening: 4}" "gather_coarsened|{coarsening: 8}" "gather|{}"; do
  strategy=${case%%|*}
  params=${case#*|}
  mkdir -p "$strategy/one"
  job "$strategy" "$params" >"$strategy/one/job.yaml"
  if ! (cd "$strategy/one" && "$ppl" run -q job.yaml >run.log 2>&1); then
    echo "FAIL: $strategy, one process: $(cat "$strategy/one/run.log")"
    fail=1
    continue
  fi
  for n in 1 2 3 4; do
    out=$strategy/np$n
    mkdir -p "$out"
    job "$strategy" "$params" >"$out/job.yaml"
    if ! (cd "$out" && "${mpirun[@]}" -np "$n" "$ppl" run job.yaml >run.log 2>&1); then
      echo "FAIL: $strategy, $n ranks: $(tail -3 "$out/run.log")"
      fail=1
      continue
    fi
    for f in map.dx map.mrc map.raw map.raw.json; do
      if ! cmp "$strategy/one/$f" "$out/$f"; then
        echo "FAIL: $strategy, $n ranks: $f differs from the one-process run"
        fail=1
      fi
    done
    if ! grep -q "\"ranks\": $n" "$out/summary.json"; then
      echo "FAIL: $strategy, $n ranks: the summary does not say \"mpi\": {\"ranks\": $n}"
      fail=1
    fi
    # Rank 0 alone prints: one summary block.
    if [ "$n" != 1 ] && [ "$(grep -c 'split over' "$out/run.log")" != 1 ]; then
      echo "FAIL: $strategy, $n ranks: expected one 'split over' line: $(cat "$out/run.log")"
      fail=1
    fi
  done
  [ "$fail" = 0 ] && echo "ok: $strategy: 1, 2, 3 and 4 ranks byte-identical to one process"
done

# job: ions: the map split, the ions placed on rank 0: the same ions, structures and maps as one process.
ions_job() {
  cat <<JOB
job: ions
input: {random: {atoms: 300, box_lo: [0, 0, 0], box_hi: [12, 12, 8], charge_range: [-1, 0.8], seed: 11}}
lattice: {dims: [24, 24, 16], spacing: 1.0, origin: [-6, -6, -4]}
strategy: gather_coalesced
ions: {neutralize: true, min_distance_solute: 2.0, min_distance_ions: 3.0}
output: {pqr: ions.pqr, pdb: ions.pdb, dx_before: before.dx, dx_after: after.dx, summary: summary.json}
JOB
}
mkdir -p ions/one
ions_job >ions/one/job.yaml
if ! (cd ions/one && "$ppl" run -q job.yaml >run.log 2>&1); then
  echo "FAIL: ions, one process: $(cat ions/one/run.log)"
  fail=1
else
  ions_ok=1
  for n in 2 3; do
    mkdir -p "ions/np$n"
    ions_job >"ions/np$n/job.yaml"
    if ! (cd "ions/np$n" && "${mpirun[@]}" -np "$n" "$ppl" run -q job.yaml >run.log 2>&1); then
      echo "FAIL: ions, $n ranks: $(tail -3 "ions/np$n/run.log")"
      fail=1 ions_ok=0
      continue
    fi
    for f in ions.pqr ions.pdb before.dx after.dx; do
      cmp "ions/one/$f" "ions/np$n/$f" || { echo "FAIL: ions, $n ranks: $f differs"; fail=1 ions_ok=0; }
    done
  done
  [ "$ions_ok" = 1 ] && echo "ok: ions: 2 and 3 ranks place the one-process run's ions, byte-identical files"
fi

# A strategy that cannot compute a slab exactly is refused before any work, naming the key.
job scatter "{}" >refused.yaml
"${mpirun[@]}" -np 2 "$ppl" run -q refused.yaml >refused.log 2>&1
rc=$?
if [ "$rc" != 2 ] || ! grep -q "strategy scatter cannot compute a slab" refused.log; then
  echo "FAIL: scatter on 2 ranks: expected exit 2 naming the strategy, got $rc: $(cat refused.log)"
  fail=1
fi
# Any other job would run whole on every rank: refused.
echo "job: info" >info.yaml
"${mpirun[@]}" -np 2 "$ppl" run -q info.yaml >info.log 2>&1
rc=$?
if [ "$rc" != 2 ] || ! grep -q "job: info is not split over MPI ranks" info.log; then
  echo "FAIL: job: info on 2 ranks: expected exit 2, got $rc: $(cat info.log)"
  fail=1
fi
exit $fail
