#!/usr/bin/env bash
# The cutoff scale study: generated water boxes (0.1 atoms/A^3) with a 0.5 A lattice over the whole box, Parboil's
# cutcp at 12 A, cutoff_binned (and cutoff_reference, the float64 oracle) against direct Coulomb summation
# (gather_coalesced) where that is affordable; one `ppl run` of configs/perf/cutoff_water.yaml per point, its JSON
# summary kept. Then perf/potential/plot_cutoff_scale.py draws time against lattice size (log-log).
# Usage: perf/potential/cutoff_scale.sh PPL OUT_DIR [SIDES]   SIDES: box sides in A (default "21.5 31 46.4 67")
#        CUTOFF_SCALE_DIRECT_MAX: the largest side also run with direct summation (default 46.4)
#        CUTOFF_SCALE_REFERENCE_MAX: the largest side also run with cutoff_reference (default 31)
set -euo pipefail
ppl=$1 out=$2
sides=${3:-21.5 31 46.4 67}
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
run() {  # run NAME SIDE ARGS...
  local name=$1 side=$2 dims
  shift 2
  dims=$(python3 -c "print(round($side / 0.5))")
  "$ppl" run "$here/configs/perf/cutoff_water.yaml" -q --set "input.water_box.size=[$side,$side,$side]" \
    --set "lattice.dims=[$dims,$dims,$dims]" --set timing.warmup=0 --set timing.repeats=3 \
    --set output.summary="$out/$name-$side.json" "$@" >/dev/null
  python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['map']; print(sys.argv[2], m['atoms']['count'], \
m['lattice']['points'], 'setup', round(m['setup_s'],4), 'median', round(m['timing']['median_s'],4))" \
    "$out/$name-$side.json" "$name"
}
for side in $sides; do
  run binned "$side"
  if python3 -c "import sys; sys.exit(0 if $side <= ${CUTOFF_SCALE_REFERENCE_MAX:-31} else 1)"; then
    run cutoff_reference "$side" --set strategy=cutoff_reference
  fi
  if python3 -c "import sys; sys.exit(0 if $side <= ${CUTOFF_SCALE_DIRECT_MAX:-46.4} else 1)"; then
    run direct "$side" --set strategy=gather_coalesced --set 'physics.interaction={kind: coulomb}'
  fi
done
