#pragma once
// Which ions, in which order, and the loop that places them (docs/ions.md): what `job: ions` and the Python module's
// place_ions both run. The request is typed; its errors name the key of the job's `ions` block they concern, so a
// job can place them at their file:line and a Python caller read them as they are.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/io/atoms.hpp"
#include "ppl/ions/placement.hpp"
#include "ppl/ions/species.hpp"
#include "ppl/ions/structure_io.hpp"

namespace ppl {

// Avogadro's number x 1e-27 L/A^3: ions per A^3 at 1 mol/L.
constexpr double ions_per_A3_per_molar = 6.02214076e-4;

// A solute charge within this of an integer is that integer (the sign rule of the ions' order, the counter-ion count).
constexpr double integer_charge_tolerance = 1e-6;  // e

// The most ions one placement makes: each ion's potential is added to every point of the lattice (the full pass: a
// pass per ion, 0.2 ms on the H200 at 6.4e7 points, tens of ms on a CPU; the bounded placement: as many term
// evaluations in its finish), and no solvated system needs more (0.15 M in a (400 A)^3 box is 5,800 ions).
constexpr int max_ions = 100000;

// The sum of the charges, rounded to the nearest integer when within integer_charge_tolerance of it: a neutral
// molecule's float64 sum is a round-off such as +5.8e-15 whose sign depends on the order of the atoms, and the sign
// decides which ions go first.
double solute_charge(const std::vector<double>& q);

// The distance from (x, y, z) to the nearest atom of `a` (A; every atom visited: once per placed ion).
double nearest_atom_distance(const atoms& a, double x, double y, double z);

// Explicit counts per species, or neutralising counter-ions and salt.
struct ion_request {
  std::vector<std::pair<const ion_species*, int>> counts;  // non-empty: exactly these (0 to 1e6 each)
  bool neutralize = false;
  double salt_molar = 0.0;  // mol/L in the solvent volume, 0 to 10
  const ion_species* cation = &find_ion_species("Na+");
  const ion_species* anion = &find_ion_species("Cl-");
};

struct ion_plan {
  std::vector<const ion_species*> order;  // one entry per ion, in placement order
  const ion_species* counterion = nullptr;
  int counterions = 0;  // neutralize: round(|Q| / |z|)
  int salt_units = 0;   // round(salt_molar x ions_per_A3_per_molar x solvent_volume) formula units
};

// A request that cannot be met; key() is the job's key it concerns ("counts", "neutralize", "salt_molar", "cation",
// "anion"), what() the reason, starting with 'ions.<key>'.
class ion_request_error : public input_error {
 public:
  ion_request_error(std::string key, const std::string& message) : input_error(message), key_(std::move(key)) {}
  const std::string& key() const noexcept { return key_; }

 private:
  std::string key_;
};

// The order (docs/ions.md): the solute's counter-ions first (cations for a negative or neutral solute), then the
// rest; explicit counts in the species table's order within each sign; salt as formula units, cation(s) then
// anion(s), one unit after the other, so each kind sees the other's last ions. Throws ion_request_error for more
// than max_ions ions, a cation that is not one, an anion that is not one.
ion_plan plan_ions(const ion_request& r, double solute_charge, double solvent_volume);

// A checksum of a map's bits: the sum, modulo 2^64, of a 64-bit mix of each point's index and bits, so equal maps
// give equal sums whatever the backend's reduction order (the summary's ions.map_after_checksum: two algorithms or
// two runs leave the same map bits when their checksums agree).
std::uint64_t map_checksum(Kokkos::View<const float*> map);

// What a placement did besides placing ions: the summary's ions.algorithm, ions.blocks and ions.finish_s.
struct placement_report {
  placement_algorithm algorithm = placement_algorithm::bounded;
  std::int64_t blocks = 0;    // bounded: blocks of the lattice (each ion's own count is placed_ion::blocks)
  int points_per_block = 0;   // bounded: 512 (8^3; fewer at the far faces)
  double finish_seconds = 0;  // bounded: the pending ions applied to every block after the last ion (in its time)
};

// The placement loop on `map` (raw e/A, the placer's lattice, its mask built): per ion the chosen point comes back
// from the device, then the ion's potential is added, its exclusion sphere (min_ions A) cleared from the mask and the
// next ion's point selected, by `algorithm` (both give the same ions and the same map bits; bounded applies the
// ions to the map lazily, so map and mask are complete when place_ions returns, not in between). after_each(n, ion)
// follows each ion (progress; n from 0). Positions are the lattice points' (float64); potential is V before the ion
// (raw e/A); nearest_solute is left to the caller. Throws input_error "no allowed lattice point is left for ion N of
// M (Na+)..." when the mask runs out (the map then holds the ions placed before, complete).
std::vector<placed_ion> place_ions(ion_placer& placer, potential_view map, const std::vector<const ion_species*>& order,
                                   double min_ions,
                                   const std::function<void(std::size_t, const placed_ion&)>& after_each = {},
                                   placement_algorithm algorithm = placement_algorithm::bounded,
                                   placement_report* report = nullptr);

}  // namespace ppl
