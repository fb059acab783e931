#include "support/ppl_test.hpp"

#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>


namespace ppl_test {

namespace fs = std::filesystem;

temp_dir::temp_dir() {
  static std::atomic<int> counter{0};
  std::string name = "ppl_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info())
    name += std::string("_") + info->test_suite_name() + "_" + info->name();
  for (auto& c : name)
    if (c == '/') c = '_';
  path = fs::temp_directory_path() / name;
  fs::remove_all(path);
  fs::create_directories(path);
}

temp_dir::~temp_dir() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

std::string temp_dir::write(const std::string& name, const std::string& text) const {
  std::ofstream(file(name), std::ios::binary) << text;
  return file(name);
}

std::string temp_dir::write_gz(const std::string& name, const std::string& text) const {
  gzFile f = gzopen(file(name).c_str(), "wb9");
  if (!f || gzwrite(f, text.data(), static_cast<unsigned>(text.size())) != static_cast<int>(text.size()))
    throw std::runtime_error("cannot write " + file(name));
  gzclose(f);
  return file(name);
}

namespace {
fs::path find_data_dir() {
  if (const char* env = std::getenv("PPL_DATA_DIR"); env && *env) return env;
  std::error_code ec;
  for (fs::path p = fs::read_symlink("/proc/self/exe", ec).parent_path(); !p.empty() && p != p.root_path();
       p = p.parent_path())
    if (fs::exists(p / "data" / "README.md") && fs::exists(p / "include" / "ppl")) return p / "data";
  throw std::runtime_error("cannot find the repository's data/ folder: set PPL_DATA_DIR");
}
}  // namespace

std::string data_path(const std::string& relative) {
  static const fs::path dir = find_data_dir();
  return (dir / relative).string();
}

std::string read_file(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::string out;
  char buf[1 << 16];
  for (int n; (n = gzread(f, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

namespace {
std::uint64_t base_seed() {
  static const std::uint64_t s = [] {
    const char* env = std::getenv("PPL_TEST_SEED");
    if (!env || !*env) return std::uint64_t{20261130};
    if (std::string(env) == "random") return std::uint64_t{std::random_device{}()} << 32 | std::random_device{}();
    return std::uint64_t{std::strtoull(env, nullptr, 10)};
  }();
  return s;
}

struct seed_reporter : ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (info.result()->Failed())
      std::cerr << "[ seed ] " << info.test_suite_name() << "." << info.name()
                << " ran with PPL_TEST_SEED=" << base_seed() << "\n";
  }
};
}  // namespace

std::uint64_t seed(std::uint64_t stream) {
  // splitmix64 of (base, stream): independent streams from one printed number.
  std::uint64_t z = base_seed() + 0x9e3779b97f4a7c15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void install_seed_reporter() {
  ::testing::UnitTest::GetInstance()->listeners().Append(new seed_reporter);
}

namespace {
std::vector<std::string>& recorded_kokkos_flags() {
  static std::vector<std::string> flags;
  return flags;
}
}  // namespace

void record_kokkos_flags(const std::vector<std::string>& flags) {
  recorded_kokkos_flags() = flags;
}
const std::vector<std::string>& kokkos_flags() {
  return recorded_kokkos_flags();
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::string run_command(const std::string& cmd, int& status) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    status = -1;
    return out;
  }
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  status = pclose(p);
  return out;
}

}  // namespace ppl_test
