#!/usr/bin/env bash
# Every summary ppl writes matches docs/summary.schema.json: each example job (configs/examples, reduced through
# --set so the whole test takes seconds), `ppl info --json`, `ppl map --summary`, and the records of a potential and
# a solve sweep (configs/studies, reduced). Skips (77) when /usr/bin/python3 cannot import jsonschema (Debian's
# python3-jsonschema, or PPL_PYTHON3=...).
#   summary_schema.sh PPL REPOSITORY
set -u
ppl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$2" && pwd)
ex=$repo/configs/examples
py=""
for c in "${PPL_PYTHON3:-}" /usr/bin/python3 python3; do
  if [ -n "$c" ] && "$c" -c 'import jsonschema' 2>/dev/null; then
    py=$c
    break
  fi
done
if [ -z "$py" ]; then
  echo "SKIP: no python3 with jsonschema (apt-get install python3-jsonschema)"
  exit 77
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
check() {  # name, expected exit codes (a|b), then ppl's arguments
  local name=$1 ok=$2 rc
  shift 2
  "$ppl" "$@" --kokkos-threads=2 >"$name.log" 2>&1
  rc=$?
  if ! [[ "|$ok|" == *"|$rc|"* ]]; then
    echo "FAIL $name: exit $rc (expected $ok): ppl $*"
    tail -20 "$name.log"
    fail=1
  fi
}
check ubiquitin 0 run "$ex/ubiquitin.yaml" -q --set lattice.spacing=2.0
check watbox 0 run "$ex/watbox_parboil.yaml" -q --set lattice.spacing=2.0 --set timing.repeats=1
check pmpp_plane 0 run "$ex/pmpp_plane.yaml" -q --set input.random.atoms=300 --set 'lattice.dims=[20,20,12]' \
  --set lattice.plane_z=2.0 --set timing.repeats=2
check ions 0 run "$ex/ions_actin.yaml" -q --set lattice.spacing=3.0 --set ions.min_distance_ions=6.0
check solve_cd 0 run "$ex/solve_cd_1m.yaml" -q --set matrix.n=12 --set solver.profile=true
check solve_2dcyl1 "0|4" run "$ex/solve_2dcyl1.yaml" -q --set solver.rtol=1e-3 --set solver.max_iters=200
check info 0 run "$ex/info.yaml" -q --set output=info_job.json
"$ppl" info --json --kokkos-threads=2 >info.json || { echo "FAIL ppl info --json"; fail=1; }
check map 0 map "$repo/data/molecules/ubq.pqr" -o ubq_map.dx --summary ubq_map.json -q --set lattice.spacing=2.0
check sweep_potential 0 run "$repo/configs/studies/pmpp_ch18.yaml" -q --set warmup=0 --set repeats=1 \
  --set base.input.random.atoms=200 --set 'base.lattice.dims=[16,16,8]' \
  --set 'vary={strategy: [reference, gather], lattice.plane_z: [2.0, ~]}'
check sweep_solve 0 run "$repo/configs/studies/bicg_paper.yaml" -q --set warmup=0 --set repeats=1 \
  --set 'vary={matrix.generator: [convection_diffusion], matrix.n: [6], spmv.threads_per_row: [2, 8]}'
summaries=(ubq_potential.json watbox_potential.json pmpp_plane.json actin_ions.json solve_cd_1m.json
  solve_2dcyl1.json info_job.json info.json ubq_map.json pmpp_ch18.jsonl bicg_paper.jsonl)
for f in "${summaries[@]}"; do
  [ -s "$f" ] || { echo "FAIL $f: not written"; fail=1; }
done
[ $fail = 0 ] || exit 1
"$py" "$repo/tests/cli/check_summaries.py" "$repo/docs/summary.schema.json" "${summaries[@]}" || exit 1
# The revision: `ppl --version` and every summary name the same one, and a build from a git checkout has one.
version=$("$ppl" --version | head -1)
revisions=$("$py" -c 'import json, sys
for p in sys.argv[1:]:
    for line in open(p) if p.endswith(".jsonl") else [open(p).read()]:
        if line.strip():
            print(json.loads(line)["ppl"]["git_revision"])' "${summaries[@]}" | sort -u)
if [ "$(echo "$revisions" | wc -l)" != 1 ]; then
  echo "FAIL: the summaries name different revisions: $revisions"
  exit 1
fi
if [ -e "$repo/.git" ] && [ "$revisions" = None ]; then
  echo "FAIL: built from a git checkout, but the summaries' git_revision is null"
  exit 1
fi
case "$version" in
  *"($revisions)"* | *"(revision unknown)"*) ;;
  *) echo "FAIL: ppl --version says '$version', the summaries '$revisions'"; exit 1 ;;
esac
echo "summary_schema: ${#summaries[@]} files valid"
