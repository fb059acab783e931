// Times VMD's msmpot library (multilevel summation potential maps, CUDA) on an atoms file and checks its map
// against the exact Coulomb sum at sampled points. Built by build.sh beside msmpot's own sources (which are not
// part of ppl; see README.md), so it includes msmpot's headers from the folder the user gives.
//
//   msmpot_driver ATOMS.xyzq --origin X Y Z --spacing H --dims NX NY NZ
//                 [--repeats 5] [--warmup 1] [--cuda | --no-cuda] [--allow-fallback] [--out MAP.f32]
//                 [--check N] [--seed S] [--stable] [--cutoff A] [--hmin H] [--nlevels L]
//
// ATOMS.xyzq: raw little-endian float32 records x, y, z, q (A, e), 16 bytes per atom, no header (the count is the
// file size / 16). The map's points are origin + (i, j, k) * H with i fastest (msmpot's layout, and ppl's); the
// values are raw q/r in e/A, ppl's raw unit (msmpot applies no Coulomb constant). One JSON line goes to stdout.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

// The internal header gives the parameters msmpot chose (spacing h, levels, whether CUDA ran); it includes msmpot.h.
#include "msmpot_internal.h"

namespace {

[[noreturn]] void fail(const std::string& msg) {
  std::fprintf(stderr, "msmpot_driver: %s\n", msg.c_str());
  std::exit(2);
}

struct options {
  std::string atoms_path, out_path;
  double origin[3] = {0, 0, 0};
  double spacing = 0;
  long dims[3] = {0, 0, 0};
  int repeats = 5, warmup = 1;
  bool cuda = true, allow_fallback = false, stable = false;
  long check = 0;
  std::uint64_t seed = 1;
  float cutoff = 0, hmin = 0;  // 0: msmpot's defaults
  int nlevels = 0;
  bool configure = false;
};

double number(int& i, int argc, char** argv) {
  if (i + 1 >= argc) fail(std::string("missing value after ") + argv[i]);
  char* end = nullptr;
  const char* s = argv[++i];
  const double v = std::strtod(s, &end);
  if (end == s || *end != '\0' || !std::isfinite(v)) fail(std::string("not a number: ") + s);
  return v;
}

long integer(int& i, int argc, char** argv, long lo, long hi) {
  const double v = number(i, argc, argv);
  if (v != std::floor(v) || v < double(lo) || v > double(hi))
    fail(std::string("expected an integer in [") + std::to_string(lo) + ", " + std::to_string(hi) + "]: " + argv[i]);
  return long(v);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--origin") {
      for (double& v : o.origin) v = number(i, argc, argv);
    } else if (a == "--spacing") {
      o.spacing = number(i, argc, argv);
    } else if (a == "--dims") {
      for (long& v : o.dims) v = integer(i, argc, argv, 1, 1 << 20);
    } else if (a == "--repeats") {
      o.repeats = int(integer(i, argc, argv, 1, 100000));
    } else if (a == "--warmup") {
      o.warmup = int(integer(i, argc, argv, 0, 100000));
    } else if (a == "--cuda") {
      o.cuda = true;
    } else if (a == "--no-cuda") {
      o.cuda = false;
    } else if (a == "--allow-fallback") {
      o.allow_fallback = true;
    } else if (a == "--out") {
      if (i + 1 >= argc) fail("missing file after --out");
      o.out_path = argv[++i];
    } else if (a == "--check") {
      o.check = integer(i, argc, argv, 0, 100000000);
    } else if (a == "--seed") {
      o.seed = std::uint64_t(integer(i, argc, argv, 0, std::numeric_limits<int>::max()));
    } else if (a == "--stable") {
      o.stable = true;
    } else if (a == "--cutoff") {
      o.cutoff = float(number(i, argc, argv)), o.configure = true;
    } else if (a == "--hmin") {
      o.hmin = float(number(i, argc, argv)), o.configure = true;
    } else if (a == "--nlevels") {
      o.nlevels = int(integer(i, argc, argv, 0, 64)), o.configure = true;
    } else if (a == "-h" || a == "--help") {
      std::printf(
          "usage: msmpot_driver ATOMS.xyzq --origin X Y Z --spacing H --dims NX NY NZ [--repeats 5] [--warmup 1]\n"
          "       [--cuda | --no-cuda] [--allow-fallback] [--out MAP.f32] [--check N] [--seed S] [--stable]\n"
          "       [--cutoff A] [--hmin H] [--nlevels L]\n");
      std::exit(0);
    } else if (!a.empty() && a[0] == '-') {
      fail("unknown option " + a);
    } else if (o.atoms_path.empty()) {
      o.atoms_path = a;
    } else {
      fail("more than one atoms file: " + a);
    }
  }
  if (o.atoms_path.empty()) fail("no atoms file (float32 x y z q per atom); --help shows the usage");
  if (!(o.spacing > 0)) fail("--spacing H (> 0) is required");
  if (o.dims[0] < 1 || o.dims[1] < 1 || o.dims[2] < 1) fail("--dims NX NY NZ is required");
  if (double(o.dims[0]) * double(o.dims[1]) * double(o.dims[2]) > double(std::numeric_limits<int>::max()))
    fail("the lattice has more points than msmpot's int indexing allows");
  return o;
}

std::vector<float> read_atoms(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) fail("cannot open " + path);
  std::fseek(f, 0, SEEK_END);
  const long bytes = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  if (bytes <= 0 || bytes % 16 != 0) fail(path + ": size is not a positive multiple of 16 bytes (x y z q float32)");
  if (bytes / 16 > std::numeric_limits<int>::max()) fail(path + ": too many atoms for msmpot (int count)");
  std::vector<float> a(std::size_t(bytes / 4));
  if (std::fread(a.data(), 4, a.size(), f) != a.size()) fail("short read from " + path);
  std::fclose(f);
  for (float v : a)
    if (!std::isfinite(v)) fail(path + ": a non-finite value");
  return a;
}

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) fail(std::string(what) + ": " + cudaGetErrorString(e));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string num(double v, int digits = 6) {
  if (!std::isfinite(v)) return "null";
  char b[64];
  std::snprintf(b, sizeof b, "%.*g", digits, v);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  // Atoms relative to the map's origin, which then goes to msmpot as (0, 0, 0): VMD's own call does the same
  // (VolMapCreate.C, "origin, already translated to min"), and msmpot needs it: its short-range part hands the
  // atoms that overflow a full bin to the CPU with domain-relative coordinates, which it then reads as absolute
  // ones, so with a nonzero map origin those atoms land shifted by the origin (msmpot_compute.c,
  // Msmpot_compute_shortrng_bin_hashing and Msmpot_compute_shortrng_linklist).
  std::vector<float> atom = read_atoms(o.atoms_path);
  const int natoms = int(atom.size() / 4);
  for (int n = 0; n < natoms; ++n)
    for (int d = 0; d < 3; ++d) atom[4 * n + d] = float(double(atom[4 * n + d]) - o.origin[d]);
  const int mx = int(o.dims[0]), my = int(o.dims[1]), mz = int(o.dims[2]);
  const std::size_t points = std::size_t(mx) * my * mz;
  // msmpot takes the map's lengths and spacing dx = lx / mx: point i sits at x0 + i * dx.
  const float lx = float(mx * o.spacing), ly = float(my * o.spacing), lz = float(mz * o.spacing);
  const float x0 = 0, y0 = 0, z0 = 0;  // the atoms are relative to the origin (above)

  if (o.cuda) check_cuda(cudaFree(nullptr), "CUDA context");  // the context is made here, outside the timing

  Msmpot* msm = Msmpot_create();
  if (!msm) fail("Msmpot_create failed");
  int rc;
  if (o.configure) {
    // interp 0 and split 0 are msmpot's defaults (cubic, Taylor2); 0 for the others keeps their defaults.
    rc = Msmpot_configure(msm, MSMPOT_INTERP_CUBIC, MSMPOT_SPLIT_TAYLOR2, o.cutoff, o.hmin, o.nlevels, 0, 0, 0,
                          o.cuda ? 1 : 0);
    if (rc != MSMPOT_SUCCESS) fail(std::string("Msmpot_configure: ") + Msmpot_error_string(rc));
  }
  static const int devlist[1] = {0};
  if (o.cuda) {
    // cuda_optional 0: a CUDA failure is an error, not a silent CPU run (unless --allow-fallback).
    rc = Msmpot_use_cuda(msm, devlist, 1, o.allow_fallback ? 1 : 0);
    if (rc != MSMPOT_SUCCESS) fail(std::string("Msmpot_use_cuda: ") + Msmpot_error_string(rc));
  } else {
    msm->use_cuda = 0;  // Msmpot_create turns CUDA on (optional) in a CUDA build
  }

  std::vector<float> map(points), map2;
  auto compute = [&](float* dst) {
    const auto t0 = std::chrono::steady_clock::now();
    const int r = Msmpot_compute(msm, dst, mx, my, mz, lx, ly, lz, x0, y0, z0, 0.f, 0.f, 0.f, atom.data(), natoms);
    if (o.cuda) check_cuda(cudaDeviceSynchronize(), "after Msmpot_compute");
    const auto t1 = std::chrono::steady_clock::now();
    if (r != MSMPOT_SUCCESS) fail(std::string("Msmpot_compute: ") + Msmpot_error_string(r));
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
  };

  std::vector<double> warm_ms, times;
  for (int w = 0; w < o.warmup; ++w) warm_ms.push_back(compute(map.data()));
  for (int r = 0; r < o.repeats; ++r) times.push_back(compute(map.data()));

  long differing = -1;
  double max_diff = 0;  // the largest |difference| between the two computes of --stable
  if (o.stable) {
    map2.resize(points);
    compute(map2.data());
    differing = 0;
    for (std::size_t p = 0; p < points; ++p)
      if (std::memcmp(&map[p], &map2[p], sizeof(float)) != 0) {
        ++differing;
        max_diff = std::max(max_diff, std::fabs(double(map[p]) - double(map2[p])));
      }
  }

  long nonfinite = 0;
  for (float v : map) nonfinite += !std::isfinite(v);

  if (!o.out_path.empty()) {
    FILE* f = std::fopen(o.out_path.c_str(), "wb");
    if (!f || std::fwrite(map.data(), sizeof(float), points, f) != points || std::fclose(f) != 0)
      fail("cannot write " + o.out_path);
  }

  // The exact Coulomb sum (float64) at sampled points; atoms closer than 1e-4 A to a point are left out (ppl's rule).
  double rel_rms = std::numeric_limits<double>::quiet_NaN(), max_abs = 0;
  long skipped_pairs = 0;
  if (o.check > 0) {
    std::mt19937_64 rng(o.seed);
    std::vector<std::size_t> idx(std::size_t(o.check));
    for (auto& p : idx) p = std::size_t(rng() % points);
    std::vector<double> ref(idx.size());
    const double hx = msm->dx, hy = msm->dy, hz = msm->dz;  // the spacings msmpot used (lx / mx)
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : skipped_pairs)
    for (long s = 0; s < long(idx.size()); ++s) {
      const std::size_t p = idx[std::size_t(s)];
      const long i = long(p % std::size_t(mx)), j = long(p / std::size_t(mx) % std::size_t(my)),
                 k = long(p / (std::size_t(mx) * my));
      const double px = i * hx, py = j * hy, pz = k * hz;  // relative to the origin, as the atoms
      double v = 0;
      for (int n = 0; n < natoms; ++n) {
        const double dx = double(atom[4 * n]) - px, dy = double(atom[4 * n + 1]) - py,
                     dz = double(atom[4 * n + 2]) - pz;
        const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
        if (r < 1e-4) {
          ++skipped_pairs;
          continue;
        }
        v += double(atom[4 * n + 3]) / r;
      }
      ref[std::size_t(s)] = v;
    }
    double num2 = 0, den2 = 0;
    for (std::size_t s = 0; s < idx.size(); ++s) {
      const double d = double(map[idx[s]]) - ref[s];
      num2 += d * d, den2 += ref[s] * ref[s];
      max_abs = std::max(max_abs, std::fabs(d));
    }
    rel_rms = den2 > 0 ? std::sqrt(num2 / den2) : std::numeric_limits<double>::quiet_NaN();
  }

  std::string t = "[";
  for (std::size_t r = 0; r < times.size(); ++r) t += (r ? "," : "") + num(times[r]);
  t += "]";
  std::string w = "[";
  for (std::size_t r = 0; r < warm_ms.size(); ++r) w += (r ? "," : "") + num(warm_ms[r]);
  w += "]";
