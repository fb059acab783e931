#include "ppl/io/text_reader.hpp"

#include <sys/stat.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "ppl/core/error.hpp"

namespace ppl {

struct text_reader::gz {
  gzFile f = nullptr;
};

namespace {
constexpr std::size_t chunk = 1 << 18;
// One text line may be long (a Matrix Market comment block, a minified file) but not unbounded: a line above
// this is not a line of any format ppl reads, and reading it whole would let one input allocate without limit.
constexpr std::size_t max_line = std::size_t(1) << 20;

bool is_text_byte(unsigned char c) {
  return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
}  // namespace

text_reader::text_reader(const std::string& path, const std::string& what) : gz_(new gz), path_(path) {
  struct stat st {};
  if (path.find('\0') != std::string::npos || ::stat(path.c_str(), &st) != 0)
    throw input_error(path + ": cannot open " + what + ": " + std::strerror(errno ? errno : ENOENT));
  if (S_ISDIR(st.st_mode)) throw input_error(path + ": cannot open " + what + ": is a folder");
  gz_->f = gzopen(path.c_str(), "rb");
  if (!gz_->f) throw input_error(path + ": cannot open " + what + ": " + std::strerror(errno ? errno : EIO));
  gzbuffer(gz_->f, chunk);
}

text_reader::~text_reader() {
  if (gz_ && gz_->f) gzclose(gz_->f);
}

std::string text_reader::where() const {
  return path_ + ":" + std::to_string(line_no_ > 0 ? line_no_ : 1);
}

void text_reader::fail(const std::string& what) const {
  throw input_error(where() + ": " + what);
}

bool text_reader::fill() {
  if (eof_) return false;
  buf_.erase(0, pos_);
  pos_ = 0;
  const std::size_t old = buf_.size();
  buf_.resize(old + chunk);
  const int n = gzread(gz_->f, &buf_[old], static_cast<unsigned>(chunk));
  if (n < 0) {
    int errnum = 0;
    const char* msg = gzerror(gz_->f, &errnum);
    throw input_error(path_ + ": read error: " + (msg ? msg : "unknown") +
                      (errnum == Z_DATA_ERROR ? " (corrupt or truncated gzip data)" : ""));
  }
  buf_.resize(old + static_cast<std::size_t>(n));
  if (n == 0) {
    // gzread ends a gzip stream cut short (lost trailer, cut at a line end) like a complete one and leaves
    // Z_BUF_ERROR behind: without this check a truncated .gz reads as a shorter, valid-looking file.
    int errnum = Z_OK;
    gzerror(gz_->f, &errnum);
    if (errnum == Z_BUF_ERROR) throw input_error(path_ + ": read error: unexpected end of file (truncated gzip data)");
    eof_ = true;
  }
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
