#!/usr/bin/env bash
# Here (the build machine): builds the PMPP solutions' chapter 18 benchmark (github.com/ryan-story/pmpp, MIT licence,
# chapter-18/code: its sequential version and its scatter, gather, coarsening and coalescing kernels on the PMPP
# scenario, timed with CUDA events around its host wrappers) for sm_90 into .device/bin/pmpp_ch18_benchmark, where
# perf/device/studies.sh runs it beside the pmpp_ch18 study in the same call. Its source stays outside this
# repository: PMPP_SOLUTIONS names a checkout (or a bare git directory: its HEAD is used).
set -euo pipefail
: "${PMPP_SOLUTIONS:?PMPP_SOLUTIONS must name a checkout of github.com/ryan-story/pmpp}"
cd "$(dirname "$0")/../.."
export PATH=$PATH:/usr/local/cuda/bin
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
if [ -d "$PMPP_SOLUTIONS/chapter-18/code" ]; then
  cp "$PMPP_SOLUTIONS"/chapter-18/code/*.{cu,h} "$src"/
else
  for f in $(git --git-dir="$PMPP_SOLUTIONS" ls-tree --name-only HEAD chapter-18/code/); do
    git --git-dir="$PMPP_SOLUTIONS" show "HEAD:$f" >"$src/${f##*/}"
  done
fi
mkdir -p .device/bin
nvcc -O3 -arch=sm_90 "$src/benchmark.cu" "$src/cenergy.cu" -o .device/bin/pmpp_ch18_benchmark
echo "built .device/bin/pmpp_ch18_benchmark from $(git --git-dir="${PMPP_SOLUTIONS%/}/.git" rev-parse HEAD 2>/dev/null ||
  git --git-dir="$PMPP_SOLUTIONS" rev-parse HEAD)"
