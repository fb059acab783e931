#!/usr/bin/env bash
# The tuning studies of configs/studies/ on a CUDA GPU (docs/performance.md, docs/sweep.md): each a `job: sweep`
# whose records (one JSON line per point: configuration, revision, device, median time of the job's own timing,
# throughput, fraction of the ceiling, verification) land in RESULTS/<study>.jsonl and .csv, then their plots.
#
#   perf/device/studies.sh RESULTS_DIR          e.g. perf/results/studies-h200
#
# A sweep writes every point as it is measured and skips measured points when it runs again with the same results
# file, so a study cut off by its time limit (STUDY_LIMIT_<name> seconds) continues where it stopped the next time
# this command runs into the same folder. STUDIES picks the studies, in this order by default:
#   pmpp_ch18             PMPP chapter 18: every strategy on the plane and the whole lattice;
#   pmpp_ch18_sequential  the chapter's sequential version (`reference`) on one host thread, the plane only;
#   coarsening            coarsening 1-16 of gather_coarsened and gather_coalesced on three lattices;
#   binning               the binning lecture's case: bin edge and capacity of the cutoff kernels;
#   cutoff_kernels        region and stage size of both cutoff kernels on the 1M-atom water box;
#   bicg_paper            the 2016 BiCG paper: threads per row 2-32 on its matrix sizes;
#   bicg_paper_host       bicg_paper's CPU points with the OpenMP build (PPL_OPENMP_BUILD) on one thread and on every
#                         CPU, 20 iterations a solve (the GPU's speed-up over the host).
# Plots (perf/plot_study.py) where matplotlib is installed.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
driver_start "Tuning studies, configs/studies (perf/device/studies.sh)" "$@"
PPL=$(exe ppl)
studies=${STUDIES:-pmpp_ch18 pmpp_ch18_sequential coarsening binning cutoff_kernels bicg_paper bicg_paper_host}
limit() {
  local v="STUDY_LIMIT_$1"
  echo "${!v:-$2}"
}
"$PPL" info --json >"$RESULTS/info.json" 2>/dev/null || true
cd "$RESULTS"  # the sweeps write <study>.jsonl and .csv into the current folder
for s in $studies; do
  echo "== $s ($(date -u +%T) UTC)"
  case $s in
    pmpp_ch18) step "$s" "$(limit $s 120)" "$PPL" run "$PPL_ROOT/configs/studies/$s.yaml" -q ;;
    pmpp_ch18_sequential)
      step "$s" "$(limit $s 90)" "$PPL" run "$PPL_ROOT/configs/studies/pmpp_ch18.yaml" -q --kokkos-threads=1 \
        --set 'vary={strategy: [reference], lattice.plane_z: [10.0]}' --set repeats=3 ;;
    coarsening | binning | bicg_paper) step "$s" "$(limit $s 150)" "$PPL" run "$PPL_ROOT/configs/studies/$s.yaml" -q ;;
    cutoff_kernels) step "$s" "$(limit $s 420)" "$PPL" run "$PPL_ROOT/configs/studies/$s.yaml" -q ;;
    bicg_paper_host)
      host_ppl=$(host_exe ppl) || { FAILED=$((FAILED + 1)); continue; }
      for t in 1 "$(nproc)"; do
        OMP_NUM_THREADS=$t step "$s-threads$t" "$(limit $s 200)" "$host_ppl" run "$PPL_ROOT/configs/studies/bicg_paper.yaml" \
          -q --kokkos-threads="$t" --set base.solver.max_iters=20 --set warmup=0 --set repeats=1 \
          --set output.results=bicg_paper_host.jsonl --set 'vary={matrix.generator: [convection_diffusion, convection_diffusion, convection_diffusion, convection_diffusion, convection_diffusion_3x, convection_diffusion_3x, convection_diffusion_3x, convection_diffusion_3x], matrix.n: [80, 88, 104, 110, 63, 75, 85, 102], spmv.strategy: [scalar]}'
      done ;;
    *) echo "unknown study $s"; FAILED=$((FAILED + 1)); continue ;;
  esac
done
for f in *.jsonl; do if [ -s "$f" ]; then echo "$f: $(wc -l <"$f") records"; fi; done | record "records per study"

echo "== plots"
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  declare -A param=([coarsening]=strategy_params.coarsening [binning]=strategy_params.bin_edge
    [cutoff_kernels]=strategy_params.stage_atoms [bicg_paper]=spmv.threads_per_row)
  for f in *.jsonl; do
    [ -s "$f" ] || continue
    study=${f%.jsonl}
    /usr/bin/python3 "$PPL_ROOT/perf/plot_study.py" "$f" ${param[$study]:+--param "${param[$study]}"} ||
      echo "plot of $f failed"
  done
else
  echo "(no matplotlib here: /usr/bin/python3 perf/plot_study.py FILE.jsonl makes the plots elsewhere)"
fi
driver_end
