#include "ppl/core/system_info.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <ctime>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <typeinfo>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace ppl {

bool default_space_is_gpu() {
#if defined(KOKKOS_ENABLE_CUDA)
  return std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>;
#else
  return false;
#endif
}

std::vector<std::string> build_backends() {
  std::vector<std::string> out;
#if defined(KOKKOS_ENABLE_CUDA)
  out.push_back("Cuda");
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  out.push_back("OpenMP");
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  out.push_back("Serial");
#endif
  return out;
}

std::string kokkos_version() {
  return fmt::format("{}.{}.{}", KOKKOS_VERSION / 10000, (KOKKOS_VERSION / 100) % 100, KOKKOS_VERSION % 100);
}

std::string utc_timestamp() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

#if defined(KOKKOS_ENABLE_CUDA)
namespace {

// cudaGetDeviceProperties fills every field, some by slow driver queries (about a millisecond): a plan that checks
// the device's memory per trajectory frame would pay it per frame. The properties of a device do not change.
bool cached_device_properties(int dev, cudaDeviceProp& out) {
  static std::mutex m;
  static std::map<int, cudaDeviceProp> cache;
  const std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(dev);
  if (it == cache.end()) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) return false;
    it = cache.emplace(dev, p).first;
  }
  out = it->second;
  return true;
}

}  // namespace
#endif

system_info query_system_info() {
  system_info s;
  s.ppl_version = PPL_VERSION;
  if (const char* r = build_git_revision()) s.git_revision = r;
  s.build_type = build_type();
  s.kokkos_version = kokkos_version();
  s.backends = build_backends();
  s.default_execution_space = Kokkos::DefaultExecutionSpace::name();
  // Through an instance: concurrency() is static in 3.x and a member in 4.x without its deprecated code.
  s.concurrency = Kokkos::DefaultExecutionSpace().concurrency();
  s.host_threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  s.device_name = "host";
#if defined(__clang__)
  s.compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
  s.compiler = fmt::format("g++ {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) == cudaSuccess && cached_device_properties(dev, prop)) {
    s.device_name = prop.name;
    s.device_memory_gib = static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
    s.multiprocessors = prop.multiProcessorCount;
    s.compute_capability = prop.major * 10 + prop.minor;
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess) s.clock_ghz = khz * 1e-6;
  }
  s.compiler += fmt::format(" + nvcc {}.{}", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__);
#endif
  return s;
}

std::string to_text(const system_info& s) {
  std::string backends;
  for (const auto& b : s.backends) backends += (backends.empty() ? "" : ", ") + b;
  std::string out = fmt::format(
      "ppl {} ({}, {})\nKokkos {}\nbackends: {}\ndefault execution space: {}\nconcurrency: {} (host threads: {})\n"
      "device: {}\n",
      s.ppl_version, s.git_revision.value_or("revision unknown"), s.build_type, s.kokkos_version, backends,
      s.default_execution_space, s.concurrency, s.host_threads, s.device_name);
  if (s.multiprocessors > 0)
    out += fmt::format("device memory: {:.1f} GiB\nmultiprocessors: {}\nSM clock: {}\ncompute capability: {}.{}\n",
                       s.device_memory_gib, s.multiprocessors,
                       s.clock_ghz > 0 ? fmt::format("{:.3f} GHz", s.clock_ghz) : "unknown", s.compute_capability / 10,
                       s.compute_capability % 10);
  out += fmt::format("compiler: {}\n", s.compiler);
  return out;
}

namespace {

// A device property: null when unknown (0), never a 0 that reads as measured.
template <class T>
nlohmann::ordered_json known(T v) {
  return v > 0 ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json header(const system_info& s, const std::string& job, const std::string& job_file) {
  using json = nlohmann::ordered_json;
  json j;
  j["schema"] = summary_schema;
  j["job"] = job;
  j["job_file"] = job_file.empty() ? json(nullptr) : json(job_file);
  j["ppl"] = {{"version", s.ppl_version}, {"git_revision", s.git_revision ? json(*s.git_revision) : json(nullptr)}};
  j["timestamp"] = utc_timestamp();
  j["build"] = {{"compiler", s.compiler.empty() ? json(nullptr) : json(s.compiler)},
                {"build_type", s.build_type.empty() ? json(nullptr) : json(s.build_type)},
                {"kokkos_version", s.kokkos_version},
                {"backends", s.backends}};
  j["backend"] = {
      {"execution_space", s.default_execution_space}, {"concurrency", s.concurrency}, {"host_threads", s.host_threads}};
  j["device"] = {{"name", s.device_name},
                 {"gpu", default_space_is_gpu()},
                 {"memory_gib", known(s.device_memory_gib)},
                 {"multiprocessors", known(s.multiprocessors)},
                 {"clock_ghz", known(s.clock_ghz)},
                 {"compute_capability", known(s.compute_capability)}};
  return j;
}

}  // namespace

std::string summary_header_json(const system_info& s, const std::string& job, const std::string& job_file) {
  return header(s, job, job_file).dump();
}

std::string to_json(const system_info& s, const std::string& output) {
  auto j = header(s, "info", "");
  j["outputs"] = nlohmann::ordered_json::array();
  if (!output.empty())
    j["outputs"].push_back({{"path", output}, {"format", "json"}, {"bytes", nullptr}, {"write_s", nullptr}});
  return j.dump(2);
}

}  // namespace ppl
