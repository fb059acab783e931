// Outputs are written to "<path>.tmp.<pid>" and renamed over <path> only when complete and on disk (fsync of the
// file, then of its folder), so a crash, a full disk or a signal never leaves a half-written result under the real
// name. Temporary files in progress are listed in a fixed table that the SIGINT/SIGTERM/SIGHUP handler can read
// without allocating; it removes them and then lets the signal take its default course (at once, or, while a
// deferred_signals lives, when the last one goes away). SIGXFSZ (file size limit)
// is ignored so the write fails with EFBIG and takes the ordinary error path instead of killing the process.
#include "ppl/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <ostream>
#include <streambuf>

#include "ppl/core/error.hpp"
#include "ppl/io/removed_on_signal.hpp"

namespace ppl {

namespace {

// ---- temporary files the signal handler removes --------------------------------------------------------------
constexpr std::size_t max_pending = 16;
constexpr std::size_t max_path = 4096;
struct pending_slot {
  std::atomic<bool> used{false};
  char path[max_path];
};
std::array<pending_slot, max_pending> pending;

// deferred_signals: how many are alive, and the first signal that arrived meanwhile (0: none).
std::atomic<int> deferring{0};
std::atomic<int> deferred_signal{0};

extern "C" void remove_pending_and_reraise(int sig) {
  if (deferring.load() > 0) {
    int none = 0;
    deferred_signal.compare_exchange_strong(none, sig);
    return;
  }
  for (auto& s : pending)
    if (s.used.load()) ::unlink(s.path);  // async-signal-safe
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction sa {};
      sa.sa_handler = remove_pending_and_reraise;
      sigemptyset(&sa.sa_mask);
      struct sigaction old {};
      // Leave a signal alone when the user's environment ignores it (nohup).
      if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      sigaction(sig, &sa, nullptr);
    }
    std::signal(SIGXFSZ, SIG_IGN);
  });
}

class pending_file {
 public:
  explicit pending_file(const std::string& path) {
    for (auto& s : pending) {
      bool expected = false;
      if (s.used.load() || path.size() >= max_path) continue;
      std::memcpy(s.path, path.c_str(), path.size() + 1);
      if (s.used.compare_exchange_strong(expected, true)) {
        slot_ = &s;
        return;
      }
    }
  }
  ~pending_file() {
    if (slot_) slot_->used.store(false);
  }
  pending_file(const pending_file&) = delete;
  pending_file& operator=(const pending_file&) = delete;

 private:
  pending_slot* slot_ = nullptr;
};

// ---- an ostream onto a file descriptor, so the file can be fsync'ed and its close checked --------------------
class fd_buf final : public std::streambuf {
 public:
  explicit fd_buf(int fd) : fd_(fd) { setp(buf_.data(), buf_.data() + buf_.size()); }
  int error() const { return errno_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    while (p < pptr()) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0) {
        if (errno == EINTR) continue;
        errno_ = errno;
        return false;
      }
      p += n;
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return true;
  }
  int fd_;
  int errno_ = 0;
  std::array<char, 1 << 16> buf_;
};

[[noreturn]] void fail(const std::string& path, const std::string& tmp, const std::string& what, int err) {
  ::unlink(tmp.c_str());
  throw error(exit_code::failure, path + ": " + what + (err ? std::string(": ") + std::strerror(err) : ""));
}

}  // namespace

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  if (path.empty() || path.find('\0') != std::string::npos)
    throw error(exit_code::failure, "output path is empty or contains a NUL byte");
  install_handlers_once();
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  pending_file guard(tmp);  // listed before it exists: a signal between open() and the listing leaves nothing
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw error(exit_code::failure, path + ": cannot create " + tmp + ": " + std::strerror(errno));
  {
    fd_buf buf(fd);
    std::ostream out(&buf);
    try {
      fill(out);
    } catch (...) {
      ::close(fd);
      ::unlink(tmp.c_str());
      throw;
    }
    out.flush();
    if (!out || buf.error()) {
      const int err = buf.error();
      ::close(fd);
      fail(path, tmp, "write failed", err);
    }
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    fail(path, tmp, "fsync failed", err);
  }
  if (::close(fd) != 0) fail(path, tmp, "close failed", errno);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail(path, tmp, "cannot rename " + tmp, errno);
  // The rename itself is durable once the folder is synced; a folder that cannot be opened is no error here.
  const auto dir = std::filesystem::path(path).has_parent_path() ? std::filesystem::path(path).parent_path().string()
                                                                 : std::string(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

deferred_signals::deferred_signals() {
  install_handlers_once();
  deferring.fetch_add(1);
}

deferred_signals::~deferred_signals() {
  if (deferring.fetch_sub(1) == 1) {
    const int sig = deferred_signal.exchange(0);
    if (sig != 0) remove_pending_and_reraise(sig);
  }
}

removed_on_signal::removed_on_signal(const std::string& path) : slot_(new pending_file(path)) {
  install_handlers_once();
}

removed_on_signal::~removed_on_signal() {
  delete static_cast<pending_file*>(slot_);
}

void check_writable(const std::string& path, const std::string& where) {
  namespace fs = std::filesystem;
  fs::path p(path);
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw input_error(where + ": output folder '" + dir.string() + "' does not exist (for '" + path + "')");
  if (::access(dir.c_str(), W_OK) != 0)
    throw input_error(where + ": output folder '" + dir.string() + "' is not writable (for '" + path + "')");
}

}  // namespace ppl
