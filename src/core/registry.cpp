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
    case build_requirement::none:
      break;
  }
  return true;
}

std::string requirement_text(build_requirement r) {
  return r == build_requirement::cuda ? "a CUDA build" : "nothing";
}

std::string build_backends_text() {
  std::string out;
  for (const auto& b : build_backends()) out += (out.empty() ? "" : ", ") + b;
  return out;
}

}  // namespace ppl
