#!/usr/bin/env bash
# The study configs (configs/studies/): every one passes `ppl validate` at full size, runs on this build in a
# reduced form (the same file, smaller problems and fewer points through --set), and perf/plot_study.py draws its
# plots from the records. Skips (exit 77, CTest's SKIP_RETURN_CODE) after the runs when no python3 with matplotlib
# is found (Debian's python3-matplotlib, or PPL_PYTHON3=...).
#   studies.sh PPL REPOSITORY
set -u
ppl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$2" && pwd)
studies=$repo/configs/studies
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
check() {  # name, then ppl's arguments
  local name=$1
  shift
  if ! "$ppl" "$@" --kokkos-threads=2 >"$name.log" 2>&1; then
    echo "FAIL $name: ppl $*"
    cat "$name.log"
    fail=1
  fi
}
# bicg_paper_freefem reads the matrices perf/sparse/freefem/generate.sh writes into build/freefem (FreeFem++, not
# a dependency of the build): validated at full size where they are, run reduced on data/'s small instances always.
freefem_small="vary={matrix.file: [$repo/data/matrices/stenosis-small.mtx.gz, $repo/data/matrices/fsi-small.mtx.gz],
  rhs.file: [$repo/data/matrices/stenosis-small.rhs.mtx.gz, $repo/data/matrices/fsi-small.rhs.mtx.gz],
  solver.preconditioner: [jacobi, ilu0], spmv.threads_per_row: [2, 8]}"
for f in "$studies"/*.yaml; do
  if [ "$(basename "$f")" = bicg_paper_freefem.yaml ] && [ "$(ls "$repo"/build/freefem/M[1-8].mtx.gz 2>/dev/null | wc -l)" != 8 ]; then
    check validate-bicg_paper_freefem validate "$f" --set "$freefem_small"
    continue
  fi
  check "validate-$(basename "$f" .yaml)" validate "$f"
done
quick=(--set warmup=0 --set repeats=1 -q)
check pmpp run "$studies/pmpp_ch18.yaml" "${quick[@]}" --set base.input.random.atoms=300 \
  --set 'base.lattice.dims=[20,20,12]' --set 'vary={strategy: [reference, gather, gather_coalesced,
    gather_hybrid_rsqrt_cuda], lattice.plane_z: [2.0, ~]}'
check coarsening run "$studies/coarsening.yaml" "${quick[@]}" \
  --set 'vary={lattice.dims: [[16,16,8], [24,24,8]], lattice.plane_z: [1.0, ~], input.random.atoms: [200, 300],
    strategy: [gather_coarsened, gather_coalesced], strategy_params.coarsening: [1, 4]}' \
  --set 'zip=[[lattice.dims, lattice.plane_z, input.random.atoms]]'
check binning run "$studies/binning.yaml" "${quick[@]}" --set base.input.random.atoms=2000 \
  --set 'base.input.random.box_hi=[23.5,23.5,23.5]' --set 'base.lattice.dims=[48,48,48]' \
  --set base.physics.interaction.radius=6 \
  --set 'vary=[{strategy: [cutoff_binned, cutoff_binned_cuda], strategy_params.bin_edge: [2, 4],
    strategy_params.bin_capacity: [8, 16]}, {strategy: [cutoff_large_bins]}]'
check cutoff_kernels run "$studies/cutoff_kernels.yaml" "${quick[@]}" \
  --set 'vary={input.water_box.size: [[20, 20, 20]], lattice.dims: [[40, 40, 40]],
    strategy: [cutoff_binned, cutoff_binned_cuda], strategy_params.region: [[8, 8, 8], [16, 8, 8]],
    strategy_params.stage_atoms: [128]}'
check bicg run "$studies/bicg_paper.yaml" "${quick[@]}" \
  --set 'vary={matrix.generator: [convection_diffusion, convection_diffusion_3x], matrix.n: [8, 6],
    spmv.threads_per_row: [2, 8, 32]}'
check bicg_freefem run "$studies/bicg_paper_freefem.yaml" "${quick[@]}" --set "$freefem_small"
# The ILU(0) studies on their converging points (the others stop at max_iters or diverge, which exits 4).
check ilu0_cd run "$studies/ilu0_cd_pe1000.yaml" "${quick[@]}" --set base.matrix.n=10 \
  --set 'vary={matrix.peclet: [1000.0, 200.0], solver.preconditioner: [ilu0],
    solver.preconditioner_params.factorization: [exact, auto]}'
check ilu0_nsjac run "$studies/ilu0_nsjac.yaml" "${quick[@]}" \
  --set 'vary={solver.preconditioner: [ilu0], solver.preconditioner_params.factorization: [exact, auto]}'
# Every point this build can run has its record (a CPU build lists the _cuda points as not runnable).
for s in pmpp:pmpp_ch18 coarsening:coarsening binning:binning cutoff_kernels:cutoff_kernels bicg:bicg_paper \
  bicg_freefem:bicg_paper_freefem ilu0_cd:ilu0_cd_pe1000 ilu0_nsjac:ilu0_nsjac; do
  measured=$(sed -n 's/.*: \([0-9]*\) points measured, 0 already.*/\1/p' "${s%%:*}.log")
  n=$(grep -c . "${s##*:}.jsonl" 2>/dev/null || echo 0)
  if [ -z "$measured" ] || [ "$measured" = 0 ] || [ "$n" != "$measured" ]; then
    echo "FAIL ${s##*:}.jsonl: $n records, ${measured:-no} points measured"
    cat "${s%%:*}.log"
    fail=1
  fi
done
[ $fail = 0 ] || exit 1

py=""
for c in "${PPL_PYTHON3:-}" /usr/bin/python3 python3; do
  if [ -n "$c" ] && "$c" -c 'import matplotlib' 2>/dev/null; then
    py=$c
    break
  fi
done
if [ -z "$py" ]; then
  echo "SKIP: the studies ran; no python3 with matplotlib for the plots (apt-get install python3-matplotlib)"
  exit 77
fi
expect_png() {
  if [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" != '211PNG' ]; then
    echo "FAIL: $1 is not a PNG"
    fail=1
  fi
}
for s in pmpp_ch18 coarsening binning bicg_paper; do
  if ! "$py" "$repo/perf/plot_study.py" "$s.jsonl" >"$s.plots" 2>&1; then
    echo "FAIL plot_study.py $s.jsonl"
    cat "$s.plots"
    fail=1
  fi
done
for png in pmpp_ch18_throughput pmpp_ch18_size coarsening_throughput coarsening_size binning_throughput \
  bicg_paper_throughput bicg_paper_size bicg_paper_heatmap bicg_paper_ceiling; do
  expect_png "$png.png"
done
[ $fail = 0 ] && echo "studies: $(ls "$studies"/*.yaml | wc -l) validated, 9 run reduced, plots drawn"
exit $fail
