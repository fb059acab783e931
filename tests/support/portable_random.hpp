#pragma once
// Random test data that is the same on every platform: std::mt19937_64 is specified bit for bit, but the standard
// distributions and std::shuffle are not (libstdc++, libc++ and MSVC draw different numbers from the same engine),
// so the sparse tests draw through these instead. Same seed, same matrix and vectors everywhere.
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace ppl::test {

// [0, 1) from the engine's top 53 bits.
inline double unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
}
inline double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * unit(rng);
}
// [0, n) for n > 0 (the modulo bias is below 2^-40 for the sizes the tests use).
inline std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) {
  return rng() % n;
}
// Fisher-Yates, the same permutation for the same engine state on every platform.
template <class T>
void shuffle(std::vector<T>& v, std::mt19937_64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(rng, i)]);
}

}  // namespace ppl::test
