#pragma once
// A potential map split over MPI ranks by z slabs (PPL_MPI builds only; docs/mpi.md). Each rank computes planes
// [z0, z1) of the lattice with the job's strategy, parameters and atoms; rank 0 gathers the planes into the whole
// map. Every point gets the bits the one-process run gives it: the slab is computed as the same lattice (the same
// origin, or the same slab origin where the one-process run computes in slabs, map_slabs) with its first plane
// named by lattice::first_plane, which only strategies of capability "z_slab" honour.
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "../potential_config.hpp"
#include "ppl/jobs/config.hpp"

namespace ppl::mpi {

// This process's rank and the number of ranks: 0 and 1 before MPI_Init or after MPI_Finalize (the Python module).
int rank();
int ranks();

// Rank r's planes of nz when split over p ranks: [nz * r / p, nz * (r + 1) / p).
std::pair<int, int> planes_of(int nz, int r, int p);

// At load time, with more than one rank: throws input_error (at `strategy`, or `lattice.periodic`) unless the
// map can be split exactly: a strategy of capability "z_slab" on a non-periodic lattice.
void check_split(const config_node& root, const potential_map_config& m);

// Computes planes [z0, z1) of m's map into `out` ((z1 - z0) * nx * ny values), as compute_map would compute them
// within the whole map: the same one-process slabs (map_slabs), each cut to [z0, z1), warm-ups and repeats. Pair
// counts and times are this rank's alone (see reduce_timing).
map_timing compute_planes(const potential_map_config& m, int z0, int z1, potential_view out,
                          const std::function<void(const std::string&)>& say);

// Over all ranks: pair counts summed, set-up and compute times the slowest rank's (every rank has the same number
// of timed computes). The result is on every rank.
void reduce_timing(map_timing& t);

// Gathers every rank's planes (`mine`: planes_of(nz, rank, ranks) of a lattice of `plane` points per plane) into
// `full` (nz * plane values) on rank 0; `full` is not touched on the other ranks.
void gather_planes(const float* mine, std::size_t plane, int nz, float* full);

// Rank 0's value, on every rank.
int broadcast_from_first(int value);

// The whole split on every rank: this rank's planes computed (compute_planes), the timing reduced (reduce_timing)
// and the planes gathered into `full` (g.size() values on the default memory space) on rank 0; `full` is not
// touched on the other ranks. For jobs that go on with the whole map on rank 0 (`job: ions`).
map_timing compute_split(const potential_map_config& m, potential_view full,
                         const std::function<void(const std::string&)>& say);

// Runs `whole` on rank 0 alone, with the other ranks' exit code rank 0's: `whole` returns the exit code or throws
// (rethrown on rank 0 after the other ranks have its code). `others` runs on the other ranks first.
int on_first_rank(const std::function<int()>& whole, const std::function<void()>& others);

// A map job's run: with one rank `whole`; with more, `whole` on rank 0 (which takes its map from compute_split) and
// this rank's planes of m's map on the others, every rank exiting with rank 0's code (on_first_rank).
int run_job(const potential_map_config& m, const std::function<int()>& whole);

}  // namespace ppl::mpi
