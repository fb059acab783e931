#include "ppl/io/text_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "ppl/core/error.hpp"

namespace ppl {

namespace {
constexpr std::size_t chunk = 1 << 18;
// One text line may be long (a Matrix Market comment block, a minified file) but not unbounded: a line above
// this is not a line of any format ppl reads, and reading it whole would let one input allocate without limit.
constexpr std::size_t max_line = std::size_t(1) << 20;

bool is_text_byte(unsigned char c) {
  return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
}  // namespace

// The file through a descriptor; gzip data (found by its magic bytes, not the name) through zlib's inflate one
// member after another, as gzip -d reads it. zlib's gzread would stop quietly at anything after a member that is
// not another member, so appended plain text would read as a shorter, valid-looking file.
struct text_reader::gz {
  int fd = -1;
  bool gzip = false;
  bool raw_eof = false;
  bool member_done = false;
  int members = 0;
  z_stream zs{};
  bool zs_ready = false;
  std::vector<unsigned char> in;  // raw bytes read, [in_pos, in.size()) not consumed yet (plain files)

  ~gz() {
    if (zs_ready) inflateEnd(&zs);
    if (fd >= 0) ::close(fd);
  }
  // Reads more raw bytes (false at the end of the file).
  bool read_raw(const std::string& path) {
    in.resize(chunk);
    for (;;) {
      const ssize_t n = ::read(fd, in.data(), in.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw input_error(path + ": read error: " + std::strerror(errno));
      in.resize(static_cast<std::size_t>(n));
      if (n == 0) raw_eof = true;
      return n > 0;
    }
  }
};

text_reader::text_reader(const std::string& path, const std::string& what) : gz_(new gz), path_(path) {
  struct stat st {};
  if (path.find('\0') != std::string::npos || ::stat(path.c_str(), &st) != 0)
    throw input_error(path + ": cannot open " + what + ": " + std::strerror(errno ? errno : ENOENT));
  if (S_ISDIR(st.st_mode)) throw input_error(path + ": cannot open " + what + ": is a folder");
  gz_->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (gz_->fd < 0) throw input_error(path + ": cannot open " + what + ": " + std::strerror(errno ? errno : EIO));
  gz_->read_raw(path_);
  // A file shorter than the first read of a gzip magic is plain text (or empty).
  gz_->gzip = gz_->in.size() >= 2 && gz_->in[0] == 0x1f && gz_->in[1] == 0x8b;
  if (gz_->gzip) {
    if (inflateInit2(&gz_->zs, 15 + 16) != Z_OK) throw input_error(path + ": cannot start zlib");
    gz_->zs_ready = true;
    gz_->zs.next_in = gz_->in.data();
    gz_->zs.avail_in = static_cast<uInt>(gz_->in.size());
    gz_->members = 1;
  }
}

text_reader::~text_reader() = default;

std::string text_reader::where() const {
  return path_ + ":" + std::to_string(line_no_ > 0 ? line_no_ : 1);
}

void text_reader::fail(const std::string& what) const {
  throw input_error(where() + ": " + what);
}

// Up to `cap` bytes of text into `out`; 0 at the end of the file.
std::size_t text_reader::produce(char* out, std::size_t cap) {
  gz& g = *gz_;
  if (!g.gzip) {
    if (g.in.empty() && !g.raw_eof) g.read_raw(path_);
    const std::size_t n = std::min(cap, g.in.size());
    std::memcpy(out, g.in.data(), n);
    g.in.erase(g.in.begin(), g.in.begin() + std::ptrdiff_t(n));
    return n;
  }
  z_stream& zs = g.zs;
  zs.next_out = reinterpret_cast<Bytef*>(out);
  zs.avail_out = static_cast<uInt>(cap);
  while (zs.avail_out > 0) {
    if (zs.avail_in == 0 && !g.raw_eof && g.read_raw(path_)) {
      zs.next_in = g.in.data();
      zs.avail_in = static_cast<uInt>(g.in.size());
    }
    if (g.member_done) {
      if (zs.avail_in == 0 && g.raw_eof) break;  // the end of the last member is the end of the file
      inflateReset(&zs);                         // another member follows, as in `cat a.gz b.gz`
      g.member_done = false;
      ++g.members;
    }
    const int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      g.member_done = true;
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && !(zs.avail_in == 0 && g.raw_eof)) continue;  // more input or room needed
    if (rc == Z_BUF_ERROR) throw input_error(path_ + ": read error: unexpected end of file (truncated gzip data)");
    if (rc == Z_DATA_ERROR && g.members > 1 && zs.total_out == 0) {
      // Not a gzip member where one could start: data gzip -d would also skip ("trailing garbage ignored").
      std::int64_t line = line_no_ + 1;
      const std::size_t upto = std::size_t(out - buf_.data()) + (cap - zs.avail_out);  // `out` lies in buf_
      for (std::size_t k = 0; k < upto; ++k) line += buf_[k] == '\n';
      throw input_error(path_ + ":" + std::to_string(line) + ": data after the end of gzip member " +
                        std::to_string(g.members - 1) +
                        " is not gzip data (it would be dropped); compress the whole file again");
    }
    throw input_error(path_ + ": read error: " + (zs.msg ? zs.msg : "zlib error " + std::to_string(rc)) +
                      " (corrupt or truncated gzip data)");
  }
  return cap - zs.avail_out;
}

bool text_reader::fill() {
  if (eof_) return false;
  buf_.erase(0, pos_);
  pos_ = 0;
  const std::size_t old = buf_.size();
  buf_.resize(old + chunk);
  const std::size_t n = produce(&buf_[old], chunk);
  buf_.resize(old + n);
  if (n == 0) eof_ = true;
  for (std::size_t i = old; i < buf_.size(); ++i) {
    if (!is_text_byte(static_cast<unsigned char>(buf_[i]))) {
      // Count the lines up to the bad byte so the message points at it.
      std::int64_t line = line_no_ + 1;
      for (std::size_t k = 0; k < i; ++k) line += buf_[k] == '\n';
      throw input_error(path_ + ":" + std::to_string(line) + ": not a text file (byte 0x" +
                        [](unsigned c) {
                          const char* hex = "0123456789abcdef";
                          return std::string{hex[c >> 4], hex[c & 15]};
                        }(static_cast<unsigned char>(buf_[i])) +
                        "); expected plain or gzip-compressed text");
    }
  }
  return n > 0;
}

bool text_reader::next(std::string& line) {
  for (;;) {
    // Line ends: "\n", "\r\n" and a lone "\r" (old Mac files; read as one long line they would lose records).
    const auto nl = buf_.find_first_of("\r\n", pos_);
    if (nl != std::string::npos && (buf_[nl] == '\n' || nl + 1 < buf_.size() || eof_)) {
      line.assign(buf_, pos_, nl - pos_);
      pos_ = nl + 1 + (buf_[nl] == '\r' && nl + 1 < buf_.size() && buf_[nl + 1] == '\n');
      break;
    }
    if (buf_.size() - pos_ > max_line)
      throw input_error(path_ + ":" + std::to_string(line_no_ + 1) + ": line longer than " + std::to_string(max_line) +
                        " bytes");
    if (!fill()) {
      if (pos_ >= buf_.size()) return false;
      line.assign(buf_, pos_, std::string::npos);  // last line without '\n'
      pos_ = buf_.size();
      break;
    }
  }
  ++line_no_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

bool text_reader::next_data(std::string& line, char comment) {
  while (next(line)) {
    const auto p = line.find_first_not_of(" \t\f\v");
    if (p != std::string::npos && line[p] != comment) return true;
  }
  return false;
}

}  // namespace ppl
