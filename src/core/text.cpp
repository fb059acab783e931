#include "ppl/core/text.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace ppl {
namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps), case-insensitive.
std::size_t distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

// How far `word` may be from `candidate` and still be taken for it: short names are too easily confused ("b" is no
// misspelling of "c"), so up to 3 letters only a swap of letters counts.
bool near(const std::string& word, const std::string& candidate, std::size_t& dist) {
  const std::size_t n = word.size(), m = candidate.size(), longest = std::max(n, m);
  if (longest > 64) return false;  // names are short; a pasted paragraph is no misspelling
  if (longest <= 3) {
    if (n != m || word == candidate) return false;
    std::string sa = word, sb = candidate;
    std::transform(sa.begin(), sa.end(), sa.begin(), lower);
    std::transform(sb.begin(), sb.end(), sb.begin(), lower);
    const bool same_case_folded = sa == sb;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    dist = 1;
    return same_case_folded || sa == sb;
  }
  const std::size_t limit = longest <= 5 ? 1 : 2;
  if ((n > m ? n - m : m - n) > limit) return false;
  dist = distance(word, candidate);
  return dist <= limit;
}

}  // namespace

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  if (std::find(candidates.begin(), candidates.end(), word) != candidates.end()) return "";
  std::string best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const auto& c : candidates) {
    std::size_t d = 0;
    if (near(word, c, d) && d < best_distance) best = c, best_distance = d;
  }
  return best;
}

}  // namespace ppl
