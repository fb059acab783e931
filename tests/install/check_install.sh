#!/usr/bin/env bash
# install.examples_cpp: installs the build into a scratch prefix, builds examples/cpp (an outside project that
# find_package(ppl)s) against it with the same compiler and Kokkos, and runs it. The prefix is removed afterwards.
# The build's compiler and linker flags go along (a sanitizer build's libraries need the sanitizer's runtime).
#   check_install.sh BUILD_DIR SOURCE_DIR SCRATCH CXX_COMPILER KOKKOS_PREFIXES [CXX_FLAGS [LINKER_FLAGS]]
set -euo pipefail
build=$1 source=$2 scratch=$3 cxx=$4 kokkos_prefixes=$5 cxx_flags=${6:-} linker_flags=${7:-}
rm -rf "$scratch"
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >"$scratch/install.log"
test -x "$scratch/prefix/bin/ppl"
test -f "$scratch/prefix/lib/cmake/ppl/pplConfig.cmake" || test -f "$scratch/prefix/lib64/cmake/ppl/pplConfig.cmake"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$source/examples/cpp" -B "$scratch/example" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$scratch/prefix;$kokkos_prefixes" -DCMAKE_CXX_FLAGS="$cxx_flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$linker_flags" >"$scratch/configure.log" ||
  { cat "$scratch/configure.log"; exit 1; }
cmake --build "$scratch/example" >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; exit 1; }
OMP_PROC_BIND=false "$scratch/example/ppl_example" --kokkos-threads=2
