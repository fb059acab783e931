#!/usr/bin/env bash
# On the offline GPU machine: builds the cuda variant there instead of carrying binaries. Needs .devkit/ from
# perf/offline/make_devkit.sh (run on a machine with network):
#   .devkit/kokkos-cuda  a copy of ~/.cache/ppl-deps/kokkos-cuda (Kokkos + Kokkos Kernels, CUDA variant)
#   .devkit/root         Debian packages unpacked with dpkg -x (yaml-cpp, fmt, CLI11, nlohmann-json, GoogleTest,
#                        Google Benchmark, Eigen)
# Then fills .device/bin and .device/lib as perf/offline/pack.sh does, so the perf/device drivers run unchanged.
# The Python module is built too when the node's python3 has pybind11 (pip's package) and its headers: it lands in
# build/device/python (PYTHONPATH=build/device/python, with .device/lib on LD_LIBRARY_PATH).
#
#   perf/offline/build_on_device.sh     (about two minutes on 16 cores; PPL_DEVICE_TARGETS="..." builds only those)
set -euo pipefail
cd "$(dirname "$0")/../.."
kit=$PWD/.devkit
[ -d "$kit/kokkos-cuda" ] || { echo "no .devkit/kokkos-cuda: run perf/offline/make_devkit.sh where there is network" >&2; exit 2; }
mkdir -p "$HOME/.cache/ppl-deps"
ln -sfn "$kit/kokkos-cuda" "$HOME/.cache/ppl-deps/kokkos-cuda"
# Kokkos' exported targets name the CUDA libraries by the build machine's layout (/usr/local/cuda/lib/...).
for lib in stubs/libcuda.so libcudart.so; do
  if [ ! -e "/usr/local/cuda/lib/$lib" ]; then
    found=$(find -L /usr/local/cuda/ /usr/local/cuda/lib64 -path "*$lib" 2>/dev/null | head -1) || true
    mkdir -p "$(dirname "/usr/local/cuda/lib/$lib")"
    ln -sf "$found" "/usr/local/cuda/lib/$lib"
  fi
done
# The kit's zlib1g-dev names libz.so by an absolute link that dpkg -x leaves dangling, and its libz.a is not
# position-independent (the Python module is a shared object): link the node's libz.so.1.
zlib_args=()
for z in /usr/lib/x86_64-linux-gnu/libz.so.1 /lib/x86_64-linux-gnu/libz.so.1 /usr/lib64/libz.so.1; do
  if [ -e "$z" ]; then zlib_args=("-DZLIB_LIBRARY=$z" "-DZLIB_INCLUDE_DIR=$kit/root/usr/include"); break; fi
done
python_args=()
if py=$(command -v python3) && pybind11_dir=$("$py" -m pybind11 --cmakedir 2>/dev/null); then
  python_args=("-DPython3_EXECUTABLE=$py" "-Dpybind11_DIR=$pybind11_dir")
fi
start=$(date +%s)
cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_PREFIX_PATH=$kit/kokkos-cuda;$kit/root/usr" "-DCMAKE_CXX_COMPILER=$kit/kokkos-cuda/bin/nvcc_wrapper" \
  "${zlib_args[@]}" "${python_args[@]}" >/dev/null
# PPL_DEVICE_TARGETS: build only these targets (e.g. "ppl_python test_spatial"); default everything.
# shellcheck disable=SC2086
cmake --build build/device -j "$(nproc)" ${PPL_DEVICE_TARGETS:+--target $PPL_DEVICE_TARGETS} -- -k 0 \
  >build/device/build.log 2>&1 || {
  grep -E -A8 '^FAILED|error' build/device/build.log | head -80
  exit 1
}
echo "device build: $(($(date +%s) - start)) s"
mkdir -p .device/bin .device/lib
for exe in build/device/ppl build/device/tests/test_* build/device/tests/*/test_* build/device/perf/*/bench_*; do
  if [ -x "$exe" ] && [ -f "$exe" ]; then cp "$exe" .device/bin/; fi
done
cp -P "$kit"/root/usr/lib/x86_64-linux-gnu/lib{yaml-cpp,fmt,benchmark}.so* .device/lib/
ls .device/bin
