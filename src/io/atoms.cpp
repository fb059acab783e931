// Atoms in: the PQR reader and the synthetic generators (uniform random box, TIP3-like water box).
#include "ppl/io/atoms.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>

#include "ppl/core/error.hpp"
#include "ppl/io/text_reader.hpp"

namespace ppl {

void atoms::push_back(double px, double py, double pz, double pq, double pr) {
  x.push_back(px);
  y.push_back(py);
  z.push_back(pz);
  q.push_back(pq);
  radius.push_back(pr);
}

namespace {

// Strict number parse: the whole field must be a number (strtod accepts "nan"/"inf"; the caller rejects them).
bool parse_number(const std::string& s, double& v) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  // ERANGE on underflow (1e-400) still gives a usable 0; on overflow the value is +-HUGE_VAL: rejected.
  return end == s.c_str() + s.size() && (errno != ERANGE || std::abs(v) < 1.0);
}

bool is_atom_record(const std::string& first) {
  return first == "ATOM" || first == "HETATM";
}

// A residue number, optionally with an insertion code: "52", "-3", "52A".
bool is_residue_number(const std::string& s) {
  std::size_t i = (s.size() > 1 && s[0] == '-') ? 1 : 0;
  const std::size_t digits_from = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return i > digits_from && s.size() - i <= 1 && (i == s.size() || std::isalpha(static_cast<unsigned char>(s[i])));
}

// The file name without a trailing ".gz", lower case.
std::string plain_name(const std::string& path) {
  std::string n = path.substr(path.find_last_of('/') + 1);
  for (auto& c : n) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (n.size() > 3 && n.compare(n.size() - 3, 3, ".gz") == 0) n.resize(n.size() - 3);
  return n;
}

bool has_suffix(const std::string& name, const std::string& suffix) {
  return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A structure without charges and radii (PDB, mmCIF) where PQR was expected: what it is and the command that
// makes a PQR of it (pdb2pqr, packaged by Debian; its 3.x command line: pdb2pqr --ff=NAME INPUT OUTPUT).
[[noreturn]] void not_pqr(const std::string& where, const std::string& path, const std::string& what) {
  std::string stem = path;
  if (has_suffix(stem, ".gz")) stem.resize(stem.size() - 3);
  if (const auto dot = stem.find_last_of('.'); dot != std::string::npos && dot > stem.find_last_of('/') + 1)
    stem.resize(dot);
  std::string out = stem + ".pqr";
  if (out == path) out = stem + ".amber.pqr";
  throw input_error(where + "this is " + what +
                    ", not PQR (no charges and radii): run pdb2pqr first: " + "pdb2pqr --ff=AMBER " + path + " " + out);
}

// Coordinates (A) and charges (e) beyond this are not molecules; it keeps every pair distance and every partial
// sum far inside float32 range (3.4e38), where the kernels compute.
constexpr double max_pqr_value = 1.0e6;

}  // namespace

// PQR: "ATOM serial name resname [chain] resseq x y z charge radius", whitespace separated. The chain id is
// optional and residue names may carry insertion codes, so the five last fields are the numbers we need; the field
// before them must be the residue number, so a line that lost a field (a chain id but no radius) is an error
// rather than a line read with shifted columns. Plain or gzip-compressed (text_reader).
atoms read_pqr(const std::string& path) {
  text_reader in(path, "PQR file");
  atoms a;
  a.source = path;
  const std::string name = plain_name(path);
  const bool pdb_name = has_suffix(name, ".pdb") || has_suffix(name, ".ent");
  const bool cif_name = has_suffix(name, ".cif") || has_suffix(name, ".mmcif");
  std::string line;
  while (in.next(line)) {
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.empty()) continue;
    // mmCIF: a data block, a loop or the atom_site category, lines no PQR file has.
    if (cif_name || f[0].rfind("data_", 0) == 0 || f[0] == "loop_" || f[0].rfind("_atom_site.", 0) == 0)
      not_pqr(in.where() + ": ", path, "an mmCIF file");
    if (!is_atom_record(f[0])) continue;  // REMARK, TER, END, CRYST1
    const std::string where = in.where() + ": ";
    // PDB: by its name, or by the element symbol that ends a PDB ATOM record where PQR has the radius.
    double number = 0;
    if (pdb_name ||
        (f.size() >= 7 && std::isalpha(static_cast<unsigned char>(f.back()[0])) && !parse_number(f.back(), number)))
      not_pqr(where, path, "a PDB file");
    // record serial name resname resseq + 5 numbers = 10 fields at least (11 with a chain id).
    if (f.size() < 10)
      throw input_error(
          where + f[0] + " record has " + std::to_string(f.size()) +
          " fields, expected at least 10 (record serial name residue [chain] resseq x y z charge radius)");
    if (!is_residue_number(f[f.size() - 6]))
      throw input_error(where + "expected the residue number before x y z charge radius, got '" + f[f.size() - 6] +
                        "' (a field is missing: record serial name residue [chain] resseq x y z " + "charge radius)");
    static const char* names[5] = {"x", "y", "z", "charge", "radius"};
    double v[5];
    for (int i = 0; i < 5; ++i) {
      const std::string& s = f[f.size() - 5 + i];
      if (!parse_number(s, v[i])) throw input_error(where + "field '" + names[i] + "' is not a number: '" + s + "'");
      // Finite in float32 too: the kernels compute in float, and 1e39 would silently become Inf there.
      if (!std::isfinite(v[i])) throw input_error(where + "field '" + names[i] + "' is not finite: '" + s + "'");
      if (std::abs(v[i]) > max_pqr_value)
        throw input_error(where + "field '" + names[i] + "' is out of range: '" + s +
                          "' (|value| <= " + std::to_string(static_cast<long long>(max_pqr_value)) + ")");
    }
    if (v[4] < 0) throw input_error(where + "negative radius " + f.back());
    a.push_back(v[0], v[1], v[2], v[3], v[4]);
    a.labels.push_back({f[0], f[2], f[3], f.size() >= 11 ? f[4] : "", f[f.size() - 6]});
  }
  if (a.size() == 0) throw input_error(path + ": no ATOM or HETATM records (is this a PQR file?)");
  return a;
}

