#include "ppl/io/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "ppl/core/error.hpp"

namespace ppl {

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill, bool binary) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, binary ? std::ios::binary | std::ios::out : std::ios::out);
    if (!out) throw error(exit_code::failure, path + ": cannot create " + tmp + ": " + std::strerror(errno));
    try {
      fill(out);
    } catch (...) {
      out.close();
      std::remove(tmp.c_str());
      throw;
    }
    out.flush();
    if (!out) {
      out.close();
      std::remove(tmp.c_str());
      throw error(exit_code::failure, path + ": write failed (disk full?)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw error(exit_code::failure, path + ": cannot rename " + tmp + ": " + why);
  }
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
