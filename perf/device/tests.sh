#!/usr/bin/env bash
# Builds the `cuda` preset and runs the whole CTest suite on this machine's GPU (every GoogleTest suite, each with 1
# and 2 OpenMP host threads, and the command line's bad-input corpus), then `ppl info`.
#
#   perf/device/tests.sh RESULTS_DIR          e.g. perf/results/tests-h200
#
# Steps: cmake/deps/bootstrap.sh cuda (Kokkos + Kokkos Kernels for CUDA, cached after the first time), cmake
# --workflow --preset cuda-build, ctest --preset cuda. TESTS_SKIP_BUILD=1 runs the tests of an existing build/cuda;
# PPL_BUILD other than build/cuda: its tests with `ctest --test-dir` (no build step then: set TESTS_SKIP_BUILD=1);
# TESTS_JOBS (default 1: the suites share one GPU) is ctest's -j; CTEST_ARGS adds ctest arguments (e.g. "-R spmv").
# Writes ctest.log, ctest-junit.xml, ppl-info.log and ppl-info.json; the pass/fail counts go into README.md.
set -euo pipefail
# shellcheck source=perf/device/lib.sh
source "$(dirname "$0")/lib.sh"
driver_start "The CTest suite on the GPU (perf/device/tests.sh)" "$@"

if [ -z "${TESTS_SKIP_BUILD:-}" ]; then
  echo "== bootstrap and build (cuda preset)"
  step bootstrap 3600 cmake/deps/bootstrap.sh cuda
  step build 3600 cmake --workflow --preset cuda-build
  tail -3 "$RESULTS/build.log"
fi
PPL=$(exe ppl)
step ppl-info 60 "$PPL" info
step ppl-info-json 60 "$PPL" run configs/examples/info.yaml --set output="$RESULTS/ppl-info.json"

read -r -a extra <<<"${CTEST_ARGS:-}"
if [ "$PPL_BUILD" = build/cuda ]; then
  where=(--preset cuda)
else  # another build folder (e.g. build/device of perf/offline/build_on_device.sh)
  where=(--test-dir "$PPL_BUILD" --output-on-failure --timeout 1200)
fi
echo "== ctest ${where[*]}"
step ctest 7200 ctest "${where[@]}" -j "${TESTS_JOBS:-1}" --output-junit "$RESULTS/ctest-junit.xml" "${extra[@]}"
{ grep -E "tests passed|tests failed|Total Test time|\*\*\*Failed|\*\*\*Timeout|Not Run" "$RESULTS/ctest.log" ||
  echo "(no CTest summary: see ctest.log)"; } | record "ctest ${where[*]}"
driver_end
