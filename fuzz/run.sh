#!/usr/bin/env bash
# Runs the libFuzzer harnesses of fuzz/ (built by `cmake --workflow --preset fuzz-build`), seeded with the files of
# the bad-input corpus (tests/cli/corpus), data/ and configs/examples, with the dictionaries beside this script.
#
# Usage: fuzz/run.sh smoke SECONDS [NAME...]    each harness for SECONDS (CI)
#        fuzz/run.sh long RUNS [NAME...]        each harness for RUNS executions (docs/cli.md reports these)
# NAME: pqr, matrix_market, job (default: all three, one after the other, one process each).
# Environment: PPL_FUZZ_BUILD (default build/fuzz), PPL_FUZZ_WORK (default $PPL_FUZZ_BUILD/work: the growing
# corpora, crash artefacts and logs), PPL_FUZZ_SEED (smoke runs; default 1). Exit status: 0 when no harness found
# anything.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${PPL_FUZZ_BUILD:-$root/build/fuzz}
work=${PPL_FUZZ_WORK:-$build/work}
[ $# -ge 2 ] || { sed -n '2,10p' "$0"; exit 2; }
mode=$1 amount=$2
shift 2
# One process per harness (no -jobs/-fork: those spawn workers that log to ./fuzz-N.log); a run stops at its first
# finding, which is then turned into a corpus case (tests/cli/corpus) before fuzzing on.
case $mode in
  smoke) limit=(-max_total_time="$amount" -seed="${PPL_FUZZ_SEED:-1}") ;;  # the same mutations on every CI run
  long) limit=(-runs="$amount") ;;
  *) echo "unknown mode '$mode' (smoke or long)" >&2; exit 2 ;;
esac
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(pqr matrix_market job)

# Seeds: the files of every corpus case (setups run) except the known failures, which reproduce bugs already
# reported (tests/cli/corpus/known_failures.txt) and would end a run at once; then the real inputs and examples.
seeds=$work/seeds
rm -rf "$seeds" "$work/cases"
mkdir -p "$seeds"/{pqr,matrix_market,job}
bash "$root/tests/cli/corpus.sh" --extract "$root/tests/cli/corpus" "$work/cases"
awk '!/^#/ && NF { print $1 }' "$root/tests/cli/corpus/known_failures.txt" |  # awk: an all-comment list is no error
  while read -r known; do rm -rf "${work:?}/cases/$known"; done
copy_seeds() {  # copy_seeds DEST FILES...: each under a unique name
  local dest=$1 f
  shift
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dest/$(echo "$f" | md5sum | cut -c1-16)"; done
  return 0
}
copy_seeds "$seeds/pqr" $(find "$work/cases" -name '*.pqr') "$root"/data/molecules/*.pqr*
copy_seeds "$seeds/matrix_market" $(find "$work/cases" -name '*.mtx') "$root"/data/matrices/*.mtx.gz
copy_seeds "$seeds/job" $(find "$work/cases" -name '*.yaml') "$root"/configs/examples/*.yaml
rm -f "$seeds"/pqr/*cutcp*

status=0
for name in "${names[@]}"; do
  bin=$build/fuzz/fuzz_$name
  [ -x "$bin" ] || { echo "$bin missing: cmake --workflow --preset fuzz-build" >&2; exit 2; }
  mkdir -p "$work/corpus/$name" "$work/crashes"
  log=$work/$name.log
  echo "== fuzz_$name ($mode $amount): log $log"
  # stdin is /dev/null: a job naming /dev/stdin as an input must not wait for a terminal. -max_len bounds the
  # inputs (seeds above it are read truncated); -timeout flags any input slower than 10 s.
  start=$SECONDS
  rm -f "$work/crashes/$name-"*
  if OMP_PROC_BIND=false "$bin" "${limit[@]}" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
    -dict="$here/$name.dict" -artifact_prefix="$work/crashes/$name-" -print_final_stats=1 \
    "$work/corpus/$name" "$seeds/$name" </dev/null >"$log" 2>&1; then
    :
  else
    status=1
  fi
  if ls "$work/crashes/$name-"* >/dev/null 2>&1; then
    status=1
    echo "fuzz_$name FOUND SOMETHING: $(grep -m1 -E 'ERROR: |runtime error|deadly signal' "$log" || tail -1 "$log")"
  fi
  runs=$(grep -m1 '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  speed=$(grep -m1 '^stat::average_exec_per_sec' "$log" | awk '{print $2}')
  echo "fuzz_$name: ${runs:-?} executions in $((SECONDS - start)) s (${speed:-?}/s)," \
    "corpus $(ls "$work/corpus/$name" | wc -l) files"
done
ls "$work/crashes" 2>/dev/null | sed 's/^/artefact: /'
exit $status
