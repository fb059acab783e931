#!/usr/bin/env bash
# Direct-summation potential maps on a CUDA GPU (docs/potential.md, docs/performance.md).
#
#   perf/device/potential.sh RESULTS_DIR          e.g. perf/results/potential-h200
#
# Parts (POTENTIAL_PARTS, default "bench auto end_to_end sass"):
#   bench       bench_potential: every direct strategy and its parameter sweeps on 256x256x64 with 20k atoms (the
#               sweeps) and 40k atoms (the defaults), PMPP's 100x100x50 lattice and its z = 10 A plane with 10k atoms,
#               and the hand-written CUDA kernels of perf/baselines/ (`baseline_cuda/...`); each variant verified
#               against float64 first, then POTENTIAL_REPEATS (5) repetitions of at least 0.2 s: median and cv
#               (POTENTIAL_FILTER: a --benchmark_filter regex, default all) -> bench_potential.json;
#   auto        `strategy: auto` as a job would run it, 2 warm-ups + 20 timed computes: the PMPP plane, the PMPP
#               lattice, 256x256x64 with 40k atoms, ubiquitin -> auto-*.json (the strategy chosen and why);
#   end_to_end  bench_potential end_to_end/ on the PMPP plane (set-up from host atoms, output buffer, compute, copy
#               back; 10 repetitions) and, when built, the PMPP solutions' own chapter-18 benchmark in the same call
#               (perf/baselines/pmpp_solutions.sh) -> end_to_end.json, pmpp_solutions.log;
#   sass        cuobjdump -sass of bench_potential's hot kernels, one file and one opcode histogram per kernel;
#   split       gather_atom_split on the PMPP plane (combine x atoms_per_chunk x coarsening, team shapes) and the
#               lattice size where gather_coalesced catches up (the `auto` rule's thresholds) -> split-*.json;
#   probe       perf/potential/cuda/potential_probe.cu (standalone CUDA: the rsqrt ceiling and the designs), built
#               with nvcc if needed, with the SM clock sampled by nvidia-smi -> probe.csv, probe-clock.csv.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
PARTS=${POTENTIAL_PARTS:-bench auto end_to_end sass}
driver_start "Direct-summation potential maps (perf/device/potential.sh)" "$@"
PPL=$(exe ppl)
bench_potential=$(exe bench_potential)
repeats=${POTENTIAL_REPEATS:-5}

if want bench; then
  echo "== bench_potential (filter ${POTENTIAL_FILTER:-.}, $repeats repetitions)"
  bench bench_potential 560 "$bench_potential" --benchmark_filter="${POTENTIAL_FILTER:-.}" \
    --benchmark_repetitions="$repeats" --benchmark_report_aggregates_only=true
  summary "bench_potential (median ms, cv, atom-evaluations/s, fraction of the rsqrt ceiling)" potential \
    "$RESULTS/bench_potential.json"
fi

plane=configs/examples/pmpp_plane.yaml
whole=configs/perf/direct_pmpp.yaml
large=(--set input.random.atoms=40000 --set "input.random.box_hi=[128, 128, 32]" --set "lattice.dims=[256, 256, 64]")
if want auto; then
  echo "== strategy: auto"
  timing=(--set timing.warmup=2 --set timing.repeats=20)
  job auto-pmpp-plane 120 "$plane" --set strategy=auto "${timing[@]}"
  job auto-pmpp-whole 120 "$whole" --set strategy=auto "${timing[@]}"
  job auto-large 180 "$whole" --set strategy=auto "${large[@]}" --set timing.warmup=2 --set timing.repeats=5
  job auto-ubiquitin 120 configs/examples/ubiquitin.yaml --set strategy=auto "${timing[@]}" \
    --set output.dx="$RESULTS/auto-ubiquitin.dx"
  rm -f "$RESULTS/auto-ubiquitin.dx"
  summary "strategy: auto (kernel time between fences)" jobs "$RESULTS"/auto-*.json
fi

if want end_to_end; then
  echo "== end to end on the PMPP plane"
  bench end_to_end 180 "$bench_potential" --benchmark_filter='^end_to_end/' --benchmark_repetitions=10 \
    --benchmark_report_aggregates_only=true
  if pmpp=$(exe pmpp_ch18_benchmark 2>/dev/null); then
    step pmpp_solutions 120 "$pmpp"
    { grep -E "ms$|Speedup|vs Sequential" "$RESULTS/pmpp_solutions.log" || true; } | head -12 |
      record "the PMPP solutions' benchmark, same call"
  else
    echo "(no pmpp_ch18_benchmark: perf/baselines/pmpp_solutions.sh builds it)"
  fi
  summary "ppl end to end on the PMPP plane (ms, median of 10)" end-to-end "$RESULTS/end_to_end.json"
