#!/usr/bin/env bash
# Cutoff potential maps on a CUDA GPU (docs/cutoff.md): the 1,000,788-atom water box of
# configs/perf/cutoff_water.yaml (8.0e7 points at 0.5 A, Parboil's cutcp at 12 A), kernel time and set-up.
#
#   perf/device/cutoff.sh RESULTS_DIR          e.g. perf/results/cutoff-h200
#
# Each job bins the atoms once (the set-up, reported apart: atoms to the device, device binning, the offset list,
# host overflow; strategy_breakdown's setup_upload_s, setup_binning_s, setup_stencil_s), then times 1 warm-up + 5
# computes between fences (median, min, max) and checks 300 sampled points against float64.
# Parts (CUTOFF_PARTS, default "target params scale"):
#   target  cutoff_binned_cuda CUTOFF_RUNS (3) times and the portable cutoff_binned twice -> water1m-*.json;
#   params  parameter choices of both kernels and cutoff_large_bins (one job each, 3 timed computes), and the
#           periodic form of the box -> param-*.json;
#   scale   water boxes of 1k to 1M atoms with cutoff_binned_cuda, and direct summation (gather_coalesced, Coulomb)
#           on the three smallest: the crossover -> scale-*.json (perf/potential/plot_cutoff_scale.py draws it);
#   sass    the SASS of both kernels (cuobjdump of ppl): how the portable kernel reads its staged atoms.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
PARTS=${CUTOFF_PARTS:-target params scale}
driver_start "Cutoff maps, the 1M-atom water box (perf/device/cutoff.sh)" "$@"
PPL=$(exe ppl)
box=configs/perf/cutoff_water.yaml

if want target; then
  echo "== the target: cutoff_binned_cuda, then the portable cutoff_binned"
  for r in $(seq 1 "${CUTOFF_RUNS:-3}"); do job "water1m-cuda-$r" 180 "$box" --set strategy=cutoff_binned_cuda; done
  for r in 1 2; do job "water1m-portable-$r" 180 "$box" --set strategy=cutoff_binned; done
  summary "the 1M-atom water box: compute (median of 5), set-up breakdown (ms)" jobs "$RESULTS"/water1m-*.json
fi

if want params; then
  echo "== parameters (one job each)"
  while read -r name strategy params; do
    [ -n "$name" ] || continue
    job "param-$name" 180 "$box" --set strategy="$strategy" --set "strategy_params=$params" --set timing.repeats=3
  done <<'VARIANTS'
cuda-default cutoff_binned_cuda {}
cuda-cylinder cutoff_binned_cuda {atom_test: cylinder}
cuda-c4 cutoff_binned_cuda {coarsening: 4}
cuda-c16-r16 cutoff_binned_cuda {coarsening: 16, region: [16, 8, 8]}
cuda-r16 cutoff_binned_cuda {region: [16, 8, 8]}
cuda-r8x4x8 cutoff_binned_cuda {region: [8, 4, 8]}
cuda-s128 cutoff_binned_cuda {stage_atoms: 128}
cuda-edge2 cutoff_binned_cuda {bin_edge: 2.0}
cuda-edge3 cutoff_binned_cuda {bin_edge: 3.0}
cuda-c4-edge3 cutoff_binned_cuda {coarsening: 4, bin_edge: 3.0}
portable-default cutoff_binned {}
portable-cylinder cutoff_binned {atom_test: cylinder}
portable-c4 cutoff_binned {coarsening: 4}
portable-s128 cutoff_binned {stage_atoms: 128}
portable-s512 cutoff_binned {stage_atoms: 512}
portable-edge3 cutoff_binned {bin_edge: 3.0}
large-bins cutoff_large_bins {}
VARIANTS
  job param-portable-periodic 180 "$box" --set strategy=cutoff_binned --set lattice.periodic=true --set timing.repeats=3
  summary "parameters (median of 3 computes)" jobs "$RESULTS"/param-*.json
fi

if want scale; then
  echo "== scale series"
  for n in 21.5:43 46.4:93 100:200 146.5:293 215.5:431; do
    side=${n%%:*} dims=${n##*:}
    job "scale-binned-$dims" 180 "$box" --set strategy=cutoff_binned_cuda --set "input.water_box.size=[$side,$side,$side]" \
      --set "lattice.dims=[$dims,$dims,$dims]" --set timing.repeats=3
  done
  for n in 21.5:43 46.4:93 100:200; do
    side=${n%%:*} dims=${n##*:}
    job "scale-direct-$dims" 180 "$box" --set strategy=gather_coalesced --set 'physics.interaction={kind: coulomb}' \
      --set "input.water_box.size=[$side,$side,$side]" --set "lattice.dims=[$dims,$dims,$dims]" --set timing.repeats=3
  done
  summary "scale series (cutoff_binned_cuda, and direct summation on the small boxes)" jobs "$RESULTS"/scale-*.json
fi

if want sass; then
  echo "== SASS of the cutoff kernels"
  cuobjdump=$(cuobjdump_path)
  if [ -n "$cuobjdump" ]; then
    "$cuobjdump" -sass "$PPL" 2>/dev/null | awk '/Function : / {on = /binned/} on' >"$RESULTS/sass-cutoff.txt" || true
    { grep "Function :" "$RESULTS/sass-cutoff.txt" | cut -c1-120 || true
      echo "LDS.128 $(grep -c 'LDS.128' "$RESULTS/sass-cutoff.txt" || true), LD.E.128 $(grep -c 'LD.E.128' \
        "$RESULTS/sass-cutoff.txt" || true), MUFU.RSQ $(grep -c 'MUFU.RSQ' "$RESULTS/sass-cutoff.txt" || true)"
    } | record "SASS of the cutoff kernels (all functions together)"
    gzip -f "$RESULTS/sass-cutoff.txt"
  else
    echo "no cuobjdump: no SASS"
  fi
fi
driver_end
