#!/usr/bin/env bash
# Multilevel summation maps on a CUDA GPU (docs/msm.md): the million-atom water box (configs/perf/msm_water.yaml),
# the actin dimer at 0.5 and 0.37 A (configs/perf/msm_actin.yaml), full-electrostatics ion placement
# (configs/perf/ions_100k_400_msm.yaml), each checked against exact Coulomb in float64 at sampled points.
#
#   perf/device/msm.sh RESULTS_DIR          e.g. perf/results/msm-h200
#
# Each job times 1 warm-up + 5 computes between fences (median, min, max); the set-up (atoms to the device, binning,
# grids) is timed once and reported beside it, and the summary's strategy_breakdown holds the phases of the last
# compute (short range, anterpolation, restriction, each level, interpolation).
# Parts (MSM_PARTS, default "target accuracy ions repeat peers"):
#   target    the water box with the CUDA short range MSM_RUNS (3) times and with the portable one twice; the actin
#             dimer at 0.5 A (both short ranges) and 0.37 A; direct summation of the actin dimer (strategy auto);
#   accuracy  the water box and the actin dimer over orders x cutoffs x spacings (one timed compute each);
#   ions      the ion job MSM_RUNS times (the whole process: wall_seconds.txt);
#   repeat    the actin map written twice (raw float32) and compared byte for byte;
#   peers     VMD's msmpot on the same inputs, when its source is in .peers/msmpot or $MSMPOT_SRC
#             (perf/peers/msmpot/README.md; its code is not part of ppl).
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
PARTS=${MSM_PARTS:-target accuracy ions repeat peers}
driver_start "Multilevel summation maps (perf/device/msm.sh)" "$@"
PPL=$(exe ppl)
water=configs/perf/msm_water.yaml
actin=configs/perf/msm_actin.yaml

if want target; then
  echo "== the targets"
  for r in $(seq 1 "${MSM_RUNS:-3}"); do job "water-cuda-$r" 240 "$water"; done
  for r in 1 2; do job "water-portable-$r" 240 "$water" --set strategy_params.short_range=cutoff_binned; done
  for r in 1 2; do job "actin050-cuda-$r" 120 "$actin"; done
  job actin050-portable 120 "$actin" --set strategy_params.short_range=cutoff_binned
  for r in 1 2; do job "actin037-cuda-$r" 120 "$actin" --set lattice.spacing=0.37; done
  job actin050-direct 120 "$actin" --set physics.interaction.kind=coulomb --set strategy=auto \
    --set verification.tolerance=1e-5
  summary "MSM maps: median of 5 after 1 warm-up, set-up + median, phases, error against exact Coulomb" \
    jobs "$RESULTS"/water-*.json "$RESULTS"/actin0*.json
fi

if want accuracy; then
  echo "== accuracy guide: orders x cutoffs x spacings"
  while read -r order a h; do
    [ -n "$order" ] || continue
    for what in water actin; do
      config=$water
      [ "$what" = actin ] && config=$actin
      job "acc-$what-$order-$a-$h" 240 "$config" --set physics.interaction.order="$order" \
        --set physics.interaction.cutoff="$a" --set physics.interaction.spacing="$h" --set timing.warmup=0 \
        --set timing.repeats=1 --set verification.tolerance=1.0
    done
  done <<'GRID'
cubic 10 2.0
cubic 12 2.0
cubic 12 2.5
quintic 8 2.0
quintic 9 2.0
quintic 10 2.0
quintic 10 2.5
quintic 12 2.5
quintic 12 3.0
GRID
  summary "accuracy and cost over orders x a x h (one compute each)" jobs "$RESULTS"/acc-*.json
fi

if want ions; then
  echo "== full-electrostatics ion placement"
  for r in $(seq 1 "${MSM_RUNS:-3}"); do job "ions-msm-$r" 180 configs/perf/ions_100k_400_msm.yaml; done
  summary "150 ions on 400^3 with an MSM map" jobs "$RESULTS"/ions-msm-*.json
  { grep ions-msm "$RESULTS/wall_seconds.txt" || true; } | record "whole command, seconds (wall_seconds.txt)"
fi

if want repeat; then
  echo "== the same map twice"
  for r in 1 2; do
    job "repeat-$r" 120 "$actin" --set timing.warmup=0 --set timing.repeats=1 --set verification.mode=none \
      --set output.raw="$RESULTS/repeat-$r.f32"
  done
  if cmp -s "$RESULTS/repeat-1.f32" "$RESULTS/repeat-2.f32"; then
    echo "actin 0.5 A: the two maps are byte-identical ($(stat -c %s "$RESULTS/repeat-1.f32") bytes)"
  else
    echo "actin 0.5 A: the two maps DIFFER: $(cmp -l "$RESULTS/repeat-1.f32" "$RESULTS/repeat-2.f32" | wc -l) bytes"
    FAILED=$((FAILED + 1))
  fi | record "run-to-run"
  rm -f "$RESULTS"/repeat-*.f32 "$RESULTS"/repeat-*.f32.json
fi

if want peers; then
  src=${MSMPOT_SRC:-$PPL_ROOT/.peers/msmpot}
  if [ -d "$src" ] && [ -x "$PPL_ROOT/perf/device/msm_peers.sh" ]; then
    echo "== VMD msmpot on the same inputs"
    MSMPOT_SRC=$src step peers 600 "$PPL_ROOT/perf/device/msm_peers.sh" "$RESULTS/peers"
    { cat "$RESULTS"/peers/msmpot-*.json 2>/dev/null || echo "(no peer results: see peers.log)"; } |
      record "VMD msmpot (JSON lines of perf/peers/msmpot/driver)"
  else
    echo "(no msmpot source in $src: perf/peers/msmpot/README.md)" | record "VMD msmpot"
  fi
fi

driver_end
