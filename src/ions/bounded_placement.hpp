#pragma once
// The bounded placement (placement algorithm `bounded`, docs/ions.md): the ions of the full pass (same points, same
// order) and the same final map bits, without a pass over the whole map per ion. The lattice is cut into blocks of
// 8 x 8 x 8 points; a block's points carry the first `applied` ions of the placement (its values are the full pass's
// after that many ions), and the block keeps the extremes of its allowed values then plus the sums of bounds of
// what each later ion adds over its box (term_range.hpp). Per ion:
//   1. bounds: each block adds the ion just placed to its sums (or dies when the ion's exclusion sphere covers its
//      box) and bounds the next ion's score q x V over its allowed points from below; the lowest bound wins;
//   2. first: one team brings the winning block up to date (the pending ions applied to its values and mask in
//      placement order, exactly as the full pass's update) and takes its exact arg-min key;
//   3. candidates: every block whose lowest possible key (its bound rounded down to a float, then the index of its
//      first point) is below the best key so far is brought up to date and its key joins the minimum. A block left
//      out cannot hold a point of a lower score, nor one of the same score at a lower index.
// Only the result comes back to the host. After the last ion every block is brought up to date (finish).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "placement_kernels.hpp"
#include "ppl/ions/placement.hpp"
#include "ppl/potential/interaction.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "term_range.hpp"

namespace ppl::ions_detail {

constexpr int block_edge = 8;  // points per axis: a row of a block is 32 bytes of map, one sector
constexpr int block_points = block_edge * block_edge * block_edge;

// A placed ion as the blocks apply it: float coordinates (lattice_shape::coord of its point), charge, sphere.
struct ion_record {
  float x = 0, y = 0, z = 0, q = 0;
  exclusion_sphere sphere;
};

// A block's state. Values are those of its allowed points when it was last brought up to date (a superset of the
// allowed points now: exclusion only clears points); the pending ions are applied .. placed - 1.
struct block_state {
  float vmin = 0, vmax = 0;  // +Inf / -Inf: no allowed point with a value that is not NaN
  int applied = 0;           // ions applied to the block's points
  int live = 0;              // 0: no point of the block can ever be chosen
  int inexact = 0;           // pending ions whose term may not be 0 on the box (adding a 0 is exact)
  double pend_lo = 0, pend_hi = 0, pend_abs = 0;  // sums over the pending ions of their term's bounds on the box
};

// [lo, hi] of the allowed values of a live block: the float sums of the update differ from the exact ones by at
// most one roundoff of each partial sum (|v| + the pending terms' magnitudes) per addition of a term that is not 0,
// taken twice over.
struct value_bounds {
  double lo, hi;
};
KOKKOS_INLINE_FUNCTION value_bounds block_value_bounds(const block_state& s) {
  const double vabs = s.vmin < 0 ? (s.vmax > -s.vmin ? s.vmax : -s.vmin) : s.vmax;  // vmin <= vmax
  // The last term: an addition whose result is subnormal rounds by up to half the smallest subnormal.
  const double err = s.inexact * (0x1p-23 * (vabs + s.pend_abs) + 1e-44);
  return {double(s.vmin) + s.pend_lo - err, double(s.vmax) + s.pend_hi + err};
}

// The largest float not above x: bounds enter the keys as floats, so they must round down.
KOKKOS_INLINE_FUNCTION float float_below(double x) {
  constexpr double largest = double(float_largest);
  if (x != x) return -float_infinity;
  if (x > largest) return x == infinity ? float_infinity : float_largest;
  if (x < -largest) return -float_infinity;
  float f = float(x);
  if (double(f) > x) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    u = f > 0 ? u - 1 : f == 0 ? 0x80000001u : u + 1;  // one step towards -Inf
    std::memcpy(&f, &u, sizeof f);
  }
  return f;
}

// A lower bound of fl(q x v) over the block's allowed points; -Inf when a value is not finite (always examined).
// An ion's charge (+-1, +-2) scales exactly (below 1e38); another q rounds once, or underflows. Exact bounds
// matter on plateaus: a block whose values all equal the best score, beyond every pending ion's cutoff, then
// bounds exactly that score, and the index order of the keys leaves it out unless it starts at a lower index.
KOKKOS_INLINE_FUNCTION double score_lower_bound(const block_state& s, float q) {
  if (!(kmath::isfinite(s.vmin) && kmath::isfinite(s.vmax))) return -infinity;
  const value_bounds v = block_value_bounds(s);
  const double score = q >= 0 ? double(q) * v.lo : double(q) * v.hi;
  const bool exact = (q == 1 || q == -1 || q == 2 || q == -2) && dabs(score) < 1e38;
  const double lb = exact ? score : score - dabs(score) * 0x1p-23 - 1e-44;
  return lb == lb ? lb : -infinity;
}

class bounded_placement {
 public:
  // The placer's lattice, interaction and mask (built); `map` the lattice's values. Both are changed in place, and
  // are what the full pass leaves only after finish() (or the last add_ion).
  bounded_placement(ion_placer& placer, potential_view map);

  // The first ion's choice (charge q): the exact arg-min over every block, which also sets up the blocks.
  ion_choice select(float q);
  // The ion of charge q at `index`, with its exclusion sphere (`exclusion` A): with next_q the choice of the next
  // ion (as ion_placer::add_ion's); without, finish().
  ion_choice add_ion(int index, float q, double exclusion, const float* next_q);
  // Every pending ion applied to every block: the map and mask are then the full pass's, bit for bit.
  void finish();

  std::int64_t blocks() const { return std::int64_t(nb_[0]) * nb_[1] * nb_[2]; }
  std::int64_t last_blocks() const { return last_blocks_; }  // blocks brought up to date by the last call
  double finish_seconds() const { return finish_seconds_; }
  // For tests: each block's state (host copy) and the number of ions placed.
  std::vector<block_state> states() const;
  int placed() const { return placed_; }

 private:
  lattice grid_;
  interaction pair_;
  potential_view map_;
  Kokkos::View<std::uint8_t*> allowed_;
  int nb_[3] = {1, 1, 1};
  Kokkos::View<block_state*> states_;
  Kokkos::View<double*> bound_;        // per block: the lower bound of the next ion's score (bounds kernel)
  Kokkos::View<ion_record*> ions_;     // in placement order
  Kokkos::View<choice_key*> control_;  // lowest bound's key, best key, blocks brought up to date (this ion)
  int placed_ = 0;
  std::int64_t last_blocks_ = 0;
  double finish_seconds_ = 0;
  ion_choice read_result();
};

}  // namespace ppl::ions_detail
