#!/usr/bin/env bash
# On a machine with network (Debian 12): makes .devkit/ for perf/offline/build_on_device.sh, which builds ppl on an
# offline GPU machine that has the CUDA toolkit but neither network nor ppl's Debian packages: the CUDA variant of
# Kokkos + Kokkos Kernels (cmake/deps/bootstrap.sh cuda) and the Debian packages, unpacked. About 34 MB.
#
#   perf/offline/make_devkit.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake/deps/bootstrap.sh cuda --no-apt
rm -rf .devkit
mkdir -p .devkit/debs
cp -rL "$HOME/.cache/ppl-deps/kokkos-cuda" .devkit/kokkos-cuda
(cd .devkit/debs && apt-get download libyaml-cpp-dev libyaml-cpp0.7 libfmt-dev libfmt9 libcli11-dev nlohmann-json3-dev \
  libgtest-dev libgmock-dev googletest libbenchmark-dev libbenchmark1debian libeigen3-dev zlib1g-dev)
for d in .devkit/debs/*.deb; do dpkg -x "$d" .devkit/root; done
rm -rf .devkit/debs
du -sh .devkit
