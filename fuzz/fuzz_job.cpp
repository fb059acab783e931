// libFuzzer harness: the job check behind `ppl validate` (ppl::load_job: YAML, keys, types, ranges, strategy
// parameters, input files, output paths) on arbitrary job text. Input layout: the job file, optionally followed by
// a NUL byte and `--set` overrides, one per line. The job sits in a per-process folder next to small valid inputs
// (atoms.pqr, A.mtx, b.mtx, x0.mtx), so relative input paths resolve and the file readers run too.
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ppl/jobs/config.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_session.hpp"
#include "ppl/jobs/job.hpp"

namespace {

namespace fs = std::filesystem;

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

fs::path make_folder() {
  const fs::path dir = fs::temp_directory_path() / ("ppl-fuzz-job." + std::to_string(::getpid()));
  fs::create_directories(dir);
  write_text(dir / "atoms.pqr",
             "ATOM      1  N   MET A   1      -0.500   1.000   0.250 -0.3000 1.8500\n"
             "ATOM      2  CA  MET A   1       0.900   1.200  -0.100  0.2100 2.0000\n");
  write_text(dir / "A.mtx",
             "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 4\n1 2 -1\n2 2 4\n3 2 -1\n3 3 4\n");
  const std::string vector = "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n";
  write_text(dir / "b.mtx", vector);
  write_text(dir / "x0.mtx", vector);
  return dir;
}

// `ppl validate` generates synthetic inputs: up to 1e8 random atoms or a water box of 1e9 A^3 are valid and cost
// gigabytes and seconds, so inputs asking for more than 1e5 atoms are skipped (the limits are corpus cases).
// A misspelt 'input' key is read as 'input' by the job (the misspelling is reported at the end), so the structured
// check below can miss it: any text that mentions a generator and holds a number that large is skipped too.
bool mentions_a_large_generator(const std::string& text) {
  const bool water = text.find("water") != std::string::npos, random = text.find("random") != std::string::npos;
  if (!water && !random) return false;
  const double limit = water ? 144.0 : 1e5;  // 144^3 A^3 ~ 3e6 A^3
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) continue;
    char* end = nullptr;
    const double v = std::strtod(text.c_str() + i, &end);
    if (!(v <= limit)) return true;
    i = std::size_t(end - text.c_str());
  }
  return false;
}

bool asks_for_many_atoms(const std::string& text, const std::vector<std::string>& overrides) {
  std::string all = text;
  for (const auto& o : overrides) all += "\n" + o;
  if (mentions_a_large_generator(all)) return true;
  try {
    auto root = ppl::config_node::from_string(text, "job.yaml");
    for (const auto& o : overrides) root.apply_override(o);
    const auto in = root.find("input");
    if (!in || !in->is_map()) return false;
    if (const auto r = in->find("random"); r && r->is_map())
      if (const auto n = r->find("atoms")) return !(n->as<double>() <= 1e5);
    if (const auto w = in->find("water_box"); w && w->is_map())
      if (const auto s = w->find("size")) {
        double volume = 1;
        for (double side : s->as<std::vector<double>>()) volume *= std::abs(side);
        return !(volume <= 3e6);  // 0.1 atoms per A^3 (NaN counts as many)
      }
  } catch (const ppl::error&) {
  }
  return false;
}

// `job: ions` builds its mask of allowed points when it is read (2 bytes per lattice point and a kernel over a cube
// of points per atom), so `ppl validate` of a large lattice costs memory and time like a run: lattices of more than
// 1e6 points, or around the atoms with a spacing below 0.25 A or a padding above 50 A, are skipped for ion jobs.
bool asks_for_a_large_ion_mask(const std::string& text, const std::vector<std::string>& overrides) {
  std::string all = text;
  for (const auto& o : overrides) all += "\n" + o;
  if (all.find("ions") == std::string::npos) return false;
  try {
    auto root = ppl::config_node::from_string(text, "job.yaml");
    for (const auto& o : overrides) root.apply_override(o);
    const auto l = root.find("lattice");
    if (!l || !l->is_map()) return false;
    if (const auto d = l->find("dims")) {
      double points = 1;
      for (double n : d->as<std::vector<double>>()) points *= std::abs(n);
      return !(points <= 1e6);
    }
    if (const auto h = l->find("spacing"); h && !(h->as<double>() >= 0.25)) return true;
    if (const auto p = l->find("padding"); p && !(p->as<double>() <= 50)) return true;
  } catch (const ppl::error&) {
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // One Kokkos start for the process (strategy factories may create Views), one thread. Never finalized: libFuzzer
  // leaves through exit() from several places, and the session stays reachable, so it is not a leak either.
  static char name[] = "fuzz_job", threads[] = "--kokkos-threads=1";
  static char* argv[] = {name, threads, nullptr};
  static int argc = 2;
  static const auto* session = new ppl::kokkos_session(argc, argv);
  (void)session;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fs::path dir = make_folder();
  static const std::string job = (dir / "job.yaml").string();
  const std::string input(reinterpret_cast<const char*>(data), size);
  const auto nul = input.find('\0');
  const std::string text = input.substr(0, nul);
  std::vector<std::string> overrides;
  if (nul != std::string::npos) {
    std::string rest = input.substr(nul + 1);
    for (std::size_t start = 0; start <= rest.size();) {
      const auto end = std::min(rest.find('\n', start), rest.size());
      overrides.push_back(rest.substr(start, end - start));
      start = end + 1;
    }
  }
  if (asks_for_many_atoms(text, overrides) || asks_for_a_large_ion_mask(text, overrides)) return 0;
  write_text(job, text);
  try {
    ppl::load_job(job, overrides);
  } catch (const ppl::input_error&) {
  }
  return 0;
}
