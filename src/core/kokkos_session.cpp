#include "ppl/core/kokkos_session.hpp"

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <cstring>

#include "ppl/core/error.hpp"

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
  return flag;
}

kokkos_session::kokkos_session(int& argc, char** argv) {
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
