// The files a job names: inputs resolved beside the job file (or the current folder for --set values), outputs
// checked before any work, and the rule that no output may overwrite an input, the job file or another output.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>

#include "config_state.hpp"
#include "ppl/core/error.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/jobs/config.hpp"

namespace ppl {

namespace fs = std::filesystem;

namespace {

std::string canonical_of(const std::string& path) {
  std::error_code ec;
  const auto absolute = fs::absolute(path, ec);
  if (ec) return fs::path(path).lexically_normal().string();
  const auto c = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal().string() : c.string();
}

const char* role_name(file_role r) {
  switch (r) {
    case file_role::job:
      return "the job file";
    case file_role::input:
      return "an input";
    case file_role::output:
      return "another output";
  }
  return "";
}

bool same_file(const std::string& a_canonical, const std::string& b_canonical) {
  if (a_canonical == b_canonical) return true;
  std::error_code ec;
  return fs::equivalent(a_canonical, b_canonical, ec);  // hard links; false when either does not exist
}

}  // namespace

void config_node::state::record_file(const std::string& path, file_role role, const std::string& where,
                                     const std::string& key) {
  const std::string c = canonical_of(path);
  for (const auto& f : files) {
    if (role != file_role::output && f.role != file_role::output) continue;  // reading one file twice is fine
    if (!same_file(c, f.canonical)) continue;
    // Reported at the output's key, whichever of the two was read first.
    if (role == file_role::output)
      throw input_error(where + ": '" + key + "' would overwrite " + role_name(f.role) + " '" + f.shown + "'" +
                        (f.key.empty() ? "" : " (" + f.key + ")"));
    throw input_error(f.where + ": '" + f.key + "' would overwrite " + role_name(role) + " '" + path + "'" +
                      (key.empty() ? "" : " (" + key + ")"));
  }
  files.push_back(file{c, path, role, where, key});
}

std::string config_node::input_file(const std::string& key) const {
  const fs::path p(get<std::string>(key));
  const std::string path = p.is_absolute() ? p.string() : (fs::path(folder_of(key)) / p).lexically_normal().string();
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (ec || !fs::exists(st) || ::access(path.c_str(), R_OK) != 0)
    throw input_error(where(key) + ": '" + key_path(key) + "': cannot open '" + path + "'");
  if (!fs::is_regular_file(st))
    throw input_error(where(key) + ": '" + key_path(key) + "': '" + path + "' is not a regular file");
  state_->record_file(path, file_role::input, where(key), key_path(key));
  return path;
}

// Suffixes of compressed files: a name ending in one promises a format that only ".gz" on a map delivers.
static const char* compression_of(const std::string& path) {
  static const std::pair<const char*, const char*> suffixes[] = {
      {".gz", "gzip"}, {".tgz", "gzip"}, {".bz2", "bzip2"}, {".xz", "xz"},      {".lzma", "lzma"}, {".zst", "zstd"},
      {".lz4", "lz4"}, {".zip", "zip"},  {".7z", "7z"},     {".Z", "compress"}, {".br", "brotli"}, {".lz", "lzip"}};
  for (const auto& [suffix, name] : suffixes) {
    const std::size_t n = std::char_traits<char>::length(suffix);
    if (path.size() > n && path.compare(path.size() - n, n, suffix) == 0) return name;
  }
  return nullptr;
}

void config_node::reserve_output(const std::string& path, const std::string& where, const std::string& key) const {
  state_->record_file(path, file_role::output, where, key);
}

std::string config_node::output_file(const std::string& key, const std::vector<std::string>& sidecars,
                                     bool may_gzip) const {
  const std::string path = get<std::string>(key);
  for (const auto& p : [&] {
         std::vector<std::string> all{path};
         all.insert(all.end(), sidecars.begin(), sidecars.end());
         return all;
       }()) {
    const std::string at = where(key), name = "'" + key_path(key) + "'";
    if (p.empty()) throw input_error(at + ": " + name + " is empty");
    for (unsigned char ch : p)
      if (ch < 0x20 || ch == 0x7f) throw input_error(at + ": " + name + " contains a control character");
    if (const char* packed = compression_of(p); p == path && packed && !(may_gzip && gzip_name(p)))
      throw input_error(at + ": " + name + ": '" + p + "' names a " + packed + " file; ppl writes " +
                        (may_gzip ? "this output plain or gzip-compressed (.gz)"
                                  : "this output uncompressed (.gz is written for the maps only: OpenDX, MRC, raw)"));
    for (const auto& part : fs::path(p))
      if (part.native().size() > 255)
        throw input_error(at + ": " + name + ": a file or folder name longer than 255 bytes");
    // The file is written as "<name>.tmp.<pid>" first, which must fit NAME_MAX (255) too.
    if (const auto file = fs::path(p).filename().native(); file.size() + temporary_suffix_max > 255)
      throw input_error(at + ": " + name + ": a file name of " + std::to_string(file.size()) + " bytes" +
                        (p == path ? "" : " (the file written beside it)") + "; at most " +
                        std::to_string(255 - temporary_suffix_max) + " (ppl writes '<name>.tmp.<pid>' first)");
    std::error_code ec;
    const auto st = fs::symlink_status(p, ec);
    if (fs::is_directory(fs::status(p, ec))) throw input_error(at + ": " + name + ": '" + p + "' is a folder");
    if (fs::exists(st) && !fs::is_regular_file(fs::status(p, ec)))
      throw input_error(at + ": " + name + ": '" + p + "' exists and is not a regular file");
    const std::string c = canonical_of(p);
    for (const std::string special : {"/proc", "/sys", "/dev"})
      if (c.rfind(special + "/", 0) == 0)
        throw input_error(at + ": " + name + ": '" + p + "' is under " + special + " (not a place for results)");
    check_writable(p, at);
    state_->record_file(p, file_role::output, at, key_path(key));
  }
  return path;
}

}  // namespace ppl
