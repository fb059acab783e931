#!/usr/bin/env bash
# Installs everything ppl needs on a fresh Debian 12 machine, idempotently:
#   1. Debian packages (compilers' libraries: yaml-cpp, GoogleTest, Google Benchmark, CLI11, nlohmann-json, fmt,
#      Eigen; python3-griddataformats, -mrcfile and -gemmi for the OpenDX, MRC and PDB read-back tests,
#      python3-jsonschema for the summary schema test; Clang 14 with libFuzzer for fuzz/);
#   2. Kokkos + Kokkos Kernels 3.4.01 from Debian bookworm's `trilinos` source package (fetched with a private apt
#      source list; the machine's apt configuration is not touched), checksum-verified, patched (patches/), built and
#      installed into a cache outside the checkout, one prefix per variant and hash of (version, patches, options);
#   3. optionally Kokkos + Kokkos Kernels 4.6.01 (the *-k46 variants) from the upstream release tarballs in a folder
#      the caller names (no network), checksum-verified, built the same way.
#
# Usage: cmake/deps/bootstrap.sh [openmp] [cuda] [openmp-k46] [cuda-k46] [--sources DIR] [--no-apt]
#   openmp      Kokkos 3.4.01 Serial+OpenMP (CPU work, CI).              (default when no variant is named)
#   cuda        Kokkos 3.4.01 Cuda+OpenMP(host)+Serial, lambdas on, arch $PPL_CUDA_ARCH (default HOPPER90); needs nvcc.
#   openmp-k46  as openmp, Kokkos 4.6.01; needs the 4.6.01 tarballs.
#   cuda-k46    as cuda, Kokkos 4.6.01; needs the 4.6.01 tarballs and nvcc.
#   --sources DIR  folder holding kokkos-4.6.01.tar.xz and kokkos-kernels-4.6.01.tar.xz (or $PPL_KOKKOS46_SOURCES).
# Environment: PPL_DEPS_CACHE (default ~/.cache/ppl-deps), PPL_CUDA_ARCH, PPL_DEPS_JOBS (default nproc),
#   PPL_KOKKOS46_SOURCES.
# After a successful run, $PPL_DEPS_CACHE/kokkos-<variant> links to the installed prefix; CMakePresets.json uses it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${PPL_DEPS_CACHE:-$HOME/.cache/ppl-deps}
jobs=${PPL_DEPS_JOBS:-$(nproc)}
cuda_arch=${PPL_CUDA_ARCH:-HOPPER90}
trilinos_version=13.2.0
trilinos_tarball=trilinos_${trilinos_version}.orig.tar.gz
trilinos_sha256=0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90
# Kokkos 4.6.01 and Kokkos Kernels 4.6.01: `git archive` exports of the release tags, as xz tarballs.
k46_version=4.6.01
k46_kokkos_sha256=6b32ef7d1007b5cc12b20d88a02cd463fd5cfdd3bc0d18650c505fadcb999c00
k46_kernels_sha256=31fac22249cc779eed89277a27ce789724a9242fb6c0f91db50eeb2491530237
k46_sources=${PPL_KOKKOS46_SOURCES:-}

log() { printf '[ppl-deps] %s\n' "$*" >&2; }
die() { printf '[ppl-deps] error: %s\n' "$*" >&2; exit 1; }

variants=()
use_apt=1
while [ $# -gt 0 ]; do
  case "$1" in
    openmp | cuda | openmp-k46 | cuda-k46) variants+=("$1") ;;
    --no-apt) use_apt=0 ;;
    --sources)
      [ $# -ge 2 ] || die "--sources needs a folder"
      k46_sources=$2
      shift
      ;;
    --sources=*) k46_sources=${1#--sources=} ;;
    -h | --help) sed -n '2,19p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (valid: openmp, cuda, openmp-k46, cuda-k46, --sources DIR, --no-apt, --help)" ;;
  esac
  shift
