#pragma once
// The map of `job: potential` and `job: ions`, one process or split over MPI ranks (PPL_MPI builds, docs/mpi.md):
// the one dispatch both jobs share.
#include <functional>
#include <string>

#include "potential_config.hpp"
#if PPL_HAVE_MPI
#include "mpi/split_map.hpp"
#endif

namespace ppl {

// The job's map: compute_map, or with more than one rank this rank's planes gathered on rank 0 (compute_split).
inline map_timing compute_job_map(const potential_map_config& m, potential_view out,
                                  const std::function<void(const std::string&)>& say, const progress_sink& progress) {
#if PPL_HAVE_MPI
  if (mpi::ranks() > 1) return mpi::compute_split(m, out, say);
#endif
  return compute_map(m, out, say, progress);
}

// The job's run: `whole` (which takes its map from compute_job_map), with more than one rank on rank 0 alone while
// the other ranks compute their planes, every rank exiting with rank 0's code (mpi::run_job).
inline int run_map_job(const potential_map_config& m, const std::function<int()>& whole) {
#if PPL_HAVE_MPI
  return mpi::run_job(m, whole);
#else
  (void)m;
  return whole();
#endif
}

}  // namespace ppl
