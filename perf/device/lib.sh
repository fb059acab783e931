#!/usr/bin/env bash
# Shared by the drivers in perf/device/ (sourced, never run). A driver calls
#
#   source "$(dirname "$0")/lib.sh"
#   driver_start "TITLE" "$@"        # RESULTS=$1, README.md skeleton, log, environment, binaries
#   ... step / bench / job calls ...
#   driver_end                       # exit status: 1 if any step failed
#
# Where the binaries come from, first match wins:
#   PPL_BUILD         the CUDA build folder (default build/cuda: `cmake --workflow --preset cuda-build`);
#   .device/bin       binaries carried to an offline GPU machine (perf/offline/README.md), with .device/lib
#                     added to LD_LIBRARY_PATH.
# PPL_OPENMP_BUILD (default build/openmp) holds the OpenMP build that the drivers' optional host parts run on the
# GPU machine's CPU. Every step runs under `timeout`; a step that fails or times out is reported, its log kept, and
# the driver goes on with the next one.

PPL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PPL_BUILD=${PPL_BUILD:-build/cuda}
PPL_OPENMP_BUILD=${PPL_OPENMP_BUILD:-build/openmp}
SUMMARIZE=(python3 "$PPL_ROOT/perf/summarize.py")
FAILED=0

die() {
  echo "error: $*" >&2
  exit 2
}