done
[ ${#variants[@]} -gt 0 ] || variants=(openmp)

# ---------------------------------------------------------------------------------------------------------------
# 1. Debian packages
# clang-14, libclang-rt-14-dev (libFuzzer, sanitizer runtimes) and libomp-14-dev (Clang's OpenMP runtime) build the
# fuzz/ harnesses (the `fuzz` preset). pdb2pqr turns PDB files into PQR (docs/quickstart.md, CTest docs.quickstart).
# pybind11-dev and python3-dev build the `ppl` Python module; python3-pytest, -scipy and -mdanalysis run its tests
# (python/tests) and the MDAnalysis trajectory maps (docs/python.md). libopenmpi-dev and openmpi-bin build and run
# the MPI build (the `openmp-mpi` preset, docs/mpi.md).
debian_packages=(build-essential cmake ninja-build pkg-config dpkg-dev patch ca-certificates
  libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  libeigen3-dev zlib1g-dev python3 python3-numpy python3-griddataformats python3-matplotlib python3-mrcfile
  python3-gemmi python3-jsonschema clang-14 libclang-rt-14-dev libomp-14-dev ccache
  pdb2pqr pybind11-dev python3-dev python3-pytest python3-scipy python3-mdanalysis
  libopenmpi-dev openmpi-bin)

install_debian_packages() {
  local missing=()
  for p in "${debian_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "Debian packages: all ${#debian_packages[@]} present"
    return
  fi
  [ "$(id -u)" -eq 0 ] || die "missing Debian packages (${missing[*]}) and not root: install them with apt-get"
  log "Debian packages: installing ${missing[*]}"
  apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
}

# ---------------------------------------------------------------------------------------------------------------
# 2. Kokkos sources: trilinos orig tarball through a private apt source list, verified, two folders extracted.
fetch_sources() {
  local src=$cache/src
  mkdir -p "$src"
  if [ -f "$src/kokkos-$trilinos_version/.complete" ]; then
    log "sources: cached in $src/kokkos-$trilinos_version"
    return
  fi
  if ! echo "$trilinos_sha256  $src/$trilinos_tarball" | sha256sum -c --status 2>/dev/null; then
    log "sources: fetching trilinos $trilinos_version source package (166 MB) through apt (private source list)"
    local apt_dir=$src/apt
    mkdir -p "$apt_dir/lists/partial"
    echo "deb-src http://deb.debian.org/debian bookworm main" >"$apt_dir/sources.list"
    local apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$apt_dir/lists" -o APT::Sandbox::User=root)
    apt-get "${apt_opts[@]}" update -qq || die "apt-get update with the private deb-src list failed"
    (cd "$src" && apt-get "${apt_opts[@]}" source --download-only "trilinos=${trilinos_version}-4") >/dev/null ||
      die "apt-get source --download-only trilinos failed"
    echo "$trilinos_sha256  $src/$trilinos_tarball" | sha256sum -c --status ||
      die "checksum mismatch for $src/$trilinos_tarball (expected $trilinos_sha256)"
  fi
  log "sources: extracting packages/kokkos and packages/kokkos-kernels"
  local tmp
  tmp=$(mktemp -d "$src/extract.XXXXXX")
  tar -xzf "$src/$trilinos_tarball" -C "$tmp" --wildcards \
    'Trilinos-*/packages/kokkos/*' 'Trilinos-*/packages/kokkos-kernels/*' || die "extracting $trilinos_tarball failed"
  mkdir -p "$tmp/out"
  mv "$tmp"/Trilinos-*/packages/kokkos "$tmp/out/kokkos"
  mv "$tmp"/Trilinos-*/packages/kokkos-kernels "$tmp/out/kokkos-kernels"
  touch "$tmp/out/.complete"
  rm -rf "$src/kokkos-$trilinos_version"
  mv "$tmp/out" "$src/kokkos-$trilinos_version"
  rm -rf "$tmp"
}

# Kokkos 4.6.01 sources: the two upstream tarballs from the caller's folder, verified, extracted side by side.
fetch_k46_sources() {
  local out=$cache/src/kokkos-$k46_version
  if [ -f "$out/.complete" ]; then
    log "sources: cached in $out"
    return
  fi
  [ -n "$k46_sources" ] || die "the *-k46 variants need --sources DIR (or PPL_KOKKOS46_SOURCES) naming the folder" \
    "with kokkos-$k46_version.tar.xz and kokkos-kernels-$k46_version.tar.xz"
  local kokkos_tarball=$k46_sources/kokkos-$k46_version.tar.xz
  local kernels_tarball=$k46_sources/kokkos-kernels-$k46_version.tar.xz
  [ -f "$kokkos_tarball" ] || die "$kokkos_tarball not found"
  [ -f "$kernels_tarball" ] || die "$kernels_tarball not found"
  echo "$k46_kokkos_sha256  $kokkos_tarball" | sha256sum -c --status ||
    die "checksum mismatch for $kokkos_tarball (expected $k46_kokkos_sha256)"
  echo "$k46_kernels_sha256  $kernels_tarball" | sha256sum -c --status ||
    die "checksum mismatch for $kernels_tarball (expected $k46_kernels_sha256)"
  log "sources: extracting Kokkos and Kokkos Kernels $k46_version from $k46_sources"
  mkdir -p "$cache/src"
  local tmp
  tmp=$(mktemp -d "$cache/src/extract.XXXXXX")
  tar -xJf "$kokkos_tarball" -C "$tmp" || die "extracting $kokkos_tarball failed"
  tar -xJf "$kernels_tarball" -C "$tmp" || die "extracting $kernels_tarball failed"
  if [ ! -f "$tmp/kokkos-$k46_version/CMakeLists.txt" ] || [ ! -f "$tmp/kokkos-kernels-$k46_version/CMakeLists.txt" ]; then
    die "unexpected layout in the $k46_version tarballs (want kokkos-$k46_version/, kokkos-kernels-$k46_version/)"
  fi
  mkdir -p "$tmp/out"
  mv "$tmp/kokkos-$k46_version" "$tmp/out/kokkos"
  mv "$tmp/kokkos-kernels-$k46_version" "$tmp/out/kokkos-kernels"
  touch "$tmp/out/.complete"
  rm -rf "$out"
  mv "$tmp/out" "$out"
  rm -rf "$tmp"
}

# ---------------------------------------------------------------------------------------------------------------
# 3. Build one variant into its own cached prefix.
# Kokkos release of a variant; each release has its own patch set (patches/ for 3.4.01, patches/<version>/ else).
variant_version() {
  case "$1" in
    *-k46) echo "$k46_version" ;;
    *) echo 3.4.01 ;;
  esac
}
variant_sources() {
  case "$1" in
    *-k46) echo "$cache/src/kokkos-$k46_version" ;;
    *) echo "$cache/src/kokkos-$trilinos_version" ;;
  esac
}
variant_patches() {
  case "$1" in
    *-k46) echo "$here/patches/$k46_version" ;;
    *) echo "$here/patches" ;;
  esac
}

