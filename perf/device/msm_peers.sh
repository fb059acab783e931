#!/usr/bin/env bash
# MSM potential maps of a peer program on a CUDA GPU: VMD's msmpot (perf/peers/msmpot/README.md), run by our driver
# on the systems ppl's MSM maps are measured on, so that the two can be read side by side. Runs no ppl job.
#
#   perf/device/msm_peers.sh RESULTS_DIR          e.g. perf/results/msm-peers-h200
#
# Needs msmpot's sources (VMD's, not part of ppl) in MSMPOT_SRC (default .peers/msmpot); builds them with
# perf/peers/msmpot/build.sh into MSMPOT_BUILD (default build/peers/msmpot, -arch from the GPU or MSMPOT_ARCH).
# The atoms files (raw float32 x y z q) go to MSM_ATOMS (default build/peers/atoms); a file already there is
# used as it is (an offline machine can get them carried). Each run: 1 warm-up + MSM_PEERS_REPEATS (5) timed
# Msmpot_compute calls, --check MSM_PEERS_CHECK (2000) points against the float64 Coulomb sum, --stable (one more
# compute, bitwise compared) -> RESULTS/msmpot-NAME.json (one JSON line), its log RESULTS/msmpot-NAME.log.
# Parts (MSM_PEERS_PARTS, default "water actin"):
#   water  the 1,000,788-atom water box of configs/perf/cutoff_water.yaml (215.5 A, seed 1) on its lattice:
#          origin 0, 0.5 A, 431^3 points -> msmpot-water1m.json;
#   actin  data/molecules/actin-dimer.pqr.gz on ppl's `lattice: {spacing, padding: 10}` around the atoms, at
#          0.5 A and 0.37 A with msmpot's defaults -> msmpot-actin-h0.5.json, msmpot-actin-h0.37.json, and at
#          0.37 A with msmpot's h = 2.22 A (its defaults cannot interpolate to 0.37 A) -> msmpot-actin-h0.37-hmin2.22.json;
#   cpu    msmpot without CUDA (one thread) on the actin dimer at 0.5 A, one compute -> msmpot-actin-h0.5-cpu.json.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
PARTS=${MSM_PEERS_PARTS:-water actin}
driver_start "MSM peers: VMD's msmpot (perf/device/msm_peers.sh)" "$@"
src=${MSMPOT_SRC:-.peers/msmpot}
build=${MSMPOT_BUILD:-build/peers/msmpot}
atoms=${MSM_ATOMS:-build/peers/atoms}
repeats=${MSM_PEERS_REPEATS:-5}
check=${MSM_PEERS_CHECK:-2000}
export MSMPOT_ARCH=${MSMPOT_ARCH:-$(sm_arch)}
mkdir -p "$atoms"

[ -d "$src" ] || die "no msmpot sources in $src: copy VMD's src/msmpot* there or set MSMPOT_SRC (perf/peers/msmpot/README.md)"
step msmpot-build 600 perf/peers/msmpot/build.sh "$src" "$build"
driver=$build/msmpot_driver  # relative to the repository root, where driver_start put us
if [ -s "$build/patches.txt" ]; then record "changes build.sh made to its copy of msmpot" <"$build/patches.txt"; fi
if [ ! -x "$driver" ]; then
  echo "msmpot did not build: see msmpot-build.log"
  driver_end
fi

# dumper: ppl_dump_atoms of a ppl build (perf/CMakeLists.txt), else compiled here from the io layer's two sources
# (no Kokkos needed; -ffp-contract=off as src/CMakeLists.txt compiles atoms.cpp, so the generator gives its bits).
dumper() {
  local hit
  if hit=$(find_built ppl_dump_atoms "$PPL_BUILD" "$PPL_OPENMP_BUILD" "$PPL_ROOT/.device/bin" "$PPL_ROOT/.device/omp"); then
    echo "$hit"
    return 0
  fi
  mkdir -p build/peers
  ${CXX:-c++} -std=c++17 -O2 -ffp-contract=off -Iinclude perf/peers/msmpot/dump_atoms.cpp src/io/atoms.cpp \
    src/io/text_reader.cpp -lz -o build/peers/ppl_dump_atoms >&2 || return 1
  echo "$PPL_ROOT/build/peers/ppl_dump_atoms"
}

