#include "ppl/core/kokkos_session.hpp"

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "ppl/core/error.hpp"

#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

namespace ppl {

namespace {

bool starts_with(const std::string& s, const char* prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

// A whole non-negative decimal integer that fits an int (Kokkos parses with std::stoi and throws or aborts on
// anything else).
bool is_small_count(const std::string& v) {
  if (v.empty() || v.size() > 9) return false;
  for (char c : v)
    if (c < '0' || c > '9') return false;
  return true;
}

// The flags whose value Kokkos converts to an integer.
const char* const integer_flags[] = {"--kokkos-threads",   "--kokkos-num-threads", "--kokkos-numa",
                                     "--kokkos-device-id", "--kokkos-device",      "--kokkos-num-devices",
                                     "--kokkos-ndevices",  "--kokkos-skip-device"};

// libgomp reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, in a constructor that runs when the library is loaded,
// before main(), so setting them here would change nothing. Unset, a waiting libgomp thread spins for 300,000
// rounds (milliseconds) at every barrier and between parallel regions before it sleeps. When another process holds
// one of the cores, two of ppl's threads end up sharing a core, and the spinning one keeps the thread it waits for
// off the core: a 1,784-row BiCGSTAB iteration on 2 threads took 56 ms instead of 0.07 (docs/cli.md). A short spin
// costs at most its length per wait in that case, but a spin shorter than the ordinary gaps between parallel
// regions makes an idle run sleep and wake at each of them; the gaps grow with the thread count, and the idle runs
// measured kept their speed from about 625 rounds per thread on (at least 1,000). So when the user has set neither
// variable, the process starts itself again, once, with GOMP_SPINCOUNT = max(1000, 625 x threads): the same
// executable and the original arguments (from /proc, since a test or benchmark main may have consumed argv).
// Setting either variable, to any value, keeps the user's choice and skips this.
void bound_openmp_spinning() {
#if defined(KOKKOS_ENABLE_OPENMP) && defined(__linux__)
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  // Not under valgrind (its preload libraries are in LD_PRELOAD): there /proc/self/exe is the tool itself, and the
  // program started again would be the tool without its launcher, or run outside it.
  if (const char* preload = std::getenv("LD_PRELOAD"); preload && std::strstr(preload, "vgpreload")) return;
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string cmdline{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (cmdline.empty()) return;
  std::vector<std::string> args;
  for (std::size_t b = 0; b < cmdline.size();) {
    const std::size_t e = cmdline.find('\0', b);
    args.push_back(cmdline.substr(b, e - b));
    b = e == std::string::npos ? cmdline.size() : e + 1;
  }
  // The threads Kokkos will start: the flag, else what OpenMP would use (OMP_NUM_THREADS or the CPUs we may use).
  long threads = omp_get_max_threads();
  for (const auto& a : args)
    for (const char* f : {"--kokkos-threads=", "--kokkos-num-threads="})
      if (starts_with(a, f) && is_small_count(a.substr(std::strlen(f)))) threads = std::stol(a.substr(std::strlen(f)));
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  setenv("GOMP_SPINCOUNT", std::to_string(std::max(1000L, 625L * threads)).c_str(), 1);
  execv("/proc/self/exe", argv.data());
  unsetenv("GOMP_SPINCOUNT");  // exec failed: go on with libgomp's defaults, which are already in place
#endif
}

}  // namespace

std::string kokkos_flag_for_this_build(const std::string& flag) {
  const auto eq = flag.find('=');
  const std::string name = flag.substr(0, eq);
  for (const char* f : integer_flags) {
    if (name != f) continue;
    const std::string value = eq == std::string::npos ? "" : flag.substr(eq + 1);
    if (!is_small_count(value))
      throw input_error(name + ": expected a whole number (" + name + "=N), got '" + value + "'");
#if KOKKOS_VERSION >= 30700
    if (name == "--kokkos-threads") return "--kokkos-num-threads=" + value;
#else
    if (name == "--kokkos-num-threads") return "--kokkos-threads=" + value;
#endif
    return flag;
  }
  // Kokkos skips flags it does not know (3.4 silently): a misspelt one would quietly run with the defaults.
  static const char* const other_flags[] = {
      "--kokkos-help",           "--kokkos-disable-warnings", "--kokkos-print-configuration",
      "--kokkos-tune-internals", "--kokkos-tools-library",    "--kokkos-tools-libs",
      "--kokkos-tools-args",     "--kokkos-tools-help",       "--kokkos-map-device-id-by"};
  for (const char* f : other_flags)
    if (name == f) return flag;
  std::string known;
  for (const char* f : integer_flags) known += std::string(known.empty() ? "" : ", ") + f;
  for (const char* f : other_flags) known += std::string(", ") + f;
  throw input_error(name + ": unknown Kokkos flag; known: " + known);
}

kokkos_session::kokkos_session(int& argc, char** argv) {
  bound_openmp_spinning();
  std::vector<std::string> translated;
  int rest = 1;
  for (int i = 1; i < argc; ++i) {
    if (starts_with(argv[i], "--kokkos-")) {
      flags_.push_back(argv[i]);
      translated.push_back(kokkos_flag_for_this_build(argv[i]));
    } else {
      argv[rest++] = argv[i];
    }
  }
  argc = rest;
  argv[argc] = nullptr;
  // Kokkos warns when OMP_PROC_BIND is unset; libgomp has read its environment already, so "false" is what
  // applies anyway. Users who want pinned threads set OMP_PROC_BIND=spread OMP_PLACES=threads themselves.
  setenv("OMP_PROC_BIND", "false", 0);
  std::vector<char*> kargv{argv[0]};
  for (auto& f : translated) kargv.push_back(f.data());
  kargv.push_back(nullptr);
  int kargc = static_cast<int>(kargv.size()) - 1;
  Kokkos::initialize(kargc, kargv.data());
}

kokkos_session::~kokkos_session() {
  Kokkos::finalize();
}

}  // namespace ppl
