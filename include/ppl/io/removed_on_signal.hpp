#pragma once
// A file removed by the signal handler of atomic_file.hpp (which removes temporary outputs on SIGINT, SIGTERM and
// SIGHUP before the signal takes its course). Implemented in src/io/atomic_file.cpp beside that handler.
#include <string>

namespace ppl {

// While one of these lives, the handler that removes temporary files on SIGINT, SIGTERM and SIGHUP removes `path`
// too: a file that must not outlive its process (a sweep's lock file). It does not remove the file otherwise.
class removed_on_signal {
 public:
  explicit removed_on_signal(const std::string& path);
  ~removed_on_signal();
  removed_on_signal(const removed_on_signal&) = delete;
  removed_on_signal& operator=(const removed_on_signal&) = delete;

 private:
  void* slot_;
};

}  // namespace ppl
