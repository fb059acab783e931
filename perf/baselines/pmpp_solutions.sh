#!/usr/bin/env bash
# Builds the PMPP solutions' chapter 18 benchmark (github.com/ryan-story/pmpp, MIT licence, chapter-18/code: its
# sequential version and its scatter, gather, coarsening and coalescing kernels on the PMPP scenario, timed with CUDA
# events around its host wrappers) for this machine's GPU, into build/cuda/perf/baselines/pmpp_ch18_benchmark, where
# perf/device/potential.sh (part end_to_end) runs it beside ppl's end-to-end cases in the same call. Its source stays
# outside this repository: PMPP_SOLUTIONS names a checkout (or a bare git directory: its HEAD is used).
#
#   PMPP_SOLUTIONS=/path/to/pmpp perf/baselines/pmpp_solutions.sh      (PPL_CUDA_SM=90 picks sm_90 without a GPU)
set -euo pipefail
: "${PMPP_SOLUTIONS:?PMPP_SOLUTIONS must name a checkout of github.com/ryan-story/pmpp}"
cd "$(dirname "$0")/../.."
export PATH=$PATH:/usr/local/cuda/bin
sm=${PPL_CUDA_SM:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')}
out=${PPL_BUILD:-build/cuda}/perf/baselines
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
if [ -d "$PMPP_SOLUTIONS/chapter-18/code" ]; then
  cp "$PMPP_SOLUTIONS"/chapter-18/code/*.{cu,h} "$src"/
else
  for f in $(git --git-dir="$PMPP_SOLUTIONS" ls-tree --name-only HEAD chapter-18/code/); do
    git --git-dir="$PMPP_SOLUTIONS" show "HEAD:$f" >"$src/${f##*/}"
  done
fi
mkdir -p "$out"
nvcc -O3 -arch="sm_${sm:-90}" "$src/benchmark.cu" "$src/cenergy.cu" -o "$out/pmpp_ch18_benchmark"
echo "built $out/pmpp_ch18_benchmark from $(git --git-dir="${PMPP_SOLUTIONS%/}/.git" rev-parse HEAD 2>/dev/null ||
  git --git-dir="$PMPP_SOLUTIONS" rev-parse HEAD)"
