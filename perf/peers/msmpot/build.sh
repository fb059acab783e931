#!/usr/bin/env bash
# Builds VMD's msmpot (the CUDA multilevel summation library of VMD's src/) and our driver into BUILD_DIR:
#
#   perf/peers/msmpot/build.sh MSMPOT_SRC_DIR BUILD_DIR      -> BUILD_DIR/msmpot_driver
#
# MSMPOT_SRC_DIR is a folder holding msmpot's files as VMD ships them (vmd-1.9.x/src/ has them: msmpot.h,
# msmpot_internal.h, msmpot.c, msmpot_compute.c, msmpot_setup.c, msmpot_cubic.c, msmpot_cuda.h, msmpot_cuda.cu,
# msmpot_cuda_latcut.cu, msmpot_cuda_shortrng.cu). They are VMD's code under VMD's licence: ppl does not ship them,
# and this script never writes into that folder: it copies them into BUILD_DIR/src and compiles the copy.
#
# Environment: MSMPOT_ARCH (nvcc -arch, default sm_90: the H200), NVCC (default nvcc on PATH, else
# $CUDA_HOME/bin/nvcc), CC (the C compiler for msmpot's .c files, default cc), MSMPOT_CFLAGS (default -O3).
set -euo pipefail

die() {
  echo "build.sh: $*" >&2
  exit 2
}

[ $# -eq 2 ] || die "usage: $0 MSMPOT_SRC_DIR BUILD_DIR"
src=$(cd "$1" 2>/dev/null && pwd) || die "no folder $1"
mkdir -p "$2"
build=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
arch=${MSMPOT_ARCH:-sm_90}
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
cc=${CC:-cc}
cflags=${MSMPOT_CFLAGS:--O3}
[ -x "$nvcc" ] || die "no nvcc ($nvcc): set NVCC or CUDA_HOME"

c_files="msmpot.c msmpot_compute.c msmpot_setup.c msmpot_cubic.c"
cu_files="msmpot_cuda.cu msmpot_cuda_latcut.cu msmpot_cuda_shortrng.cu"
headers="msmpot.h msmpot_internal.h msmpot_cuda.h"
for f in $c_files $cu_files $headers; do
  [ -f "$src/$f" ] || die "$src/$f is missing (msmpot's files are in VMD's src/ folder)"
done

rm -rf "$build/src" "$build/obj"
mkdir -p "$build/src" "$build/obj"
for f in $c_files $cu_files $headers; do cp "$src/$f" "$build/src/$f"; done

# Changes to the copy. None is needed for VMD 1.9.x's msmpot with CUDA 13.0: it uses no texture references, no
# cudaThread* calls and no other API that CUDA 12/13 removed (its constant tables go through cudaMemcpyToSymbol,
# which CUDA 13 keeps), and nvcc -Wall finds nothing to fix. The two guards below are for other copies: an older
# one calling cudaThreadSynchronize (removed in CUDA 12; cudaDeviceSynchronize is the same call) is patched, one
# using texture references (removed in CUDA 12) is refused, since that would need a port rather than a sed.
for f in $cu_files; do
  if grep -q 'cudaThreadSynchronize' "$build/src/$f"; then
    sed -i 's/cudaThreadSynchronize/cudaDeviceSynchronize/g' "$build/src/$f"
    echo "build.sh: patched the copy of $f: cudaThreadSynchronize -> cudaDeviceSynchronize"
  fi
done
if grep -q -E 'texture *<|cudaBindTexture' "$build"/src/*.cu; then
  die "this msmpot uses texture references, which CUDA 12+ removed; it needs a port (none is done here)"
fi

# A correctness fix, applied unless MSMPOT_PATCH_RACE=0: the short-range kernels (cuda_shortrange and
# cuda_shortrange_nonperiodic in msmpot_cuda_shortrng.cu) keep the block's output address and bin index in
# __shared__ variables that every thread rewrites at the top of each z region, with no barrier before the block's
# stores of the previous region. A warp that starts the next region moves them under a warp that is still storing
# (its energies land in the next region's slots) or still walking the neighbour list (it can then take a
# __syncthreads the others skip). Measured on an H200: the map differs from run to run (up to 15 e/A at a point)
# and is wrong (relative RMS 0.13 against the exact sum on a 10k-atom water box, where the CPU path gives 1.7e-3).
# Every thread computes the same values, so keeping them in registers is the fix.
: >"$build/patches.txt"
if [ "${MSMPOT_PATCH_RACE:-1}" != 0 ]; then
  f=$build/src/msmpot_cuda_shortrng.cu
  n=$(grep -c -E '__shared__ (float \*myRegionAddr|int3 myBinIndex);' "$f" || true)
  sed -i -E 's/__shared__ (float \*myRegionAddr|int3 myBinIndex);/\1;  \/* per thread: was __shared__ (ppl build.sh) *\//' "$f"
  echo "msmpot_cuda_shortrng.cu: myRegionAddr and myBinIndex per thread instead of __shared__ ($n declarations)" |
    tee -a "$build/patches.txt"
fi

# MSMPOT_CUDA turns on the CUDA parts (Msmpot_use_cuda, the short-range and lattice-cutoff kernels). MSMPOT_DEBUG
# is left off: it adds assertions and its debug printf in msmpot_cuda_latcut.cu names an undeclared variable.
defs="-DMSMPOT_CUDA"
echo "build.sh: msmpot from $src, nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), -arch=$arch"
set -x
# shellcheck disable=SC2086  # MSMPOT_CFLAGS and the definitions are lists of flags
for f in $c_files; do
  "$cc" $cflags $defs -std=gnu99 -c "$build/src/$f" -o "$build/obj/${f%.c}.o"
done
for f in $cu_files; do
  "$nvcc" -O3 -arch="$arch" $defs -c "$build/src/$f" -o "$build/obj/${f%.cu}.o"
done
"$nvcc" -O3 -std=c++17 -arch="$arch" $defs -I"$build/src" -Xcompiler -fopenmp -c "$here/driver.cu" \
  -o "$build/obj/driver.o"
"$nvcc" -arch="$arch" -Xcompiler -fopenmp "$build"/obj/*.o -o "$build/msmpot_driver" -lm
set +x
echo "build.sh: built $build/msmpot_driver"
