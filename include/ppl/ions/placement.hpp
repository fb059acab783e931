#pragma once
// Ion placement on the device (`job: ions`, docs/ions.md), cionize's algorithm: one ion at a time at the allowed
// lattice point where q_ion x V is lowest, then that ion's own potential added to the whole map, then the next.
// The map (raw e/A, float32, x fastest) and a mask of allowed points stay on the device; per ion only the chosen
// point (its index and q x V there) comes back to the host.
//
// Allowed points: at least `solute` A from every solute atom, `border` A from the lattice's faces and `ions` A
// from every ion placed so far (a point at exactly the distance is allowed). Distances are float64, from the
// lattice's float64 point positions (lattice::point), so a host check computes the same decisions.
// Ties of q x V go to the lowest point index, so the choice does not depend on the backend's reduction order.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "ppl/io/atoms.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/spatial/lattice.hpp"

namespace ppl {

// The allowed point with the lowest score q x V; index -1 when no point is allowed.
struct ion_choice {
  float score = 0.0f;
  int index = -1;
};

struct ion_mask_counts {
  std::int64_t allowed = 0;        // points allowed for the first ion
  std::int64_t inside_solute = 0;  // points closer to a solute atom than that atom's radius (the solute's volume)
};

// How build_mask finds the points near the solute: per atom, the box of points within its reach (cheap when the
// reach is a few spacings); per point, the atoms of nearby cells with an early exit at the first one close enough
// (bounded when the reach spans the lattice: min_distance_solute 1000 A); automatic picks by the per-atom work.
enum class mask_method { automatic, per_atom, per_point };

// How the ions are chosen one after the other (docs/ions.md); both give the same ions and the same final map bits.
//  - full_pass: cionize's loop: per ion one pass over the whole map adds the ion's term, clears its sphere and
//    selects the next (ion_placer::add_ion);
//  - bounded: branch and bound over blocks of 8^3 points, which apply the placed ions lazily: per ion only the
//    blocks that may hold a point below the best (q x V, index) key found are brought up to date (the default).
// The names are the config values of `ions.algorithm`, the test parameters and the profiling regions'
// (ppl::ions::bounded::*; the full pass's kernels are ppl::ions::select and ppl::ions::add_ion).
enum class placement_algorithm { full_pass, bounded };
const std::vector<std::string>& placement_algorithm_names();  // "bounded", "full_pass"
placement_algorithm parse_placement_algorithm(const std::string& name);
const char* config_name(placement_algorithm a);

class ion_placer {
 public:
  // The lattice must not be periodic (the ion's term is the plain pair term of `pair`).
  ion_placer(const lattice& g, const interaction& pair);

  // Builds the mask of the first ion: points at least `min_solute` from every atom of `solute` and `border` from the
  // faces. Also counts the points inside the solute's atoms (their radii), for the solvent volume.
  ion_mask_counts build_mask(const atoms& solute, double min_solute, double border,
                             mask_method method = mask_method::automatic);

  // The allowed point with the lowest q x v (ties: lowest index).
  ion_choice select(potential_view v, float q) const;
  // Marks the points closer than `distance` to point `index` (an ion just placed there) as not allowed.
  void exclude_around(int index, double distance);
  // Adds the potential of charge q at point `index` to every point of v (the job's interaction, float32 pair term
  // of kernels/pair_terms.hpp, singularity rule: the ion's own point gets nothing) and marks the points closer than
  // `exclusion` to it as not allowed (exclude_around's sphere; 0: none). With `next_q` it returns, from the same
  // pass, the selection of the next ion of charge *next_q on the updated map and mask (one pass instead of three).
  ion_choice add_ion(potential_view v, int index, float q, double exclusion, const float* next_q);

  std::int64_t count_allowed() const;
  const lattice& grid() const { return grid_; }
  const interaction& pair() const { return pair_; }
  Kokkos::View<std::uint8_t*> allowed() const { return allowed_; }

 private:
  lattice grid_;
  interaction pair_;
  Kokkos::View<std::uint8_t*> allowed_;  // 1: an ion may go there
  // Two result slots of the selection passes, (score, index) packed (see placement.cpp): a pass fills one and
  // resets the other for the next pass.
  Kokkos::View<unsigned long long*> best_;
  mutable int slot_ = 0;
  ion_choice take_choice() const;  // the current slot's result; the next pass uses the other
};

}  // namespace ppl
