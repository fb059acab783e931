#!/usr/bin/env bash
# On the GPU machine: where an ion's time goes. Nsight Compute on the placement kernels (select, add_ion,
# exclude_around) of configs/perf/ions_100k_400_cutoff.yaml (the map is cheap there), then the target job with
# the map's tile widths that divide the 400-point rows. Writes $OUT/ncu-ions.txt and a line per run.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$ncu" ]; then
  timeout 200 "$ncu" --clock-control none --kernel-name-base demangled -k 'regex:add_ion|select_point|exclude_around' \
    --section SpeedOfLight --section LaunchStats -c 6 "$bin/ppl" run configs/perf/ions_100k_400_cutoff.yaml -q \
    --set ions.counts="{Na+: 3}" --set output.summary="$OUT/ncu.json" >"$OUT/ncu-ions.txt" 2>&1
  grep -E "^  [a-zA-Z_:<]|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Block Size|Grid Size|Registers Per" \
    "$OUT/ncu-ions.txt" | cut -c1-150 | head -60
fi
run() {  # run NAME ARGS...: the target job with ARGS, its map and whole-job time
  local name=$1
  shift
  local t0=$(date +%s.%N)
  "$bin/ppl" run configs/perf/ions_100k_400.yaml -q --set output.summary="$OUT/$name.json" "$@" >"$OUT/$name.log" 2>&1 ||
    echo "$name exit $?"
  local t1=$(date +%s.%N)
  python3 - "$OUT/$name.json" "$name" "$t0" "$t1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); i = s["ions"]
print(f"{sys.argv[2]}: whole job {float(sys.argv[4]) - float(sys.argv[3]):.3f} s, map {s['timing']['median_s']:.4f} s "
      f"({s['atom_evaluations_per_s']:.3e}/s), placement {i['placement_seconds'] * 1e3:.2f} ms, per ion median "
      f"{i['per_ion_seconds']['median'] * 1e3:.4f} ms (min {i['per_ion_seconds']['min'] * 1e3:.4f}); phases {i['phases_seconds']}")
PY
}
for r in ${IONS_PROFILE_RUNS:-default bw50 hybrid50}; do
  case $r in
    default) run default ;;
    bw50) run bw50 --set "strategy_params={block_width: 50}" ;;
    hybrid50) run hybrid50 --set strategy=gather_hybrid_rsqrt_cuda --set "strategy_params={block_width: 50}" ;;
  esac
done
cd "$OUT" && tar czf ions-profile.tgz ./*.log ./*.json ./*.txt 2>/dev/null && rm -f ./*.log ./*.json
