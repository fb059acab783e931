#pragma once
// Output files are written to a temporary name beside the target, synced to disk and renamed on success, so a
// failed or interrupted run (SIGINT, SIGTERM, SIGHUP, a full disk, a file size limit) never leaves a half-written
// result under the real name nor a temporary file beside it.
//
// The outputs of one job belong together: while an output_set lives, write_file_atomically (on that thread) only
// stages each file under its temporary name, and commit() renames them all into place at once, so a job that fails
// or is interrupted after its first output leaves every old file as it was and no temporary file.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

namespace ppl {

enum class output_compression { none, gzip };

// The temporary name is "<path>.tmp.<pid>": the longest suffix it adds to a file name (a pid has at most 7
// digits: Linux's pid_max is at most 4194304), which a file name must leave room for below NAME_MAX.
constexpr std::size_t temporary_suffix_max = 12;  // ".tmp." + 7 digits

// True when the name ends in ".gz": the writers of maps (OpenDX, MRC, raw) then compress through zlib.
bool gzip_name(const std::string& path);
// gzip for a ".gz" name, else none.
output_compression compression_for(const std::string& path);

// Writes through `fill`; throws ppl::error(exit_code::failure) naming the path on any I/O failure.
// Bytes are written as given (no text-mode translation on POSIX); with output_compression::gzip they are
// compressed into one gzip member (zlib, level 6, what gzip(1) does by default).
void write_file_atomically(const std::string& path, output_compression compression,
                           const std::function<void(std::ostream&)>& fill);
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill);

// The files of one job, committed together. Constructed before the first write; every write_file_atomically on
// this thread until commit() (or the set's end) is staged: written, synced and kept under its temporary name.
// commit() renames them into place in the order they were written, with SIGINT/SIGTERM/SIGHUP held meanwhile;
// a set that ends without commit() (an exception) removes its temporary files. Sets do not nest.
class output_set {
 public:
  output_set();
  ~output_set();
  output_set(const output_set&) = delete;
  output_set& operator=(const output_set&) = delete;

  void commit();
  // The bytes written to a staged or committed file (compressed bytes for a gzip file); 0 when it is unknown.
  std::uint64_t bytes(const std::string& path) const;

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

// While one of these lives, SIGINT, SIGTERM and SIGHUP are held: the first to arrive takes its course (temporary
// files removed, the signal's default action) when the last one goes away. Held around writes that belong together
// (a sweep's record and its CSV view), so an interruption lands between whole records, never inside one.
class deferred_signals {
 public:
  deferred_signals();
  ~deferred_signals();
  deferred_signals(const deferred_signals&) = delete;
  deferred_signals& operator=(const deferred_signals&) = delete;
};

// Checks before the work starts that `path` can be written (its folder exists and is writable).
void check_writable(const std::string& path, const std::string& where);

}  // namespace ppl
