source perf/device/setup.sh >/dev/null
env | grep -E "^OMP|^KOKKOS" ; echo "nproc $(nproc)"
echo "== stage_atoms 1 diagnosis"
CUDA_LAUNCH_BLOCKING=1 timeout 60 .device/bin/test_potential_strategies --gtest_filter='*cutoff_binned_cuda_67*' 2>&1 | grep -E "Failure|exception|OK|FAILED  \]" | head -5
for sa in 1 2 3 32; do
  timeout 60 .device/bin/ppl run configs/perf/cutoff_water.yaml -q --set "input.water_box.size=[30,30,30]" --set "lattice.dims=[60,60,60]" --set strategy=cutoff_binned_cuda --set "strategy_params={stage_atoms: $sa}" --set timing.repeats=1 --set output.summary=$OUT/sa.json > $OUT/sa$sa.log 2>&1; echo "stage_atoms $sa: exit $? $(grep -E 'error|verification' $OUT/sa$sa.log | head -2)"
done
ATOM_SPLIT_PARTS="tests plane fill auto" bash perf/device/atom_split.sh 2>&1 | tee $OUT/atom_split.txt | grep -v "^name\|^NVIDIA"
mkdir -p $OUT/as && mv $OUT/*.json $OUT/*.log $OUT/as/ 2>/dev/null
KRYLOV_ROWS=1000000,3000000 KRYLOV_PARTS="cd27" bash perf/device/krylov.sh 2>&1 | tee $OUT/krylov.txt | tail -40
cd $OUT && tar czf as.tgz as && rm -rf as
