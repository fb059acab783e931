// Atoms in: the PQR reader and the synthetic generators (uniform random box, TIP3-like water box).
#include "ppl/potential/atoms.hpp"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "ppl/core/error.hpp"

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
  return end == s.c_str() + s.size() && errno != ERANGE;
}

bool is_atom_record(const std::string& first) {
  return first == "ATOM" || first == "HETATM";
}

}  // namespace

// PQR: "ATOM serial name resname [chain] resseq x y z charge radius", whitespace separated. The chain id is
// optional and residue names may carry insertion codes, so the five last fields are the numbers we need.
atoms read_pqr(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw input_error(path + ": cannot open PQR file");
  atoms a;
  a.source = path;
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.empty() || !is_atom_record(f[0])) continue;  // REMARK, TER, END, CRYST1, blank lines
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    // record serial name resname resseq + 5 numbers = 10 fields at least (11 with a chain id).
    if (f.size() < 10)
      throw input_error(
          where + f[0] + " record has " + std::to_string(f.size()) +
          " fields, expected at least 10 (record serial name residue [chain] resseq x y z charge radius)");
    static const char* names[5] = {"x", "y", "z", "charge", "radius"};
    double v[5];
    for (int i = 0; i < 5; ++i) {
      const std::string& s = f[f.size() - 5 + i];
      if (!parse_number(s, v[i])) throw input_error(where + "field '" + names[i] + "' is not a number: '" + s + "'");
      if (!std::isfinite(v[i])) throw input_error(where + "field '" + names[i] + "' is not finite: '" + s + "'");
    }
    if (v[4] < 0) throw input_error(where + "negative radius " + f.back());
    a.push_back(v[0], v[1], v[2], v[3], v[4]);
  }
  if (in.bad()) throw input_error(path + ": read error");
  return a;
}

namespace {

// [0, 1) from the top 53 bits: the same sequence with every standard library (unlike uniform_real_distribution).
constexpr double pi = 3.14159265358979323846;

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

// A uniformly random rotation (Shoemake's quaternion method) applied to v.
struct rotation {
  double m[3][3];
  explicit rotation(std::mt19937_64& rng) {
    const double u1 = unit(rng), u2 = 2 * pi * unit(rng), u3 = 2 * pi * unit(rng);
    const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    const double w = a * std::sin(u2), x = a * std::cos(u2), y = b * std::sin(u3), z = b * std::cos(u3);
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

// Molecules sit on a cubic grid of cell a = 30^(1/3) A (one molecule per 30 A^3 = 0.1 atoms/A^3), each cell's
// oxygen jittered by at most 0.15 a and the molecule randomly rotated: O-O distances stay >= 0.7 a = 2.2 A and
// the hydrogens (0.9572 A from O) never leave their cell's neighbourhood, so molecules do not overlap.
atoms water_box(double lx, double ly, double lz, std::uint64_t seed) {
  constexpr double q_o = -0.834, q_h = 0.417, r_oh = 0.9572, angle = 104.52 * pi / 180.0;
  constexpr double r_o = 1.52, r_h = 1.0;  // radii as in Parboil's watbox (TIP3)
  const double cell_target = std::cbrt(30.0);
  const double l[3] = {lx, ly, lz};
  int n[3];
  double cell[3];
  for (int d = 0; d < 3; ++d) {
    n[d] = std::max(0, int(std::lround(l[d] / cell_target)));
    cell[d] = n[d] > 0 ? l[d] / n[d] : 0.0;
  }
  std::mt19937_64 rng(seed);
  atoms a;
  std::ostringstream src;
  src << "water_box(" << lx << " x " << ly << " x " << lz << " A, seed " << seed << ")";
  a.source = src.str();
  // The H positions in the molecule frame: symmetric about +z, in the xz plane.
  const vec3 h1{r_oh * std::sin(angle / 2), 0.0, r_oh * std::cos(angle / 2)};
  const vec3 h2{-h1[0], 0.0, h1[2]};
  const double jitter = 0.15;
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) {
        const int idx[3] = {i, j, k};
        vec3 o;
        for (int d = 0; d < 3; ++d) o[d] = cell[d] * (idx[d] + 0.5 + uniform(rng, -jitter, jitter));
        const rotation rot(rng);
        const vec3 d1 = rot(h1), d2 = rot(h2);
        a.push_back(o[0], o[1], o[2], q_o, r_o);
        a.push_back(o[0] + d1[0], o[1] + d1[1], o[2] + d1[2], q_h, r_h);
        a.push_back(o[0] + d2[0], o[1] + d2[1], o[2] + d2[2], q_h, r_h);
      }
  return a;
}

}  // namespace ppl
