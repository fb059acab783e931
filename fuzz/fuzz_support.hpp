#pragma once
// Shared by the libFuzzer harnesses: the readers take a path, so each input is written to one in-memory file
// (memfd) per process and read back through /proc/self/fd/N. An exception other than ppl::input_error escapes the
// harness, which libFuzzer reports as a crash: for the bad-input contract it is one (ppl would exit 1, not 2).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace ppl_fuzz {

class scratch_file {
 public:
  scratch_file() : fd_(memfd_create("ppl-fuzz", 0)) {
    if (fd_ < 0) std::abort();
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  // Replaces the file's content with `data`; returns its path.
  const std::string& write(const std::uint8_t* data, std::size_t size) {
    if (ftruncate(fd_, 0) != 0) std::abort();
    for (std::size_t done = 0; done < size;) {
      const ssize_t n = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
    return path_;
  }

 private:
  int fd_;
  std::string path_;
};

}  // namespace ppl_fuzz
