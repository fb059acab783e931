#pragma once
// Line-by-line reading of text inputs (PQR, Matrix Market), plain or gzip-compressed (found by content, read with
// zlib's inflate), so `atoms.pqr.gz` and `A.mtx.gz` work wherever the plain names do. Every gzip member is read, as
// gzip -d does (`cat a.gz b.gz` is a and b); data after a member that is not another member is an input error
// naming file:line, not dropped. A file that is not text
// (a NUL or another control byte: a tarball, an xz/bzip2 archive, an executable) is an input error naming
// file:line, so a binary never reads as an empty molecule or matrix.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ppl {

class text_reader {
 public:
  // Throws input_error "<path>: cannot open <what>" when the file cannot be opened (or is a folder).
  text_reader(const std::string& path, const std::string& what);
  ~text_reader();
  text_reader(const text_reader&) = delete;
  text_reader& operator=(const text_reader&) = delete;

  // The next line without its '\n' (and '\r'); false at the end of the file.
  bool next(std::string& line);
  // The next line that is neither blank nor starts (after blanks) with `comment`.
  bool next_data(std::string& line, char comment);

  std::int64_t line_number() const { return line_no_; }
  const std::string& path() const { return path_; }
  // "<path>:<line>" of the line read last (line 1 before any).
  std::string where() const;
  [[noreturn]] void fail(const std::string& what) const;  // input_error "<path>:<line>: <what>"

 private:
  bool fill();
  std::size_t produce(char* out, std::size_t cap);
  struct gz;
  std::unique_ptr<gz> gz_;
  std::string path_;
  std::string buf_;
  std::size_t pos_ = 0;
  bool eof_ = false;
  std::int64_t line_no_ = 0;
};

}  // namespace ppl
