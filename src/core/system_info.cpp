#include "ppl/core/system_info.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
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

system_info query_system_info() {
  system_info s;
  s.ppl_version = PPL_VERSION;
  s.kokkos_version =
      fmt::format("{}.{}.{}", KOKKOS_VERSION / 10000, (KOKKOS_VERSION / 100) % 100, KOKKOS_VERSION % 100);
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
  if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&prop, dev) == cudaSuccess) {
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
      "ppl {}\nKokkos {}\nbackends: {}\ndefault execution space: {}\nconcurrency: {} (host threads: {})\n"
      "device: {}\n",
      s.ppl_version, s.kokkos_version, backends, s.default_execution_space, s.concurrency, s.host_threads,
      s.device_name);
  if (s.multiprocessors > 0)
    out += fmt::format(
        "device memory: {:.1f} GiB\nmultiprocessors: {}\nSM clock: {:.3f} GHz\ncompute capability: {}.{}\n",
        s.device_memory_gib, s.multiprocessors, s.clock_ghz, s.compute_capability / 10, s.compute_capability % 10);
  out += fmt::format("compiler: {}\n", s.compiler);
  return out;
}

std::string to_json(const system_info& s) {
  nlohmann::json j = {{"ppl_version", s.ppl_version},
                      {"kokkos_version", s.kokkos_version},
                      {"backends", s.backends},
                      {"default_execution_space", s.default_execution_space},
                      {"concurrency", s.concurrency},
                      {"host_threads", s.host_threads},
                      {"device_name", s.device_name},
                      {"device_memory_gib", s.device_memory_gib},
                      {"multiprocessors", s.multiprocessors},
                      {"clock_ghz", s.clock_ghz},
                      {"compute_capability", s.compute_capability},
                      {"compiler", s.compiler}};
  return j.dump(2);
}

}  // namespace ppl
