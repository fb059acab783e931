#!/usr/bin/env bash
# On the GPU machine, in one call: the PMPP solutions' chapter 18 benchmark (.device/bin/pmpp_ch18_benchmark, built
# by perf/device/pmpp_peer.sh) and ppl's end-to-end cases on the same plane (bench_potential end_to_end/, median of
# 10 repetitions), results in $OUT. This is the command of perf/results/round13-h200/same-call (run there inline).
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
timeout 120 $bin/pmpp_ch18_benchmark >$OUT/pmpp_solutions.txt 2>&1
grep -E "ms$" $OUT/pmpp_solutions.txt
timeout 100 $bin/bench_potential --benchmark_filter='^end_to_end/' --benchmark_repetitions=10 \
  --benchmark_report_aggregates_only=true --benchmark_out=$OUT/pmpp_end_to_end.json --benchmark_out_format=json \
  >$OUT/pmpp_end_to_end.txt 2>&1
python3 -c "
import json
for b in json.load(open('$OUT/pmpp_end_to_end.json'))['benchmarks']:
    if b.get('aggregate_name') in ('median','stddev'): print(b['name'].split('/min_time')[0], b['aggregate_name'], '%.4f ms'%b['real_time'], 'allocations %d reuses %d'%(b['allocations'], b['reuses']))
"
