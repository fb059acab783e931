#!/usr/bin/env bash
# On the GPU machine (sourced at the start of every perf/device/*.sh): library path and the absolute paths the
# binaries were built with (/work/main for the repo, /work/shared for shared data).
export LD_LIBRARY_PATH=$PWD/.device/lib:${LD_LIBRARY_PATH:-}
export OMP_PROC_BIND=spread OMP_PLACES=threads
if [ "$PWD" != /work/main ]; then
  mkdir -p /work
  [ -e /work/main ] || ln -s "$PWD" /work/main
fi
[ -e /work/shared ] || ln -s "$PWD/.device/shared" /work/shared
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv
