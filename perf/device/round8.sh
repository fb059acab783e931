#!/usr/bin/env bash
# On the GPU machine, the session's third measuring call (2026-12-01): the per-ion pass with group = 8 points per access
# (.device/bin/ppl_g8_ppt<N>: ppl built with group = 8 and points_per_team = N in src/ions/placement.cpp) beside
# .device/bin/ppl, the ion targets with unpinned OpenMP (ions.sh target), bicg_paper's CPU points again.
source perf/device/setup.sh >/dev/null
bin=$PWD/.device/bin
for p in ppl ppl_g8_ppt16384 ppl_g8_ppt32768 ppl; do
  for r in 1 2; do
    timeout 60 "$bin/$p" run configs/perf/ions_100k_400.yaml --set strategy=gather_hybrid_rsqrt_cuda \
      --set output.summary="$OUT/ions-$p-$r.json" >"$OUT/ions-$p-$r.log" 2>&1
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); i=s['ions']; p=i['per_ion_seconds']; print(sys.argv[2], 'placement %.2f ms, per ion median %.4f ms (min %.4f, max %.4f), verification %.3f s' % (i['placement_seconds']*1e3, p['median']*1e3, p['min']*1e3, p['max']*1e3, i['phases_seconds']['verification']))" "$OUT/ions-$p-$r.json" "$p run $r"
  done
done
IONS_PARTS=target bash perf/device/ions.sh 2>&1 | grep -v "^name\|NVIDIA H200,"
KRYLOV_CHECK=0 STUDIES="bicg_paper_host" STUDY_LIMIT_bicg_paper_host=100 bash perf/device/studies.sh 2>&1 | tail -4
tar czf /tmp/d.tgz -C "$OUT" . && find "$OUT" -type f -delete && mv /tmp/d.tgz "$OUT"/
