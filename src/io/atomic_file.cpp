// Outputs are written to "<path>.tmp.<pid>" and renamed over <path> only when complete and on disk (fsync of the
// file, then of its folder), so a crash, a full disk or a signal never leaves a half-written result under the real
// name. Temporary files in progress are listed in a fixed table that the SIGINT/SIGTERM/SIGHUP handler can read
// without allocating; it removes them and then lets the signal take its default course (at once, or, while a
// deferred_signals lives, when the last one goes away). SIGXFSZ (file size limit)
// is ignored so the write fails with EFBIG and takes the ordinary error path instead of killing the process.
// Inside an output_set the rename waits for commit(), and the temporary files stay listed until then.
#include "ppl/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <vector>

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

// Lists `path` in a free slot (nullptr when the table is full: the file is then only removed on ordinary errors).
pending_slot* list_pending(const std::string& path) {
  for (auto& s : pending) {
    bool expected = false;
    if (s.used.load() || path.size() >= max_path) continue;
    std::memcpy(s.path, path.c_str(), path.size() + 1);
    if (s.used.compare_exchange_strong(expected, true)) return &s;
  }
  return nullptr;
}

void unlist_pending(pending_slot* s) {
  if (s) s->used.store(false);
}

class pending_file {
 public:
  explicit pending_file(const std::string& path) : slot_(list_pending(path)) {}
  ~pending_file() { unlist_pending(slot_); }
  pending_file(const pending_file&) = delete;
  pending_file& operator=(const pending_file&) = delete;

 private:
  pending_slot* slot_ = nullptr;
};

// ---- an ostream onto a file descriptor, so the file can be fsync'ed and its close checked --------------------
// With gzip, what is written is deflated into one gzip member (zlib's gzip wrapper: windowBits 15 + 16) on its way
// to the descriptor; finish() writes the member's end.
class fd_buf final : public std::streambuf {
 public:
  fd_buf(int fd, bool gzip) : fd_(fd) {
    setp(in_.data(), in_.data() + in_.size());
    if (gzip) {
      zs_ = std::make_unique<z_stream>();
      std::memset(zs_.get(), 0, sizeof(z_stream));
      if (deflateInit2(zs_.get(), 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        zs_.reset();
        failed_ = true;
        errno_ = ENOMEM;
      }
    }
  }
  ~fd_buf() override {
    if (zs_) deflateEnd(zs_.get());
  }
  fd_buf(const fd_buf&) = delete;
  fd_buf& operator=(const fd_buf&) = delete;
  int error() const { return errno_; }
  std::uint64_t written() const { return written_; }
  bool finish() { return drain() && (!zs_ || deflate_chunk(nullptr, 0, Z_FINISH)); }

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
    if (failed_) return false;
    const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    const bool ok = zs_ ? deflate_chunk(pbase(), n, Z_NO_FLUSH) : write_all(pbase(), n);
    setp(in_.data(), in_.data() + in_.size());
    return ok;
  }
  bool write_all(const char* p, std::size_t n) {
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        errno_ = errno;
        failed_ = true;
        return false;
      }
      p += w, n -= static_cast<std::size_t>(w), written_ += static_cast<std::uint64_t>(w);
    }
    return true;
  }
  bool deflate_chunk(const char* p, std::size_t n, int flush) {
    zs_->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(p));
    zs_->avail_in = static_cast<uInt>(n);  // at most in_.size()
    for (;;) {
      zs_->next_out = reinterpret_cast<Bytef*>(out_.data());
      zs_->avail_out = static_cast<uInt>(out_.size());
      const int rc = deflate(zs_.get(), flush);
      const bool stuck = rc == Z_BUF_ERROR && flush == Z_FINISH && zs_->avail_out != 0;
      if (rc == Z_STREAM_ERROR || stuck) return failed_ = true, false;
      if (!write_all(out_.data(), out_.size() - zs_->avail_out)) return false;
      if (flush == Z_FINISH ? rc == Z_STREAM_END : zs_->avail_out != 0) return true;
    }
  }
  int fd_;
  int errno_ = 0;
  bool failed_ = false;
  std::uint64_t written_ = 0;
  std::unique_ptr<z_stream> zs_;
  std::array<char, 1 << 16> in_;
  std::array<char, 1 << 16> out_;
};

[[noreturn]] void fail(const std::string& path, const std::string& tmp, const std::string& what, int err) {
  ::unlink(tmp.c_str());
  throw error(exit_code::failure, path + ": " + what + (err ? std::string(": ") + std::strerror(err) : ""));
}