fi

if want sass; then
  echo "== SASS of the hot kernels"
  cuobjdump=$(cuobjdump_path)
  if [ -n "$cuobjdump" ]; then
    "$cuobjdump" -sass "$bench_potential" >"$RESULTS/sass-all.txt" 2>&1 || FAILED=$((FAILED + 1))
    # name:key[+key2]: the Function sections of cuobjdump's listing whose mangled name contains every key.
    for pair in gather_coalesced_C8:coalesced_kernelILi8E+portable_row gather_coarsened_C8:coarsened_kernelILi8EE \
      gather_fast:gather_kernelILb1EE constmem_C8:constmem_kernelILi8EE \
      hybrid_C8_S1:coalesced_kernelILi8E+hybrid_rowILi1EE baseline_constmem_ftz:constmem_kernelILNS_10rsqrt_kindE1EE \
      baseline_tiles:tiles_kernel; do
      name=${pair%%:*} keys=${pair#*:}
      awk -v keys="$keys" 'BEGIN {n = split(keys, k, "+")}
        /Function : / {keep = 1; for (i = 1; i <= n; ++i) if (index($0, k[i]) == 0) keep = 0} keep' \
        "$RESULTS/sass-all.txt" >"$RESULTS/sass-$name.txt"
      sed -nE 's#^ +/\*[0-9a-f]{4,}\*/ +(@P?!?[A-Z0-9]+ +)?([A-Z][A-Z0-9_.]*).*#\2#p' "$RESULTS/sass-$name.txt" |
        sort | uniq -c | sort -rn >"$RESULTS/sass-$name.histogram.txt" || true
      printf '%-22s %6s instructions, MUFU.RSQ %s\n' "$name" \
        "$(awk '{s += $1} END {print s + 0}' "$RESULTS/sass-$name.histogram.txt")" \
        "$(grep -c 'MUFU.RSQ' "$RESULTS/sass-$name.txt" || true)"
    done | record "SASS per kernel (cuobjdump -sass bench_potential)"
    rm -f "$RESULTS/sass-all.txt"
    for f in "$RESULTS"/sass-*.txt; do [[ $f == *.histogram.txt ]] || gzip -f "$f"; done
  else
    echo "no cuobjdump: no SASS"
  fi
fi

if want split; then
  echo "== gather_atom_split: chunking on the PMPP plane, then lattice size"
  t=(--set timing.warmup=2 --set timing.repeats=20)
  for s in gather gather_coalesced gather_hybrid_rsqrt_cuda; do job "split-plane-$s" 120 "$plane" --set strategy=$s "${t[@]}"; done
  for combine in two_pass atomic; do
    for c in 2 4 8; do
      for apc in 0 32 128 512; do
        job "split-plane-$combine-c$c-a$apc" 120 "$plane" --set strategy=gather_atom_split "${t[@]}" \
          --set "strategy_params={combine: $combine, coarsening: $c, atoms_per_chunk: $apc}"
      done
    done
  done
  for k in 1 2 4 8 16 32 64; do
    for s in "coalesced gather_coalesced {}" "split2 gather_atom_split {combine: two_pass}" \
      "splitA gather_atom_split {combine: atomic}"; do
      read -r tag strategy params <<<"$s"
      job "split-fill-256x256x$k-$tag" 180 "$whole" "${large[@]}" --set "lattice.dims=[256, 256, $k]" \
        --set strategy="$strategy" --set "strategy_params=$params" --set timing.warmup=2 \
        --set timing.repeats=$((k > 16 ? 3 : 20))
    done
  done
  summary "gather_atom_split: chunking and lattice size" jobs "$RESULTS"/split-*.json
fi

if want probe; then
  echo "== potential_probe (standalone CUDA)"
  probe=$(exe potential_probe 2>/dev/null) || {
    probe=$PPL_BUILD/perf/potential_probe
    mkdir -p "$(dirname "$probe")"
    "$(nvcc_path)" -O3 -std=c++17 -arch="$(sm_arch)" -use_fast_math -lineinfo -o "$probe" perf/potential/cuda/potential_probe.cu
  }
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 \
    >"$RESULTS/probe-clock.csv" 2>&1 &
  smi=$!
  step probe 300 "$probe" --csv "$RESULTS/probe.csv"
  kill "$smi" 2>/dev/null || true
  tail -20 "$RESULTS/probe.log" | record "potential_probe (last lines; probe.csv has every variant)"
  gzip -f "$RESULTS/probe-clock.csv"
fi
driver_end
