#!/usr/bin/env bash
# On the GPU machine, the session's second measuring call (2026-12-01), everything into $OUT/round7.tgz:
#  1. the host CPUs this machine gives a process (nproc, affinity, cgroup quota) and an OpenMP solve on 1 and on
#     all of them with and without setup.sh's OMP_PROC_BIND/OMP_PLACES (the bicg_paper_host points ran at the same
#     speed on 1 and 16 threads);
#  2. the SASS of the per-ion placement pass (cuobjdump of .device/bin/ppl);
#  3. the ion-placement target (configs/perf/ions_100k_400.yaml, gather_hybrid_rsqrt_cuda) twice with each of
#     .device/bin/ppl and any .device/bin/ppl_ppt<N> (ppl built with points_per_team = N in src/ions/placement.cpp);
#  4. the binning study again (configs/studies/binning.yaml, now with pairs_loaded and the cylinder test points);
#  5. the PMPP plane end to end with the upload phase (bench_potential end_to_end/).
source perf/device/setup.sh >/dev/null
bin=$PWD/.device/bin
repo=$PWD
echo "== host CPUs"
{
  echo "nproc $(nproc)"; grep -E "Cpus_allowed_list" /proc/self/status; cat /sys/fs/cgroup/cpu.max 2>/dev/null
  lscpu | grep -E "^CPU\(s\)|Model name|Thread|Core|Socket|NUMA node\(s\)"
} | tee "$OUT/host_cpus.txt"
for env in bound unbound; do
  for t in 1 "$(nproc)"; do
    if [ $env = unbound ]; then pre="env -u OMP_PROC_BIND -u OMP_PLACES"; else pre=env; fi
    $pre OMP_NUM_THREADS=$t timeout 60 "$bin/ppl_openmp" run "$repo/configs/studies/bicg_paper.yaml" -q \
      --kokkos-threads="$t" --set base.solver.max_iters=20 --set warmup=0 --set repeats=1 \
      --set output.results="$OUT/host_probe_${env}_$t.jsonl" --set 'vary={matrix.generator: [convection_diffusion], matrix.n: [104], spmv.strategy: [scalar]}' \
      >/dev/null 2>&1
    python3 -c "import json,sys; r=json.loads(open(sys.argv[1]).readline()); print(sys.argv[2], sys.argv[3], 'threads: %.2f ms per iteration, copy %.1f GB/s' % (r['time']['median']*1e3, r['ceiling']))" \
      "$OUT/host_probe_${env}_$t.jsonl" $env $t
  done
done | tee -a "$OUT/host_cpus.txt"
echo "== SASS of the placement passes"
if command -v cuobjdump >/dev/null || [ -x /usr/local/cuda/bin/cuobjdump ]; then
  PATH=$PATH:/usr/local/cuda/bin cuobjdump -sass "$bin/ppl" 2>/dev/null |
    awk '/Function : .*min_key_pass/ {on=1} on && /Function : / && !/min_key_pass/ {on=0} on' >"$OUT/sass-placement.txt"
  grep -c "" "$OUT/sass-placement.txt"; grep "Function :" "$OUT/sass-placement.txt" | cut -c1-200
else
  echo "no cuobjdump here"
fi
echo "== ion placement per binary"
for p in "$bin"/ppl "$bin"/ppl_ppt*; do
  [ -x "$p" ] || continue
  for r in 1 2; do
    timeout 60 "$p" run configs/perf/ions_100k_400.yaml --set strategy=gather_hybrid_rsqrt_cuda \
      --set output.summary="$OUT/ions-$(basename "$p")-$r.json" >"$OUT/ions-$(basename "$p")-$r.log" 2>&1
    python3 -c "import json,sys; i=json.load(open(sys.argv[1]))['ions']; p=i['per_ion_seconds']; print(sys.argv[2], 'placement %.2f ms, per ion median %.4f ms (min %.4f, max %.4f)' % (i['placement_seconds']*1e3, p['median']*1e3, p['min']*1e3, p['max']*1e3))" \
      "$OUT/ions-$(basename "$p")-$r.json" "$(basename "$p") run $r"
  done
done
echo "== binning"
(cd "$OUT" && timeout 150 "$bin/ppl" run "$repo/configs/studies/binning.yaml" -q >binning.log 2>&1; echo "exit $?"; tail -1 binning.log)
echo "== end to end"
BIN="$bin" bash perf/device/end_to_end.sh
tar czf /tmp/round7.tgz -C "$OUT" . && find "$OUT" -type f -delete && mv /tmp/round7.tgz "$OUT"/
