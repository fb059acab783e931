// GoogleTest main for ppl: Kokkos is started once for the whole binary with the --kokkos-* flags
// (ppl::kokkos_session, as the `ppl` command does); the seed in use is printed when a test fails, and a crash
// prints the stack (function names: the test binaries export their symbols) before the signal takes its course.
#include <dlfcn.h>
#include <execinfo.h>
#include <gtest/gtest.h>
#include <ucontext.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>

#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_session.hpp"
#include "support/ppl_test.hpp"

namespace {

// Where the faulting instruction was and, when it is a call through a null pointer (pc 0, no frame to unwind), the
// function that made the call (the return address on top of the stack).
void print_place(const char* what, void* address) {
  Dl_info info{};
  std::fprintf(stderr, "test main: %s %p", what, address);
  if (address != nullptr && dladdr(address, &info) != 0 && info.dli_sname != nullptr)
    std::fprintf(stderr, " in %s", info.dli_sname);
  std::fprintf(stderr, "\n");
}

void print_stack_and_reraise(int sig, siginfo_t* si, void* context) {
  print_place("fault address", si->si_addr);
#if defined(__x86_64__) && defined(REG_RIP)
  const auto* uc = static_cast<const ucontext_t*>(context);
  print_place("pc", reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]));
  print_place("return address", *reinterpret_cast<void* const*>(uc->uc_mcontext.gregs[REG_RSP]));
#else
  (void)context;
#endif
  void* frames[64];
  const int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, STDERR_FILENO);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

int main(int argc, char** argv) {
  struct sigaction on_crash {};
  on_crash.sa_sigaction = print_stack_and_reraise;
  on_crash.sa_flags = SA_SIGINFO;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &on_crash, nullptr);
  ::testing::InitGoogleTest(&argc, argv);
  try {
    ppl::kokkos_session kokkos(argc, argv);
    ppl_test::record_kokkos_flags(kokkos.kokkos_flags());
    ppl_test::install_seed_reporter();
    return RUN_ALL_TESTS();
  } catch (const ppl::error& e) {
    std::cerr << "test main: " << e.what() << "\n";
    return 2;
  }
}