namespace {

// The generators give the same atoms for a seed on every platform: mt19937_64 is fully specified, [0, 1) comes
// from its top 53 bits (uniform_real_distribution differs between standard libraries), and the arithmetic is +, *,
// / and sqrt only, which IEEE 754 rounds the same everywhere; libm's sin, cos and cbrt may differ in the last place,
// so they are not used, and src/CMakeLists.txt forbids fused multiply-adds in this file (GCC fuses
// a * b + c by default where the processor has FMA, as on aarch64). tests/io/test_generators.cpp holds
// golden values.
double unit(std::mt19937_64& rng) {
  return double(rng() >> 11) * 0x1.0p-53;
}
double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * unit(rng);
}

}  // namespace

atoms random_atoms(std::size_t n, const double lo[3], const double hi[3], double qmin, double qmax,
                   std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  atoms a;
  std::ostringstream src;
  src << "random(" << n << " atoms, seed " << seed << ")";
  a.source = src.str();
  a.x.reserve(n), a.y.reserve(n), a.z.reserve(n), a.q.reserve(n), a.radius.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double px = uniform(rng, lo[0], hi[0]);
    const double py = uniform(rng, lo[1], hi[1]);
    const double pz = uniform(rng, lo[2], hi[2]);
    const double pq = uniform(rng, qmin, qmax);
    a.push_back(px, py, pz, pq, 0.0);
  }
  return a;
}

namespace {

using vec3 = std::array<double, 3>;

// A uniformly random rotation applied to v: a uniformly random unit quaternion by Marsaglia's method (two points
// drawn uniformly in the unit disc), which needs no trigonometric functions.
struct rotation {
  double m[3][3];
  explicit rotation(std::mt19937_64& rng) {
    double x1, y1, s1, x2, y2, s2;
    do {
      x1 = uniform(rng, -1.0, 1.0), y1 = uniform(rng, -1.0, 1.0), s1 = x1 * x1 + y1 * y1;
    } while (s1 >= 1.0);
    do {
      x2 = uniform(rng, -1.0, 1.0), y2 = uniform(rng, -1.0, 1.0), s2 = x2 * x2 + y2 * y2;
    } while (s2 >= 1.0 || s2 == 0.0);
    const double f = std::sqrt((1.0 - s1) / s2);
    const double w = x1, x = y1, y = x2 * f, z = y2 * f;
    m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y - z * w), m[0][2] = 2 * (x * z + y * w);
    m[1][0] = 2 * (x * y + z * w), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z - x * w);
    m[2][0] = 2 * (x * z - y * w), m[2][1] = 2 * (y * z + x * w), m[2][2] = 1 - 2 * (x * x + y * y);
  }
  vec3 operator()(const vec3& v) const {
    vec3 r{};
    for (int i = 0; i < 3; ++i) r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    return r;
  }
};

}  // namespace

