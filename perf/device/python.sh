#!/usr/bin/env bash
# The Python module on a CUDA GPU (docs/python.md): what a call adds over the C++ work, and trajectory frames per
# second.
#
#   perf/device/python.sh RESULTS_DIR          e.g. perf/results/python-h200
#
# The package comes from PPL_PYTHON (default: $PPL_BUILD/python, else build/device/python); the interpreter is
# python3 (it needs NumPy; MDAnalysis for the trajectory's reader, else the frames come from memory and the README
# says so). Parts (PYTHON_PARTS, default "overhead trajectory"):
#   overhead    perf/python/overhead.py: the ubiquitin map and a 1,000-point map, Python wall against the plan's
#               compute_seconds (timed in C++), device="cpu" and device="gpu" into a reused out=;
#   trajectory  perf/python/trajectory.py: 10,000 atoms, 100^3 at 1 A, 300 frames, 12 A cutoff and MSM, the mean
#               accumulated on the device; per-frame read, upload + binning, kernel;
#   host        the same two on the OpenMP build's package (PPL_OPENMP_BUILD/python), all cores.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
PARTS=${PYTHON_PARTS:-overhead trajectory}
driver_start "The Python module (perf/device/python.sh)" "$@"
package=${PPL_PYTHON:-}
for candidate in "$PPL_BUILD/python" build/device/python; do
  [ -n "$package" ] || { [ -f "$candidate/ppl/__init__.py" ] && package=$candidate; } || true
done
[ -n "$package" ] || die "no built Python package (PPL_PYTHON, $PPL_BUILD/python or build/device/python)"
export PYTHONUNBUFFERED=1


if want overhead; then
  echo "== overhead of a call"
  step overhead 300 env PYTHONPATH="$package" python3 perf/python/overhead.py --json "$RESULTS/overhead.json"
  record "Python wall against the C++ compute (perf/python/overhead.py)" <"$RESULTS/overhead.log"
fi
if want trajectory; then
  echo "== trajectory frames per second"
  step trajectory 400 env PYTHONPATH="$package" python3 perf/python/trajectory.py --json "$RESULTS/trajectory.json"
  record "Mean map over a trajectory (perf/python/trajectory.py)" <"$RESULTS/trajectory.log"
fi
if want host; then
  echo "== the same on the OpenMP build"
  step host-overhead 300 env PYTHONPATH="$PPL_OPENMP_BUILD/python" python3 perf/python/overhead.py --json "$RESULTS/host-overhead.json"
  record "OpenMP build: overhead" <"$RESULTS/host-overhead.log"
  step host-trajectory 400 env PYTHONPATH="$PPL_OPENMP_BUILD/python" python3 perf/python/trajectory.py --frames 20 \
    --json "$RESULTS/host-trajectory.json"
  record "OpenMP build: trajectory" <"$RESULTS/host-trajectory.log"
fi
driver_end