variant_options() {
  case "$1" in
    openmp) echo "-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON" ;;
    cuda) echo "-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON" \
      "-DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_${cuda_arch}=ON" ;;
    # 4.x: without the code deprecated in 4.x, so a deprecated spelling in ppl is a build error here rather than a
    # warning; lambdas are always on (the option is gone).
    openmp-k46) echo "-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF" ;;
    cuda-k46) echo "-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON" \
      "-DKokkos_ARCH_${cuda_arch}=ON -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF" ;;
  esac
}

# Kokkos Kernels without ETI and without any third-party library. 4.x has more of them and switches cuBLAS,
# cuSPARSE and cuSOLVER on by default in CUDA builds.
kernels_options() {
  local options="-DKokkosKernels_ADD_DEFAULT_ETI=OFF -DKokkosKernels_ENABLE_TPL_BLAS=OFF"
  options+=" -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF"
  options+=" -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF"
  case "$1" in
    *-k46) options+=" -DKokkosKernels_ENABLE_TPL_LAPACK=OFF -DKokkosKernels_ENABLE_TPL_CUSOLVER=OFF" ;;
  esac
  echo "$options"
}

build_variant() {
  local variant=$1
  local version sources patches options kk_options
  version=$(variant_version "$variant")
  sources=$(variant_sources "$variant")
  patches=$(variant_patches "$variant")
  options=$(variant_options "$variant")
  kk_options=$(kernels_options "$variant")
  local compiler_id
  compiler_id=$(c++ --version | head -1)
  case "$variant" in cuda*) compiler_id+=" $(nvcc --version | tail -1)" ;; esac
  local patch_files=() p
  for p in "$patches"/*.patch; do [ -e "$p" ] && patch_files+=("$p"); done
  local hash
  # The script's Kokkos part only (sections 2 on), so that adding a Debian package does not rebuild Kokkos.
  hash=$( (echo "$version $options $kk_options $compiler_id"; cat "${patch_files[@]}"
    sed -n '/^# 2\. Kokkos sources/,$p' "$here/bootstrap.sh") | sha256sum | cut -c1-12)
  local prefix=$cache/kokkos-$variant-$hash
  if [ -f "$prefix/.complete" ]; then
    log "kokkos-$variant: cached in $prefix"
    ln -sfn "$prefix" "$cache/kokkos-$variant"
    return
  fi
  local work
  work=$(mktemp -d "$cache/build-$variant.XXXXXX")
  trap 'rm -rf "$work"' RETURN
  log "kokkos-$variant: patching a copy of the sources in $work"
  cp -r "$sources/kokkos" "$sources/kokkos-kernels" "$work/"
  for p in "${patch_files[@]}"; do
    case "$(basename "$p")" in
      kokkos-kernels-*) patch -d "$work/kokkos-kernels" -p1 -s <"$p" || die "patch $(basename "$p") does not apply" ;;
      kokkos-*) patch -d "$work/kokkos" -p1 -s <"$p" || die "patch $(basename "$p") does not apply" ;;
    esac
  done

  local staging=$prefix.tmp.$$
  rm -rf "$staging"
  local cxx=c++
  case "$variant" in cuda*) cxx=$work/kokkos/bin/nvcc_wrapper ;; esac
  # Position-independent: the static libraries also go into the Python module, a shared object.
  local common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON "-DCMAKE_CXX_COMPILER=$cxx" "-DCMAKE_INSTALL_PREFIX=$staging"
    -DCMAKE_INSTALL_LIBDIR=lib)
  log "kokkos-$variant: configuring Kokkos $version ($options)"
  # shellcheck disable=SC2086
  cmake -S "$work/kokkos" -B "$work/build-kokkos" "${common[@]}" $options >"$work/kokkos-configure.log" 2>&1 ||
    { tail -30 "$work/kokkos-configure.log"; die "configuring Kokkos ($variant) failed"; }
  log "kokkos-$variant: building Kokkos with $jobs jobs"
  cmake --build "$work/build-kokkos" -j "$jobs" >"$work/kokkos-build.log" 2>&1 ||
    { tail -40 "$work/kokkos-build.log"; die "building Kokkos ($variant) failed"; }
  cmake --install "$work/build-kokkos" >/dev/null || die "installing Kokkos ($variant) failed"
  case "$variant" in cuda*) cxx=$staging/bin/nvcc_wrapper ;; esac
  log "kokkos-$variant: configuring and building Kokkos Kernels $version (no ETI, no TPLs)"
  # shellcheck disable=SC2086
  cmake -S "$work/kokkos-kernels" -B "$work/build-kk" "${common[@]}" "-DCMAKE_CXX_COMPILER=$cxx" \
    "-DKokkos_ROOT=$staging" $kk_options >"$work/kk-configure.log" 2>&1 ||
    { tail -30 "$work/kk-configure.log"; die "configuring Kokkos Kernels ($variant) failed"; }
  cmake --build "$work/build-kk" -j "$jobs" >"$work/kk-build.log" 2>&1 ||
    { tail -40 "$work/kk-build.log"; die "building Kokkos Kernels ($variant) failed"; }
  cmake --install "$work/build-kk" >/dev/null || die "installing Kokkos Kernels ($variant) failed"
  {
    case "$variant" in
      *-k46) echo "upstream release tarballs (Kokkos $version, Kokkos Kernels $version)" ;;
      *) echo "trilinos $trilinos_version (Kokkos $version, Kokkos Kernels $version)" ;;
    esac
    echo "options: $options"
    echo "kernels options: $kk_options"
    echo "compiler: $compiler_id"
    echo "patches:" "${patch_files[@]##*/}"
  } >"$staging/ppl-deps.txt"
  touch "$staging/.complete"
  rm -rf "$prefix"
  mv "$staging" "$prefix"
  ln -sfn "$prefix" "$cache/kokkos-$variant"
  log "kokkos-$variant: installed in $prefix"
}

# ---------------------------------------------------------------------------------------------------------------
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9 || die "cannot lock $cache/.lock"
[ "$use_apt" -eq 1 ] && install_debian_packages
need_trilinos=0
need_k46=0
for v in "${variants[@]}"; do
  case "$v" in
    *-k46) need_k46=1 ;;
    *) need_trilinos=1 ;;
  esac
  case "$v" in
    cuda*)
      if ! command -v nvcc >/dev/null; then
        [ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
        command -v nvcc >/dev/null || die "variant $v needs nvcc (CUDA toolkit) on PATH"
      fi
      ;;
  esac
done
[ "$need_trilinos" -eq 1 ] && fetch_sources
[ "$need_k46" -eq 1 ] && fetch_k46_sources
for v in "${variants[@]}"; do build_variant "$v"; done
log "done: $(for v in "${variants[@]}"; do printf '%s ' "$cache/kokkos-$v"; done)"