# peer NAME LIMIT ATOMS LATTICE-AND-OPTIONS...: one driver run, its JSON line in RESULTS/msmpot-NAME.json.
peer() {
  local name=msmpot-$1 limit=$2 file=$3
  shift 3
  rm -f "$RESULTS/$name.json"
  # shellcheck disable=SC2016  # $1 and $@ belong to the inner bash
  step "$name" "$limit" bash -c 'out=$1; shift; "$@" >"$out"' _ "$RESULTS/$name.json" "$driver" "$file" "$@"
  if [ -s "$RESULTS/$name.json" ]; then record "$name" <"$RESULTS/$name.json"; fi
}

if want water; then
  echo "== the water box of configs/perf/cutoff_water.yaml"
  water=$atoms/water_box-215.5-seed1.xyzq
  if [ ! -s "$water" ]; then
    if dump=$(dumper); then
      step atoms-water1m 300 "$dump" 215.5 215.5 215.5 1 "$water"
    else
      echo "no ppl_dump_atoms and it does not compile here (zlib?): no water box"
      FAILED=$((FAILED + 1))
    fi
  fi
  if [ -s "$water" ]; then
    peer water1m 900 "$water" --origin 0 0 0 --spacing 0.5 --dims 431 431 431 --repeats "$repeats" --warmup 1 \
      --check "$check" --stable
  fi
fi

if want actin || want cpu; then
  echo "== the actin dimer (data/molecules/actin-dimer.pqr.gz), lattice {spacing, padding: 10} as ppl places it"
  actin=$atoms/actin-dimer.xyzq
  for h in 0.5 0.37; do
    # pqr_to_xyzq.py writes the atoms and prints the driver's lattice (ppl's lattice_around rule).
    if ! lattice=$(python3 perf/peers/msmpot/pqr_to_xyzq.py data/molecules/actin-dimer.pqr.gz "$actin" \
      --spacing "$h" --padding 10); then
      echo "pqr_to_xyzq.py failed for spacing $h"
      FAILED=$((FAILED + 1))
      continue
    fi
    echo "lattice at $h A: $lattice"
    # shellcheck disable=SC2086  # the lattice is a list of options
    if want actin; then
      peer "actin-h$h" 600 "$actin" $lattice --repeats "$repeats" --warmup 1 --check "$check" --stable
      # msmpot's interpolation to the map is right only where its spacing h (2 A) and the map's are in a simple
      # ratio (README.md): at 0.37 A the defaults give a wrong map, so it also runs with h = 6 x 0.37 = 2.22 A.
      if [ "$h" = 0.37 ]; then
        # shellcheck disable=SC2086
        peer "actin-h$h-hmin2.22" 600 "$actin" $lattice --hmin 2.22 --repeats "$repeats" --warmup 1 \
          --check "$check" --stable
      fi
    fi
    # shellcheck disable=SC2086
    if want cpu && [ "$h" = 0.5 ]; then
      peer "actin-h$h-cpu" 600 "$actin" $lattice --no-cuda --repeats 1 --warmup 0 --check "$check"
    fi
  done
fi

{
  for f in "$RESULTS"/msmpot-*.json; do
    [ -s "$f" ] || continue
    python3 - "$f" <<'EOF'
import json, sys
r = json.loads(open(sys.argv[1]).read())
name = sys.argv[1].rsplit("/", 1)[1][len("msmpot-"):-len(".json")]
print(f"{name:18s} {r['atoms']:>8d} atoms {r['points']:>9d} points  median {r['median_ms']:9.1f} ms "
      f"(min {r['min_ms']:.1f}, max {r['max_ms']:.1f})  rel_rms {r['rel_rms']}  differing {r['differing_points']}  "
      f"cuda {r['cuda_shortrng']}/{r['cuda_latcut']}  h {r['msm']['h'][0]} a {r['msm']['cutoff']}")
EOF
  done
} | record "msmpot: Msmpot_compute wall time (median of $repeats), error against the float64 sum"
driver_end
