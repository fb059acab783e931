#!/usr/bin/env bash
# On the GPU machine, in one call: gather_atom_split and the thresholds of `strategy: auto` (issue 11; the
# thresholds are auto_rule in include/ppl/potential/strategy_choice.hpp, docs/potential.md "strategy: auto").
#   1. tests: test_potential_strategies' atom-split, strategy-choice, registry and edge tests on the CUDA backend;
#   2. plane: the PMPP plane (configs/examples/pmpp_plane.yaml, 10,000 points, 10,000 atoms): gather,
#      gather_coalesced, gather_hybrid_rsqrt_cuda, then gather_atom_split over combine x atoms_per_chunk x coarsening
#      and two team shapes: which chunking and combine are fastest (split_min_chunk_atoms, split_target_waves, the
#      default combine);
#   3. fill: lattices of growing size (100 x 100 x k with the PMPP atoms, 256 x 256 x k with 40,000 atoms),
#      gather_coalesced against gather_atom_split (automatic chunks, both combines): where splitting stops paying,
#      in gather_coalesced's point tiles per resident team (fill_waves); each summary has point_tiles and teams;
#   4. auto: the examples and the large case with strategy: auto, to confirm the choices (no regression at
#      256 x 256 x 64: 3.94e12/s in run 4).
# ATOM_SPLIT_PARTS picks the parts (default "tests plane fill auto"); ATOM_SPLIT_REPEATS the timed computes (20);
# ATOM_SPLIT_COARSENING and ATOM_SPLIT_CHUNKS the plane's grid (default "2 4 8" x "0 32 128 512": each run is a
# process, about half a second of CUDA start-up, so the grid is kept small).
# Expects .device/bin/{ppl,test_potential_strategies} built for CUDA (perf/device/pack.sh) and .device/lib;
# ATOM_SPLIT_BIN=build/openmp runs the same on the OpenMP build (a dry run of the script).
source perf/device/setup.sh
set -o pipefail
bin=${ATOM_SPLIT_BIN:-.device/bin}
repeats=${ATOM_SPLIT_REPEATS:-20}
run() {  # run NAME CONFIG ARGS...: one job, its summary as $OUT/NAME.json, its log as $OUT/NAME.log, one line here
  local name=$1 cfg=$2
  shift 2
  timeout "${ATOM_SPLIT_TIMEOUT:-120}" "$bin/ppl" run "$cfg" --set output.summary="$OUT/$name.json" \
    --set timing.warmup=2 --set timing.repeats="$repeats" "$@" >"$OUT/$name.log" 2>&1 || echo "$name: exit $?"
  awk -v n="$name" '/^time /{t=$3" (min "$6")"} /^throughput /{r=$2}
    /^verification /{v=$10; sub(/,$/, "", v)} /^strategy .*point_tiles/{sub(/^strategy +/, ""); b=$0}
    /^strategy +auto:/{sub(/^strategy +auto: /, ""); a=$1}
    END{printf "%-34s median %s | %s /s | err %s | %s%s\n", n, t, r, v, a == "" ? "" : "auto: " a " | ", b}' \
    "$OUT/$name.log"
}
plane=configs/examples/pmpp_plane.yaml
whole=configs/perf/direct_pmpp.yaml
parts=" ${ATOM_SPLIT_PARTS:-tests plane fill auto} "
want() { [[ $parts == *" $1 "* ]]; }
if want tests; then
  echo "== tests"
  timeout 300 stdbuf -oL "$bin/test_potential_strategies" --gtest_brief=1 \
    --gtest_filter='*AtomSplit*:*StrategyChoice*:*atom_split*:Registry/PotentialStrategy.*' \
    >"$OUT/test_potential_strategies.log" 2>&1
  tail -3 "$OUT/test_potential_strategies.log"
fi
if want plane; then
  echo "== the PMPP plane (100 x 100 points, 10,000 atoms; compute limit 24 us)"
  for s in gather gather_coalesced gather_hybrid_rsqrt_cuda; do run "plane-$s" $plane --set strategy=$s; done
  for combine in two_pass atomic; do
    for c in ${ATOM_SPLIT_COARSENING:-2 4 8}; do
      for apc in ${ATOM_SPLIT_CHUNKS:-0 32 128 512}; do
        run "plane-split-$combine-c$c-a$apc" $plane --set strategy=gather_atom_split \
          --set "strategy_params={combine: $combine, coarsening: $c, atoms_per_chunk: $apc}"
      done
    done
  done
  for shape in "32, block_rows: 4" "32, block_rows: 8" "16, block_rows: 8"; do
    for apc in 0 64 256; do
      run "plane-split-w${shape%%,*}-r${shape##* }-a$apc" $plane --set strategy=gather_atom_split \
        --set "strategy_params={coarsening: 4, block_width: $shape, atoms_per_chunk: $apc}"
    done
  done
fi
if want fill; then
  echo "== filling the device: gather_coalesced against gather_atom_split by lattice size"
  for k in 1 2 4 8 16 32 50; do
    for s in "coalesced gather_coalesced {}" "split2 gather_atom_split {combine: two_pass}" \
      "splitA gather_atom_split {combine: atomic}"; do
      read -r tag strategy params <<<"$s"
      run "fill-100x100x$k-$tag" $whole --set "lattice.dims=[100, 100, $k]" --set strategy=$strategy \
        --set "strategy_params=$params"
    done
  done
  for k in 1 2 4 8 16 32 64; do
    for s in "coalesced gather_coalesced {}" "split2 gather_atom_split {combine: two_pass}" \
      "splitA gather_atom_split {combine: atomic}"; do
      read -r tag strategy params <<<"$s"
      run "fill-256x256x$k-$tag" $whole --set input.random.atoms=40000 --set "input.random.box_hi=[128, 128, 32]" \
        --set "lattice.dims=[256, 256, $k]" --set strategy=$strategy --set "strategy_params=$params" \
        --set timing.repeats=$((k > 16 ? 3 : repeats))
    done
  done
fi
if want auto; then
  echo "== strategy: auto"
  run auto-pmpp-plane $plane
  run auto-pmpp-whole $whole --set strategy=auto
  run auto-large $whole --set strategy=auto --set input.random.atoms=40000 --set "input.random.box_hi=[128, 128, 32]" \
    --set "lattice.dims=[256, 256, 64]" --set timing.repeats=3
  run auto-ubiquitin configs/examples/ubiquitin.yaml --set output.dx=/tmp/ppl-atom-split-ubq.dx
fi
