#!/usr/bin/env bash
# Here (the build machine): builds the `cuda` preset and packs what the GPU machine needs into .device/ (git-ignored,
# named in the device tool's `carry`): bin/ (ppl, tests, benchmarks), lib/ (the Debian shared libraries the GPU
# machine lacks: yaml-cpp, fmt, benchmark, gtest). The tests find the repository's data/ from their own location
# (.device/bin sits inside the checkout).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH=$PATH:/usr/local/cuda/bin
cmake/deps/bootstrap.sh cuda --no-apt
cmake --preset cuda >/dev/null
cmake --build --preset cuda
rm -rf .device
mkdir -p .device/bin .device/lib
for exe in build/cuda/ppl build/cuda/tests/test_* build/cuda/tests/*/test_* build/cuda/perf/*/bench_*; do
  [ -x "$exe" ] && [ -f "$exe" ] && cp "$exe" .device/bin/
done
for exe in .device/bin/*; do
  ldd "$exe" | awk '/=> \// {print $3}' | grep -E 'libyaml-cpp|libfmt|libbenchmark|libgtest|libgmock' || true
done | sort -u | xargs -r -I{} cp -L {} .device/lib/
du -sh .device
ls .device/bin .device/lib