// One molecule per 30 A^3 (0.1 atoms/A^3): N = round(lx*ly*lz / 30) molecules in N randomly chosen cells of a grid
// of n = ceil(l / 30^(1/3)) cells per axis (cells no larger than 3.1 A), the oxygen jittered about its cell's
// centre, the molecule randomly rotated. A placement is redrawn while an atom would leave the box or come closer
// than 1.2 A to an atom of a molecule already placed in a neighbouring cell, so molecules never overlap.
atoms water_box(double lx, double ly, double lz, std::uint64_t seed) {
  constexpr double q_o = -0.834, q_h = 0.417;
  // O-H 0.9572 A, H-O-H 104.52 deg: the H offsets 0.9572 * (sin, cos)(52.26 deg) as literals (see unit() above).
  constexpr double h_x = 0x1.838efe48967cfp-1, h_z = 0x1.2bf8c302c3616p-1;
  constexpr double cbrt_30 = 0x1.8db9cb7511e9dp+1;  // 30^(1/3): the edge of the 30 A^3 a molecule gets
  constexpr double r_o = 1.52, r_h = 1.0;           // radii as in Parboil's watbox (TIP3)
  constexpr double min_distance = 1.2, jitter = 0.1;
  constexpr int max_tries = 1000;
  const double l[3] = {lx, ly, lz};
  for (double side : l)
    if (!(side > 0) || !std::isfinite(side)) throw input_error("water_box: box sides must be > 0");
  int n[3];
  double cell[3];
  for (int d = 0; d < 3; ++d) {
    n[d] = int(std::ceil(l[d] / cbrt_30));
    cell[d] = l[d] / n[d];
  }
  const std::size_t cells = std::size_t(n[0]) * n[1] * n[2];
  if (cells >= (std::size_t(1) << 31))
    throw input_error("water_box: a box of " + std::to_string(lx * ly * lz) + " A^3 is too large");
  const std::size_t molecules = std::min(cells, std::size_t(std::llround(lx * ly * lz / 30.0)));
  std::mt19937_64 rng(seed);
  // The first `molecules` entries of a partial Fisher-Yates shuffle are the occupied cells.
  std::vector<std::uint32_t> order(cells);  // 4 bytes per cell: boxes up to ~1e9 A^3 stay affordable
  for (std::size_t c = 0; c < cells; ++c) order[c] = std::uint32_t(c);
  for (std::size_t c = 0; c < molecules; ++c)
    std::swap(order[c], order[c + std::min(cells - c - 1, std::size_t(unit(rng) * double(cells - c)))]);
  std::vector<std::uint32_t> occupied(order.begin(), order.begin() + std::ptrdiff_t(molecules));
  std::vector<std::uint32_t>().swap(order);  // free it before the atoms grow
  std::sort(occupied.begin(), occupied.end());
  std::vector<std::int32_t> molecule_in(cells, -1);  // per cell: the molecule placed there (atoms 3m .. 3m+2)

  atoms a;
  std::ostringstream src;
  src << "water_box(" << lx << " x " << ly << " x " << lz << " A, seed " << seed << ")";
  a.source = src.str();
  // The H positions in the molecule frame: symmetric about +z, in the xz plane.
  const vec3 h1{h_x, 0.0, h_z};
  const vec3 h2{-h1[0], 0.0, h1[2]};
  for (const std::size_t c : occupied) {
    const int idx[3] = {int(c % std::size_t(n[0])), int(c / std::size_t(n[0]) % std::size_t(n[1])),
                        int(c / (std::size_t(n[0]) * std::size_t(n[1])))};
    std::array<vec3, 3> m{};
    bool ok = false;
    for (int attempt = 0; attempt < max_tries && !ok; ++attempt) {
      for (int d = 0; d < 3; ++d) m[0][d] = cell[d] * (idx[d] + 0.5 + uniform(rng, -jitter, jitter));
      const rotation rot(rng);
      const vec3 d1 = rot(h1), d2 = rot(h2);
      for (int d = 0; d < 3; ++d) m[1][d] = m[0][d] + d1[d], m[2][d] = m[0][d] + d2[d];
      ok = true;
      for (const auto& p : m)
        for (int d = 0; d < 3; ++d) ok = ok && p[d] >= 0.0 && p[d] <= l[d];
      for (int dk = -1; dk <= 1 && ok; ++dk)
        for (int dj = -1; dj <= 1 && ok; ++dj)
          for (int di = -1; di <= 1 && ok; ++di) {
            const int i = idx[0] + di, j = idx[1] + dj, k = idx[2] + dk;
            if (i < 0 || j < 0 || k < 0 || i >= n[0] || j >= n[1] || k >= n[2]) continue;
            const std::size_t other = (std::size_t(k) * n[1] + j) * n[0] + i;
            if (molecule_in[other] < 0) continue;
            for (const auto& p : m)
              for (std::size_t t = 3 * std::size_t(molecule_in[other]), e = t + 3; t < e; ++t) {
                const double dx = p[0] - a.x[t], dy = p[1] - a.y[t], dz = p[2] - a.z[t];
                ok = ok && dx * dx + dy * dy + dz * dz >= min_distance * min_distance;
              }
          }
    }
    if (!ok) throw input_error("water_box: cannot place a molecule in a " + src.str() + "; the box is too small");
    molecule_in[c] = std::int32_t(a.size() / 3);
    a.push_back(m[0][0], m[0][1], m[0][2], q_o, r_o);
    a.push_back(m[1][0], m[1][1], m[1][2], q_h, r_h);
    a.push_back(m[2][0], m[2][1], m[2][2], q_h, r_h);
  }
  return a;
}

}  // namespace ppl
