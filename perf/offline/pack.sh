#!/usr/bin/env bash
# On a build machine (Debian 12 with the CUDA toolkit, no GPU needed): builds the `cuda` preset and packs what an
# offline GPU machine needs into .device/ (git-ignored): bin/ (ppl, the test binaries, the benchmarks), lib/ (the
# Debian shared libraries the GPU machine may lack: yaml-cpp, fmt, benchmark, gtest; Kokkos is linked statically).
# The perf/device drivers find .device/bin by themselves and add .device/lib to LD_LIBRARY_PATH.
#
#   perf/offline/pack.sh            PACK_OPENMP=1: also the OpenMP build's benchmarks and ppl into .device/omp (the
#                                   drivers' host parts); PACK_XZ=1: also .device/pack.tar.xz of bin/, lib/ and omp/
#                                   (unpack there with `tar xJf .device/pack.tar.xz -C .device`)
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH=$PATH:/usr/local/cuda/bin
cmake/deps/bootstrap.sh cuda --no-apt
cmake --workflow --preset cuda-build
rm -rf .device
mkdir -p .device/bin .device/lib
for exe in build/cuda/ppl build/cuda/tests/test_* build/cuda/tests/*/test_* build/cuda/perf/*/bench_*; do
  if [ -x "$exe" ] && [ -f "$exe" ]; then cp "$exe" .device/bin/; fi
done
if [ -n "${PACK_OPENMP:-}" ]; then
  cmake/deps/bootstrap.sh openmp --no-apt
  cmake --workflow --preset openmp-build
  mkdir -p .device/omp
  for exe in build/openmp/ppl build/openmp/perf/*/bench_*; do
    if [ -x "$exe" ] && [ -f "$exe" ]; then cp "$exe" .device/omp/; fi
  done
fi
strip --strip-unneeded .device/bin/* .device/omp/* 2>/dev/null || true
for exe in .device/bin/* .device/omp/*; do
  [ -f "$exe" ] || continue
  ldd "$exe" | awk '/=> \// {print $3}' | grep -E 'libyaml-cpp|libfmt|libbenchmark|libgtest|libgmock' || true
done | sort -u | xargs -r -I{} cp -L {} .device/lib/
if [ -n "${PACK_XZ:-}" ]; then
  parts=(bin lib)
  if [ -d .device/omp ]; then parts+=(omp); fi
  tar cJf .device/pack.tar.xz -C .device "${parts[@]}"
fi
du -sh .device
ls .device/bin .device/lib
