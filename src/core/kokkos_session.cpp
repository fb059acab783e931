#include "ppl/core/kokkos_session.hpp"

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <regex>
#include <sstream>

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

// The value of a thread-count variable's first (outermost) level, as libgomp reads OMP_NUM_THREADS ("600,4": 600),
// or -1 when unset or empty.
long env_thread_count(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return -1;
  std::string s(v);
  s = s.substr(0, s.find(','));
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  if (s.empty()) return -1;
  errno = 0;
  char* end = nullptr;
  const long n = std::strtol(s.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE || n < 0) return -2;  // not a count
  return n;
}

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
  // The threads Kokkos will start: the flag, else what OpenMP would use (OMP_NUM_THREADS or the CPUs we may use),
  // at most the backend's limit (check_host_threads() has refused more, or capped the CPUs).
  long threads = std::min<long>(omp_get_max_threads(), kokkos_max_host_threads);
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

std::string check_host_threads(const std::vector<std::string>& kokkos_flags) {
  long flag = -1;
  std::string flag_name;
  for (const auto& f : kokkos_flags)
    for (const char* name : {"--kokkos-threads", "--kokkos-num-threads"}) {
      const std::string prefix = std::string(name) + "=";
      if (starts_with(f, prefix.c_str()) && is_small_count(f.substr(prefix.size()))) {
        flag = std::stol(f.substr(prefix.size()));
        flag_name = name;
      }
    }
  auto refuse = [](const std::string& what, long n) {
    throw input_error(what + ": " + std::to_string(n) + " threads is more than Kokkos' OpenMP backend holds (" +
                      std::to_string(kokkos_max_host_threads) +
                      ", a fixed array of per-thread data); ask for at most " +
                      std::to_string(kokkos_max_host_threads));
  };
  const long kokkos_env = env_thread_count("KOKKOS_NUM_THREADS");
  if (kokkos_env == -2)
    throw input_error(std::string("KOKKOS_NUM_THREADS='") + std::getenv("KOKKOS_NUM_THREADS") +
                      "': expected a whole number of threads");
#if defined(KOKKOS_ENABLE_OPENMP)
  if (flag > kokkos_max_host_threads) refuse(flag_name, flag);
  if (kokkos_env > kokkos_max_host_threads) refuse("KOKKOS_NUM_THREADS", kokkos_env);
  if (flag >= 0 || kokkos_env >= 0) return "";  // Kokkos takes the count asked for
  if (env_thread_count("OMP_NUM_THREADS") > kokkos_max_host_threads)
    refuse("OMP_NUM_THREADS", env_thread_count("OMP_NUM_THREADS"));
  // Nothing asked: Kokkos takes every CPU the process may use, which on a machine of more than the limit would
  // overrun the array as well. The limit is then the count.
  if (omp_get_max_threads() > kokkos_max_host_threads)
    return kokkos_flag_for_this_build("--kokkos-threads=" + std::to_string(kokkos_max_host_threads));
#else
  (void)refuse;
#endif
  return "";
}

kokkos_session::kokkos_session(int& argc, char** argv, process_restart restart) {
  // The flags first: a malformed value or a thread count Kokkos cannot hold is refused before the program starts
  // itself again, and before Kokkos starts.
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
  if (auto cap = check_host_threads(flags_); !cap.empty()) translated.push_back(cap);
  if (restart == process_restart::allowed) bound_openmp_spinning();
  // Kokkos warns when OMP_PROC_BIND is unset; libgomp has read its environment already, so "false" is what
  // applies anyway. Users who want pinned threads set OMP_PROC_BIND=spread OMP_PLACES=threads themselves.
  setenv("OMP_PROC_BIND", "false", 0);
  std::vector<char*> kargv{argv[0]};
  for (auto& f : translated) kargv.push_back(f.data());
  kargv.push_back(nullptr);
  int kargc = static_cast<int>(kargv.size()) - 1;
  Kokkos::initialize(kargc, kargv.data());
}

std::string one_line_failure(const std::exception& e) {
  const std::string what = e.what();
  auto unit = [](const std::string& u) { return u == "B" ? std::string("bytes") : u + "iB"; };
  std::smatch m;
  // Kokkos 3.4 (its failure report, then "Traceback functionality not available" on lines of their own).
  static const std::regex kokkos3(
      "Kokkos failed to allocate memory for label \"([^\"]*)\"\\.\\s+Allocation using MemorySpace named "
      "\"([^\"]*)\"[^:]*:\\s+Allocation of size ([0-9.e+]+) ([BKMGT])");
  // Kokkos 4.x: one line already.
  static const std::regex kokkos4(
      "Kokkos ERROR: (\\S+) memory space failed to allocate ([0-9.e+]+) ([BKMGT])\\S* \\(label=\"([^\"]*)\"\\)");
  if (std::regex_search(what, m, kokkos3))
    return "out of memory: Kokkos could not allocate " + m[3].str() + " " + unit(m[4].str()) + " for '" + m[1].str() +
           "' (" + m[2].str() + " memory)";
  if (std::regex_search(what, m, kokkos4))
    return "out of memory: Kokkos could not allocate " + m[2].str() + " " + unit(m[3].str()) + " for '" + m[4].str() +
           "' (" + m[1].str() + " memory)";
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return "out of memory (" + what + ")";
  // Anything else on one line: its lines joined, without Kokkos 3.4's note that it has no traceback.
  std::istringstream lines(what);
  std::string out;
  for (std::string l; std::getline(lines, l);) {
    l.erase(0, l.find_first_not_of(" \t\r"));
    l.erase(l.find_last_not_of(" \t\r") + 1);
    if (l.empty() || l == "Traceback functionality not available") continue;
    out += (out.empty() ? "" : " ") + l;
  }
  return out.empty() ? what : out;
}

kokkos_session::~kokkos_session() {
  Kokkos::finalize();
}

}  // namespace ppl
