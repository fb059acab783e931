#!/usr/bin/env bash
# Here: make .devkit/ for perf/device/build_on_device.sh (the GPU machine has no network and no Debian packages).
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake/deps/bootstrap.sh cuda --no-apt
rm -rf .devkit && mkdir -p .devkit/debs
cp -rL "$HOME/.cache/ppl-deps/kokkos-cuda" .devkit/kokkos-cuda
(cd .devkit/debs && apt-get download libyaml-cpp-dev libyaml-cpp0.7 libfmt-dev libfmt9 libcli11-dev nlohmann-json3-dev \
  libgtest-dev libgmock-dev googletest libbenchmark-dev libbenchmark1debian libeigen3-dev zlib1g-dev)
for d in .devkit/debs/*.deb; do dpkg -x "$d" .devkit/root; done
rm -rf .devkit/debs
du -sh .devkit
