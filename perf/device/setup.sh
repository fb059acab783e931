#!/usr/bin/env bash
# On the GPU machine (sourced at the start of every perf/device/*.sh): library path, OpenMP threads left unpinned,
# and the repository's data/ folder for the test binaries. Pinning (OMP_PROC_BIND=spread OMP_PLACES=threads, used
# until 2026-12-01) put every OpenMP thread of a process on one core of that machine: an OpenMP BiCG iteration on
# 1,092,727 rows took 103.7 ms on 16 threads, 9.5 ms unpinned (perf/results/round7-h200/host_cpus.txt). Host-side
# numbers measured there before then (verification, cutoff overflow sums, CPU studies) ran on one core.
export LD_LIBRARY_PATH=$PWD/.device/lib:${LD_LIBRARY_PATH:-}
export OMP_PROC_BIND=false
unset OMP_PLACES
export PPL_DATA_DIR=$PWD/data
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv
