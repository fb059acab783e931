// What registries need to know about this build (include/ppl/core/registry.hpp).
#include "ppl/core/registry.hpp"

#include "ppl/core/system_info.hpp"

namespace ppl {

bool build_satisfies(build_requirement r) {
  switch (r) {
    case build_requirement::cuda:
#if defined(KOKKOS_ENABLE_CUDA)
      return true;
#else
      return false;
#endif
    case build_requirement::avx2:
#if defined(PPL_HAS_X86_SIMD)
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
      return false;
#endif
    case build_requirement::none:
      break;
  }
  return true;
}

std::string requirement_text(build_requirement r) {
  switch (r) {
    case build_requirement::cuda:
      return "a CUDA build";
    case build_requirement::avx2:
      return "a host (OpenMP or Serial) build on an x86-64 CPU with AVX2 and FMA";
    case build_requirement::none:
      break;
  }
  return "nothing";
}

std::string build_backends_text() {
  std::string out;
  for (const auto& b : build_backends()) out += (out.empty() ? "" : ", ") + b;
  return out;
}

}  // namespace ppl
