#!/usr/bin/env bash
# On the GPU machine, one call (session of 2026-12-01): the PMPP plane end to end with its phases (bench_potential
# end_to_end/), the ion-placement tests and targets (perf/device/ions.sh tests target) and Nsight Compute on the
# placement passes. Everything comes back in $OUT/ions.tgz.
set -o pipefail
source perf/device/setup.sh >/dev/null
bin=.device/bin
echo "== end to end (PMPP plane), phases"
timeout 100 $bin/bench_potential --benchmark_filter='^end_to_end/' --benchmark_repetitions=10 --benchmark_report_aggregates_only=true --benchmark_out=$OUT/pmpp_end_to_end.json --benchmark_out_format=json > $OUT/pmpp_end_to_end.txt 2>&1
python3 - $OUT/pmpp_end_to_end.json <<'PY'
import json,sys
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('aggregate_name')=='median':
        print(b['name'].split('/min_time')[0], 'total %.4f ms'%b['real_time'], ' '.join('%s=%.4f'%(k,b[k]) for k in ('setup_ms','alloc_out_ms','compute_ms','copy_back_ms')), 'err %.2e'%b['verify_rel_l2'])
PY
IONS_PARTS="tests target" bash perf/device/ions.sh 2>&1 | grep -v "^name\|NVIDIA H200,"
echo "== ncu add_ion"
timeout 120 /usr/local/cuda/bin/ncu --kernel-name-base demangled -k 'regex:add_ion|select_point' -c 2 --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SpeedOfLight $bin/ppl run configs/perf/ions_100k_400_cutoff.yaml --set ions.counts="{Na+: 2}" -q > $OUT/ncu-placement-passes.txt 2>&1
grep -E "add_ion|select_point|Duration|DRAM Throughput|Executed Instructions  |Issue Slots Busy|Memory Throughput" $OUT/ncu-placement-passes.txt | head -30
cd $OUT && tar czf ions.tgz *.json *.log *.txt && rm -f *.json *.log *.txt
