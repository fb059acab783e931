#!/usr/bin/env bash
# On the GPU machine, in one call: the PMPP solutions' chapter 18 benchmark (.device/bin/pmpp_ch18_benchmark, built
# by perf/device/pmpp_peer.sh) and ppl's end-to-end cases on the same plane (perf/device/end_to_end.sh), results in
# $OUT. This is the command of perf/results/round13-h200/same-call (run there inline, printing the medians and
# spreads of the end-to-end cases).
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
timeout 120 $bin/pmpp_ch18_benchmark >$OUT/pmpp_solutions.txt 2>&1
grep -E "ms$" $OUT/pmpp_solutions.txt
BIN="$PWD/$bin" bash perf/device/end_to_end.sh
