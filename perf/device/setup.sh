#!/usr/bin/env bash
# On the GPU machine (sourced at the start of every perf/device/*.sh): library path, pinned OpenMP threads, and
# the repository's data/ folder for the test binaries.
export LD_LIBRARY_PATH=$PWD/.device/lib:${LD_LIBRARY_PATH:-}
export OMP_PROC_BIND=spread OMP_PLACES=threads
export PPL_DATA_DIR=$PWD/data
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv
