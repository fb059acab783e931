// ppl_dump_atoms: writes the atoms of ppl's water_box generator as raw float32 x, y, z, q records (16 bytes per
// atom, little-endian, no header), the input of perf/peers/msmpot/driver.cu, so that a peer program sees the very
// atoms a ppl job with `input: {water_box: {size: [SX, SY, SZ], seed: SEED}}` computes on.
//
//   ppl_dump_atoms SX SY SZ SEED OUT.xyzq
//
// (PQR files go through perf/peers/msmpot/pqr_to_xyzq.py, which also places ppl's lattice around the atoms.)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "ppl/io/atoms.hpp"

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s SX SY SZ SEED OUT.xyzq  (ppl's water_box, float32 x y z q per atom)\n", argv[0]);
    return 2;
  }
  try {
    const ppl::atoms a = ppl::water_box(std::atof(argv[1]), std::atof(argv[2]), std::atof(argv[3]),
                                        std::uint64_t(std::strtoull(argv[4], nullptr, 10)));
    std::vector<float> rec(4 * a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      rec[4 * i] = float(a.x[i]), rec[4 * i + 1] = float(a.y[i]), rec[4 * i + 2] = float(a.z[i]),
      rec[4 * i + 3] = float(a.q[i]);
    std::FILE* f = std::fopen(argv[5], "wb");
    if (!f || std::fwrite(rec.data(), sizeof(float), rec.size(), f) != rec.size() || std::fclose(f) != 0) {
      std::fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[5]);
      return 1;
    }
    double q = 0;
    for (double v : a.q) q += v;
    std::printf("{\"source\":\"%s\",\"atoms\":%zu,\"net_charge\":%.6g,\"file\":\"%s\"}\n", a.source.c_str(), a.size(),
                q, argv[5]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  return 0;
}
