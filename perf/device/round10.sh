#!/usr/bin/env bash
# On the GPU machine, the session's fifth measuring call (2026-12-01), everything into $OUT/round10.tgz:
#  1. the cutoff_kernels study (configs/studies/cutoff_kernels.yaml: region and stage size of both cutoff kernels on
#     the 1M-atom water box);
#  2. what a process costs before and after its job: `ppl info` (Kokkos and CUDA initialised and finalised) and a
#     one-point potential job, each timed as a whole five times;
#  3. the SASS of both cutoff kernels (cuobjdump of .device/bin/ppl), for the portable-against-CUDA comparison.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
bin=$PWD/.device/bin
repo=$PWD
echo "== cutoff_kernels"
(cd "$OUT" && timeout 400 "$bin/ppl" run "$repo/configs/studies/cutoff_kernels.yaml" -q >cutoff_kernels.log 2>&1
  echo "exit $?"; tail -2 cutoff_kernels.log)
python3 - "$OUT/cutoff_kernels.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l); s = r["settings"]
    print(f"{s['strategy']:20s} region {str(s['strategy_params.region']):14s} stage {s['strategy_params.stage_atoms']:4d} "
          f"{r['time']['median']*1e3:8.3f} ms ({r['time']['min']*1e3:.3f}-{r['time']['max']*1e3:.3f})")
PY
echo "== process start and exit"
for r in 1 2 3 4 5; do
  /usr/bin/time -f "ppl info: %e s" "$bin/ppl" info >/dev/null 2>>"$OUT/startup.txt"
  /usr/bin/time -f "one-point job: %e s" "$bin/ppl" run configs/examples/pmpp_plane.yaml -q \
    --set 'lattice.dims=[1,1,1]' --set lattice.plane_z=~ --set input.random.atoms=1 --set timing.warmup=0 --set timing.repeats=1 \
    --set output.summary="$OUT/one-point.json" >/dev/null 2>>"$OUT/startup.txt"
done
cat "$OUT/startup.txt"
echo "== SASS of the cutoff kernels"
PATH=$PATH:/usr/local/cuda/bin cuobjdump -sass "$bin/ppl" 2>/dev/null |
  awk '/Function : / {on = /binned/} on' | gzip >"$OUT/sass-cutoff.txt.gz"
zcat "$OUT/sass-cutoff.txt.gz" | grep "Function :" | cut -c1-160
tar czf /tmp/round10.tgz -C "$OUT" . && find "$OUT" -type f -delete && mv /tmp/round10.tgz "$OUT"/
