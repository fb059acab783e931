#!/usr/bin/env bash
# Ion placement on a CUDA GPU (docs/ions.md): 150 ions (100 Na+, 50 Cl-) around a 100,000-atom solute on a 400^3
# lattice at 0.5 A (configs/perf/ions_100k_400.yaml), the time per ion and the whole job.
#
#   perf/device/ions.sh RESULTS_DIR          e.g. perf/results/ions-h200
#
# A job computes the map once (a cold run: the whole job is what is measured), builds the mask, places the ions one
# at a time on the device (ions.per_ion: median, min, max over the 150) and reports its own time
# (ions.job_s, from loading the job to its outputs); wall_seconds.txt adds the process's start and exit.
# Parts (IONS_PARTS, default "target compare"):
#   target   IONS_RUNS (3) jobs with the default map strategy and placement (ions.algorithm: bounded), one with
#            gather_hybrid_rsqrt_cuda, one with the full pass (ions.algorithm: full_pass), compared with the first
#            (the same points and map checksum expected), and the 12 A cutoff map
#            (configs/perf/ions_100k_400_cutoff.yaml) with cutoff_binned and cutoff_binned_cuda, each placement;
#   compare  configs/examples/ions_actin.yaml at 2 A, its placed ions compared point by point with the OpenMP run
#            committed in perf/results/ions-openmp/actin_2A.json (the maps differ in their last bits, so a near-tie
#            may go the other way: the first difference is printed);
#   startup  what a process costs before and after its job: `ppl info` and a one-point potential job, five each.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
PARTS=${IONS_PARTS:-target compare}
driver_start "Ion placement, 150 ions on 400^3 (perf/device/ions.sh)" "$@"
PPL=$(exe ppl)

if want target; then
  echo "== the target"
  for r in $(seq 1 "${IONS_RUNS:-3}"); do job "ions100k-$r" 180 configs/perf/ions_100k_400.yaml; done
  job ions100k-hybrid 180 configs/perf/ions_100k_400.yaml --set strategy=gather_hybrid_rsqrt_cuda
  job ions100k-full-pass 180 configs/perf/ions_100k_400.yaml --set ions.algorithm=full_pass
  job ions100k-cutoff 180 configs/perf/ions_100k_400_cutoff.yaml
  job ions100k-cutoff-full-pass 180 configs/perf/ions_100k_400_cutoff.yaml --set ions.algorithm=full_pass
  job ions100k-cutoff-cuda 180 configs/perf/ions_100k_400_cutoff.yaml --set strategy=cutoff_binned_cuda
  summary "150 ions on 400^3: map, mask, placement, per ion, the job's own time" jobs "$RESULTS"/ions100k-*.json
  { grep ions100k "$RESULTS/wall_seconds.txt" || true; } | record "whole process, seconds (wall_seconds.txt)"
  { for pair in "ions100k-1 ions100k-full-pass" "ions100k-cutoff ions100k-cutoff-full-pass"; do
      read -r a b <<<"$pair"
      "${SUMMARIZE[@]}" ions-compare "$RESULTS/$a.json" "$RESULTS/$b.json" || echo "($a against $b: no comparison)"
    done; } | record "bounded against full_pass: placed points and the map's checksum"
fi

if want compare; then
  echo "== CUDA against OpenMP: configs/examples/ions_actin.yaml at 2 A"
  step actin_2A 120 "$PPL" run configs/examples/ions_actin.yaml --set lattice.spacing=2.0 \
    --set "output={summary: $RESULTS/actin_2A.json}"
  { "${SUMMARIZE[@]}" ions-compare "$RESULTS/actin_2A.json" perf/results/ions-openmp/actin_2A.json ||
    echo "(no comparison)"; } | record "placed points, this GPU against OpenMP"
fi

if want startup; then
  echo "== process start and exit"
  for r in 1 2 3 4 5; do
    step "startup-info-$r" 60 "$PPL" info
    job "startup-one-point-$r" 60 configs/examples/pmpp_plane.yaml --set 'lattice.dims=[1,1,1]' --set lattice.plane_z=~ \
      --set input.random.atoms=1 --set timing.warmup=0 --set timing.repeats=1
  done
  { grep startup "$RESULTS/wall_seconds.txt" || true; } | record "ppl info and a one-point job, whole process (s)"
fi
driver_end