# find_built NAME DIR...: the first executable NAME under the first of DIRs (relative to the repository) that has
# one; prints nothing and fails when none does.
find_built() {
  local name=$1 dir hit
  shift
  for dir in "$@"; do
    [[ $dir == /* ]] || dir=$PPL_ROOT/$dir
    [ -d "$dir" ] || continue
    hit=$(find "$dir" -maxdepth 4 -type f -name "$name" -perm -u+x 2>/dev/null | sort | head -1) || true
    if [ -n "$hit" ]; then
      echo "$hit"
      return 0
    fi
  done
  return 1
}

# exe NAME: the absolute path of a built program (ppl, test_*, bench_*) in PPL_BUILD or .device/bin; fails if there is none.
exe() {
  find_built "$1" "$PPL_BUILD" "$PPL_ROOT/.device/bin" && return 0
  echo "error: $1 is not built: cmake/deps/bootstrap.sh cuda && cmake --workflow --preset cuda-build" \
    "(or PPL_BUILD=folder; offline machines: perf/offline/README.md)" >&2
  return 1
}

# host_exe NAME: the same in the OpenMP build (PPL_OPENMP_BUILD, or .device/omp offline).
host_exe() {
  find_built "$1" "$PPL_OPENMP_BUILD" "$PPL_ROOT/.device/omp" && return 0
  echo "error: $1 is not built for OpenMP: cmake/deps/bootstrap.sh openmp && cmake --workflow --preset" \
    "openmp-build (or PPL_OPENMP_BUILD=folder)" >&2
  return 1
}

# want PART: true when PART is in $PARTS (each driver sets PARTS from its <NAME>_PARTS variable).
want() { [[ " $PARTS " == *" $1 "* ]]; }

gpu_line() {
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader 2>/dev/null |
      head -1
  else
    echo "no nvidia-smi on this machine"
  fi
}

host_line() {
  local model
  model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1) || true
  echo "${model:-unknown CPU}, $(nproc) CPUs"
}

revision() {
  if [ -n "${PPL_REVISION:-}" ]; then
    echo "$PPL_REVISION"
  else
    git -C "$PPL_ROOT" describe --always --dirty 2>/dev/null || echo "unknown (no git checkout)"
  fi
}

# driver_start TITLE RESULTS [ignored...]: checks the argument, makes RESULTS, sets the run-time environment, starts
# the log (RESULTS/driver.log, also on the console) and writes RESULTS/README.md: command, revision, date,
# hardware, then a "Numbers" section that `record` fills as the driver goes.
driver_start() {
  local title=$1
  shift
  [ $# -ge 1 ] && [ -n "$1" ] || die "usage: $(basename "$0") RESULTS_DIR   (e.g. perf/results/$(basename "$0" .sh)-h200)"
  mkdir -p "$1"
  RESULTS=$(cd "$1" && pwd)
  cd "$PPL_ROOT" || die "cannot enter $PPL_ROOT"
  # Run-time environment: the data folder for the tests and jobs, unpinned OpenMP threads (pinning put every thread
  # of a process on one core of the H200 machine), the carried libraries of an offline machine.
  export PPL_DATA_DIR=$PPL_ROOT/data
  export OMP_PROC_BIND=false
  unset OMP_PLACES
  if [ -d "$PPL_ROOT/.device/lib" ]; then export LD_LIBRARY_PATH=$PPL_ROOT/.device/lib:${LD_LIBRARY_PATH:-}; fi
  exec > >(tee -a "$RESULTS/driver.log") 2>&1
  local vars="" name
  # The settings that change what a driver measures, as they were given (PPL_*, *_PARTS, *_FILTER, ...).
  local settings='^(PPL_[A-Z0-9_]+|[A-Z][A-Z0-9_]*_(PARTS|FILTER|REPEATS|ROWS|RUNS|ITERS|N)|STUDIES|STUDY_LIMIT_[a-z0-9_]+'
  settings+='|NCU_[A-Z]+|TESTS_[A-Z]+|CTEST_ARGS)$'
  for name in $(compgen -e | grep -E "$settings" | grep -vE '^PPL_(DATA_DIR|ROOT)$' | sort); do
    vars+="$name='${!name}' "
  done
  {
    echo "# $title"
    echo
    echo "- Command: \`${vars}perf/device/$(basename "$0") $*\`"
    echo "- Revision: \`$(revision)\`"
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- GPU: $(gpu_line)"
    echo "- Host: $(host_line)"
    echo "- Build: \`$PPL_BUILD\` (or \`.device/bin\`); files: the JSON and logs beside this README, \`driver.log\`"
    echo
    echo "## Numbers"
  } >"$RESULTS/README.md"
  echo "== $title -> $RESULTS ($(date -u +%T) UTC)"
  echo "GPU: $(gpu_line)"
}

# record TITLE: copies stdin to the console and into README.md under "### TITLE", as a text block.
record() {
  printf '\n### %s\n\n```\n' "$1" >>"$RESULTS/README.md"
  tee -a "$RESULTS/README.md"
  printf '```\n' >>"$RESULTS/README.md"
}

# summary TITLE KIND FILE...: `perf/summarize.py KIND FILE...` into README.md (under TITLE) and on the console.
summary() {
  local title=$1
  shift
  { "${SUMMARIZE[@]}" "$@" || echo "(perf/summarize.py $1: no table)"; } | record "$title"
}

# step NAME LIMIT CMD...: CMD with a time limit in seconds, its output in RESULTS/NAME.log, its wall time (the whole
# process: start, work, exit) appended to RESULTS/wall_seconds.txt. A failure is counted and reported (the driver's
# exit status says so at the end), not fatal.
step() {
  local name=$1 limit=$2 rc=0 t0
  shift 2
  t0=$(date +%s.%N)
  timeout "$limit" "$@" >"$RESULTS/$name.log" 2>&1 || rc=$?
  echo "$name $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}')" >>"$RESULTS/wall_seconds.txt"
  [ "$rc" = 0 ] && return 0
  echo "$name: exit $rc$([ "$rc" = 124 ] && echo " (time limit ${limit} s)"); log: $name.log"
  FAILED=$((FAILED + 1))
  return 0
}

# bench NAME LIMIT EXE ARGS...: a Google Benchmark program with its JSON in RESULTS/NAME.json and console output in
# RESULTS/NAME.log. Each program does its own warm-up and repeats (medians with p10/p90 or stddev: perf/README.md).
bench() {
  local name=$1 limit=$2 program=$3
  shift 3
  step "$name" "$limit" "$program" --benchmark_out="$RESULTS/$name.json" --benchmark_out_format=json "$@"
}

# job NAME LIMIT JOB.yaml ARGS...: one `ppl run` (its timing block does the warm-up and repeats), its JSON summary in
# RESULTS/NAME.json, its log in RESULTS/NAME.log; ARGS are --set overrides.
job() {
  local name=$1 limit=$2 config=$3
  shift 3
  step "$name" "$limit" "$PPL" run "$config" --set output.summary="$RESULTS/$name.json" "$@"
}

# gtest NAME LIMIT [FILTER]: a GoogleTest binary of the CUDA build, its log in RESULTS/NAME.log, its last lines shown.
gtest() {
  local name=$1 limit=$2 filter=${3:-*} program
  program=$(exe "$name") || { FAILED=$((FAILED + 1)); return 0; }
  step "$name" "$limit" "$program" --gtest_brief=1 --gtest_filter="$filter"
  tail -3 "$RESULTS/$name.log"
}

# ncu_path: Nsight Compute's command line tool, or nothing.
ncu_path() {
  command -v ncu 2>/dev/null || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || true
}

# cuobjdump_path, nvcc_path: CUDA's SASS dumper and compiler, or nothing.
cuobjdump_path() {
  command -v cuobjdump 2>/dev/null || ls "${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump" 2>/dev/null || true
}
# sm_arch: nvcc's -arch for this machine's GPU (sm_90 on an H200), PPL_CUDA_SM overrides.
sm_arch() {
  local cc
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .') || true
  echo "sm_${PPL_CUDA_SM:-${cc:-90}}"
}
nvcc_path() {
  command -v nvcc 2>/dev/null || ls "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" 2>/dev/null || true
}

driver_end() {
  if [ "$FAILED" -gt 0 ]; then
    printf '\n%s step(s) failed: see driver.log and the step logs.\n' "$FAILED" | tee -a "$RESULTS/README.md"
    echo "== done with failures ($(date -u +%T) UTC): $RESULTS"
    exit 1
  fi
  echo "== done ($(date -u +%T) UTC): $RESULTS"
}