// Writes `fill` into `tmp` (created or truncated), synced and closed; the bytes written. On any failure `tmp` is
// removed and the error names `path`.
std::uint64_t write_temporary(const std::string& path, const std::string& tmp,
                              const std::function<void(std::ostream&)>& fill, output_compression compression) {
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw error(exit_code::failure, path + ": cannot create " + tmp + ": " + std::strerror(errno));
  std::uint64_t bytes = 0;
  {
    fd_buf buf(fd, compression == output_compression::gzip);
    std::ostream out(&buf);
    try {
      fill(out);
    } catch (...) {
      ::close(fd);
      ::unlink(tmp.c_str());
      throw;
    }
    out.flush();
    if (!out || !buf.finish() || buf.error()) {
      const int err = buf.error();
      ::close(fd);
      fail(path, tmp, "write failed", err);
    }
    bytes = buf.written();
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    fail(path, tmp, "fsync failed", err);
  }
  if (::close(fd) != 0) fail(path, tmp, "close failed", errno);
  return bytes;
}

// The rename itself is durable once the folder is synced; a folder that cannot be opened is no error here.
void sync_folder_of(const std::string& path) {
  const auto dir = std::filesystem::path(path).has_parent_path() ? std::filesystem::path(path).parent_path().string()
                                                                 : std::string(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

std::string temporary_name(const std::string& path) {
  return path + ".tmp." + std::to_string(::getpid());
}

}  // namespace

struct output_set::impl {
  struct file {
    std::string path, tmp;
    pending_slot* slot = nullptr;
    std::uint64_t bytes = 0;
    bool committed = false;
  };
  std::vector<file> files;
};

namespace {
thread_local output_set::impl* current_set = nullptr;
}  // namespace

bool gzip_name(const std::string& path) {
  return path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

output_compression compression_for(const std::string& path) {
  return gzip_name(path) ? output_compression::gzip : output_compression::none;
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  write_file_atomically(path, output_compression::none, fill);
}

void write_file_atomically(const std::string& path, output_compression compression,
                           const std::function<void(std::ostream&)>& fill) {
  if (path.empty() || path.find('\0') != std::string::npos)
    throw error(exit_code::failure, "output path is empty or contains a NUL byte");
  install_handlers_once();
  const std::string tmp = temporary_name(path);
  if (current_set) {
    auto& files = current_set->files;
    auto it = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.path == path; });
    if (it == files.end() || it->committed) {
      // Listed before it exists: a signal between open() and the listing leaves nothing.
      files.push_back({path, tmp, list_pending(tmp), 0, false});
      it = files.end() - 1;
    }
    try {
      it->bytes = write_temporary(path, tmp, fill, compression);
    } catch (...) {
      unlist_pending(it->slot);
      files.erase(it);
      throw;
    }
    return;
  }
  pending_file guard(tmp);  // listed before it exists: a signal between open() and the listing leaves nothing
  write_temporary(path, tmp, fill, compression);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail(path, tmp, "cannot rename " + tmp, errno);
  sync_folder_of(path);
}

output_set::output_set() : impl_(new impl) {
  if (current_set) throw std::logic_error("ppl::output_set: output sets do not nest");
  install_handlers_once();
  current_set = impl_.get();
}

output_set::~output_set() {
  for (auto& f : impl_->files)
    if (!f.committed) {
      ::unlink(f.tmp.c_str());
      unlist_pending(f.slot);
    }
  if (current_set == impl_.get()) current_set = nullptr;
}

void output_set::commit() {
  if (current_set == impl_.get()) current_set = nullptr;
  deferred_signals hold;  // every rename, or (a signal before the first) none
  for (auto& f : impl_->files) {
    if (f.committed) continue;
    if (std::rename(f.tmp.c_str(), f.path.c_str()) != 0) fail(f.path, f.tmp, "cannot rename " + f.tmp, errno);
    f.committed = true;
    unlist_pending(f.slot);
    f.slot = nullptr;
  }
  std::vector<std::string> synced;
  for (const auto& f : impl_->files) {
    const auto dir = std::filesystem::path(f.path).parent_path().string();
    if (std::find(synced.begin(), synced.end(), dir) != synced.end()) continue;
    synced.push_back(dir);
    sync_folder_of(f.path);
  }
}

std::uint64_t output_set::bytes(const std::string& path) const {
  for (const auto& f : impl_->files)
    if (f.path == path) return f.bytes;
  return 0;
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
