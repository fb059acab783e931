#!/usr/bin/env bash
# Installs everything ppl needs on a fresh Debian 12 machine, idempotently:
#   1. Debian packages (compilers' libraries: yaml-cpp, GoogleTest, Google Benchmark, CLI11, nlohmann-json, fmt,
#      Eigen, python3-griddataformats for the OpenDX round-trip test; Clang 14 with libFuzzer for fuzz/);
#   2. Kokkos + Kokkos Kernels 3.4.01 from Debian bookworm's `trilinos` source package (fetched with a private apt
#      source list; the machine's apt configuration is not touched), checksum-verified, patched (patches/), built and
#      installed into a cache outside the checkout, one prefix per variant and hash of (version, patches, options).
#
# Usage: cmake/deps/bootstrap.sh [openmp] [cuda] [--no-apt]
#   openmp  Kokkos Serial+OpenMP (CPU work, CI).                       (default when no variant is named)
#   cuda    Kokkos Cuda+OpenMP(host)+Serial, lambdas on, arch $PPL_CUDA_ARCH (default HOPPER90); needs nvcc.
# Environment: PPL_DEPS_CACHE (default ~/.cache/ppl-deps), PPL_CUDA_ARCH, PPL_DEPS_JOBS (default nproc).
# After a successful run, $PPL_DEPS_CACHE/kokkos-<variant> links to the installed prefix; CMakePresets.json uses it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${PPL_DEPS_CACHE:-$HOME/.cache/ppl-deps}
jobs=${PPL_DEPS_JOBS:-$(nproc)}
cuda_arch=${PPL_CUDA_ARCH:-HOPPER90}
trilinos_version=13.2.0
trilinos_tarball=trilinos_${trilinos_version}.orig.tar.gz
trilinos_sha256=0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90

log() { printf '[ppl-deps] %s\n' "$*" >&2; }
die() { printf '[ppl-deps] error: %s\n' "$*" >&2; exit 1; }

variants=()
use_apt=1
for arg in "$@"; do
  case "$arg" in
    openmp | cuda) variants+=("$arg") ;;
    --no-apt) use_apt=0 ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    *) die "unknown argument '$arg' (valid: openmp, cuda, --no-apt, --help)" ;;
  esac
done
[ ${#variants[@]} -gt 0 ] || variants=(openmp)

# ---------------------------------------------------------------------------------------------------------------
# 1. Debian packages
# clang-14, libclang-rt-14-dev (libFuzzer, sanitizer runtimes) and libomp-14-dev (Clang's OpenMP runtime) build the
# fuzz/ harnesses (the `fuzz` preset).
debian_packages=(build-essential cmake ninja-build pkg-config dpkg-dev patch ca-certificates
  libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  libeigen3-dev zlib1g-dev python3 python3-numpy python3-griddataformats python3-matplotlib
  clang-14 libclang-rt-14-dev libomp-14-dev)

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

# ---------------------------------------------------------------------------------------------------------------
# 3. Build one variant into its own cached prefix.
variant_options() {
  case "$1" in
    openmp) echo "-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON" ;;
    cuda) echo "-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON" \
      "-DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_${cuda_arch}=ON" ;;
  esac
}

build_variant() {
  local variant=$1
  local options
  options=$(variant_options "$variant")
  local compiler_id
  compiler_id=$(c++ --version | head -1)
  [ "$variant" = cuda ] && compiler_id+=" $(nvcc --version | tail -1)"
  local hash
  hash=$( (echo "$trilinos_version $options $compiler_id"; cat "$here"/patches/*.patch "$here/bootstrap.sh") |
    sha256sum | cut -c1-12)
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
  cp -r "$cache/src/kokkos-$trilinos_version/kokkos" "$cache/src/kokkos-$trilinos_version/kokkos-kernels" "$work/"
  for p in "$here"/patches/kokkos-*.patch; do
    patch -d "$work/kokkos" -p1 -s <"$p" || die "patch $(basename "$p") does not apply"
  done
  for p in "$here"/patches/kokkos-kernels-*.patch; do
    [ -e "$p" ] || continue
    patch -d "$work/kokkos-kernels" -p1 -s <"$p" || die "patch $(basename "$p") does not apply"
  done

  local staging=$prefix.tmp.$$
  rm -rf "$staging"
  local cxx=c++
  if [ "$variant" = cuda ]; then
    cxx=$work/kokkos/bin/nvcc_wrapper
  fi
  local common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
    "-DCMAKE_CXX_COMPILER=$cxx" "-DCMAKE_INSTALL_PREFIX=$staging" -DCMAKE_INSTALL_LIBDIR=lib)
  log "kokkos-$variant: configuring Kokkos 3.4.01 ($options)"
  # shellcheck disable=SC2086
  cmake -S "$work/kokkos" -B "$work/build-kokkos" "${common[@]}" $options >"$work/kokkos-configure.log" 2>&1 ||
    { tail -30 "$work/kokkos-configure.log"; die "configuring Kokkos ($variant) failed"; }
  log "kokkos-$variant: building Kokkos with $jobs jobs"
  cmake --build "$work/build-kokkos" -j "$jobs" >"$work/kokkos-build.log" 2>&1 ||
    { tail -40 "$work/kokkos-build.log"; die "building Kokkos ($variant) failed"; }
  cmake --install "$work/build-kokkos" >/dev/null || die "installing Kokkos ($variant) failed"
  if [ "$variant" = cuda ]; then
    cxx=$staging/bin/nvcc_wrapper
  fi
  log "kokkos-$variant: configuring and building Kokkos Kernels 3.4.01 (no ETI, no TPLs)"
  cmake -S "$work/kokkos-kernels" -B "$work/build-kk" "${common[@]}" "-DCMAKE_CXX_COMPILER=$cxx" \
    "-DKokkos_ROOT=$staging" -DKokkosKernels_ADD_DEFAULT_ETI=OFF -DKokkosKernels_ENABLE_TPL_BLAS=OFF \
    -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF \
    -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF >"$work/kk-configure.log" 2>&1 ||
    { tail -30 "$work/kk-configure.log"; die "configuring Kokkos Kernels ($variant) failed"; }
  cmake --build "$work/build-kk" -j "$jobs" >"$work/kk-build.log" 2>&1 ||
    { tail -40 "$work/kk-build.log"; die "building Kokkos Kernels ($variant) failed"; }
  cmake --install "$work/build-kk" >/dev/null || die "installing Kokkos Kernels ($variant) failed"
  {
    echo "trilinos $trilinos_version (Kokkos 3.4.01, Kokkos Kernels 3.4.01)"
    echo "options: $options"
    echo "compiler: $compiler_id"
    echo "patches: $(cd "$here/patches" && ls)"
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
for v in "${variants[@]}"; do
  if [ "$v" = cuda ] && ! command -v nvcc >/dev/null; then
    [ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
    command -v nvcc >/dev/null || die "variant cuda needs nvcc (CUDA toolkit) on PATH"
  fi
done
fetch_sources
for v in "${variants[@]}"; do build_variant "$v"; done
log "done: $(for v in "${variants[@]}"; do printf '%s ' "$cache/kokkos-$v"; done)"
