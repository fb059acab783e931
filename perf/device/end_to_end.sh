#!/usr/bin/env bash
# On the GPU machine: bench_potential's end_to_end/ cases on the PMPP plane (set-up from the host atoms, output buffer,
# compute, copy back; median of 10 repetitions) into $OUT/pmpp_end_to_end.json and .txt, and one line per case with
# its phases. Called by the scripts that measure it (studies.sh, pmpp_end_to_end.sh, round7.sh, round13.sh); BIN
# names the folder of the binaries (default .device/bin under the current folder).
: "${OUT:?OUT must name the output folder}"
bin=${BIN:-$PWD/.device/bin}
timeout 120 "$bin/bench_potential" --benchmark_filter='^end_to_end/' --benchmark_repetitions=10 \
  --benchmark_report_aggregates_only=true --benchmark_out="$OUT/pmpp_end_to_end.json" --benchmark_out_format=json \
  >"$OUT/pmpp_end_to_end.txt" 2>&1
python3 - "$OUT/pmpp_end_to_end.json" <<'PY'
import json, sys
keys = ("setup_ms", "alloc_out_ms", "compute_ms", "copy_back_ms", "upload_ms", "allocations", "reuses")
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") == "median":
        print(b["name"].split("/min_time")[0], "total %.4f ms" % b["real_time"],
              " ".join("%s=%.4f" % (k, b[k]) for k in keys if k in b))
PY