#ifdef MSMPOT_CUDA
  const bool cuda_short = o.cuda && msm->use_cuda_shortrng, cuda_latcut = o.cuda && msm->use_cuda_latcut;
#else
  const bool cuda_short = false, cuda_latcut = false;
#endif
  std::printf(
      "{\"peer\":\"vmd-msmpot\",\"atoms\":%d,\"points\":%zu,\"dims\":[%d,%d,%d],\"spacing\":%s,"
      "\"origin\":[%s,%s,%s],\"cuda\":%s,\"cuda_shortrng\":%s,\"cuda_latcut\":%s,"
      "\"msm\":{\"cutoff\":%s,\"h\":[%s,%s,%s],\"levels\":%d,\"interp\":\"%s\",\"split\":\"%s\"},"
      "\"warmup_ms\":%s,\"median_ms\":%s,\"min_ms\":%s,\"max_ms\":%s,\"times_ms\":%s,"
      "\"check_points\":%ld,\"rel_rms\":%s,\"max_abs_err\":%s,\"skipped_pairs\":%ld,"
      "\"differing_points\":%s,\"max_stable_diff\":%s,\"nonfinite_points\":%ld}\n",
      natoms, points, mx, my, mz, num(o.spacing, 17).c_str(), num(o.origin[0], 17).c_str(),
      num(o.origin[1], 17).c_str(), num(o.origin[2], 17).c_str(),
      o.cuda ? "true" : "false", cuda_short ? "true" : "false", cuda_latcut ? "true" : "false", num(msm->a).c_str(),
      num(msm->hx).c_str(), num(msm->hy).c_str(), num(msm->hz).c_str(), msm->nlevels,
      msm->interp == MSMPOT_INTERP_CUBIC ? "cubic" : "other", msm->split == MSMPOT_SPLIT_TAYLOR2 ? "taylor2" : "other",
      w.c_str(), num(median(times)).c_str(), num(*std::min_element(times.begin(), times.end())).c_str(),
      num(*std::max_element(times.begin(), times.end())).c_str(), t.c_str(), o.check,
      o.check > 0 ? num(rel_rms).c_str() : "null", o.check > 0 ? num(max_abs).c_str() : "null", skipped_pairs,
      differing >= 0 ? std::to_string(differing).c_str() : "null", o.stable ? num(max_diff).c_str() : "null",
      nonfinite);
  Msmpot_destroy(msm);
  return 0;
}
