#!/usr/bin/env bash
# On the GPU machine, the session's sixth measuring call (2026-12-01): the portable cutoff kernel after its staged
# atoms stopped being read through a pointer rebuilt from an integer (src/potential/cutoff_binned.hpp,
# staged_atoms): the cutoff tests on CUDA, the 1M-atom target with both kernels (twice each, median of 5), and
# whether the portable kernel's SASS now reads its stages with LDS.128. Into $OUT/round11.tgz.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
bin=$PWD/.device/bin
timeout 200 "$bin/test_potential_strategies" --gtest_brief=1 --gtest_filter='*Cutoff*:*cutoff*' >"$OUT/test_cutoff.log" 2>&1
tail -3 "$OUT/test_cutoff.log"
for r in 1 2; do
  for s in cutoff_binned cutoff_binned_cuda; do
    timeout 60 "$bin/ppl" run configs/perf/cutoff_water.yaml --set strategy=$s \
      --set output.summary="$OUT/$s-$r.json" >"$OUT/$s-$r.log" 2>&1
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); t=s['timing']; print(sys.argv[2], 'median %.3f ms (%.3f-%.3f), error %.2e' % (t['median_s']*1e3, t['min_s']*1e3, t['max_s']*1e3, s['verification']['relative_l2_error']))" "$OUT/$s-$r.json" "$s run $r"
  done
done
PATH=$PATH:/usr/local/cuda/bin cuobjdump -sass "$bin/ppl" 2>/dev/null |
  awk '/Function : / {on = /binned_kernelILi8ENS3_7kernels10cutcp_termELb0/} on' >"$OUT/sass-portable-c8.txt"
echo "portable C = 8 cutcp: $(grep -c 'LDS.128' "$OUT/sass-portable-c8.txt") LDS.128, $(grep -c 'LD.E.128' "$OUT/sass-portable-c8.txt") LD.E.128, $(grep -c 'MUFU.RSQ' "$OUT/sass-portable-c8.txt") MUFU.RSQ"
gzip "$OUT/sass-portable-c8.txt"
tar czf /tmp/round11.tgz -C "$OUT" . && find "$OUT" -type f -delete && mv /tmp/round11.tgz "$OUT"/
