#pragma once
// One explicit name -> factory table per family. The name is the config value, the test parameter, the benchmark
// label and the Kokkos profiling region, so every trace and result row names its variant.
//
// Every entry is registered in every build. An entry that needs a backend this build lacks (a CUDA-only kernel in
// an OpenMP build) has no factory: `ppl strategies` lists it marked, and asking for it is an input error that names
// the build it needs. One naming rule: an entry needs a CUDA build exactly when its name ends in "_cuda" (and its
// backends are "cuda"), and likewise "_avx2" for host-SIMD kernels that need an x86-64 CPU with AVX2 and FMA (backends
// "host"); add() enforces both, so the name alone tells a user where a strategy runs.
#include <Kokkos_Macros.hpp>
#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/core/parameters.hpp"

// The factory of a CUDA-only entry: the factory in CUDA builds, none elsewhere (where it is not even declared).
#if defined(KOKKOS_ENABLE_CUDA)
#define PPL_CUDA_ONLY(factory) factory
#else
#define PPL_CUDA_ONLY(factory) nullptr
#endif

// Host-SIMD kernels (x86/ folders): compiled in host-only builds for x86-64 with GCC or Clang (function-level target
// attributes, no global -m flags), and offered only where the CPU has the instructions, which build_satisfies checks
// at run time.
#if !defined(KOKKOS_ENABLE_CUDA) && !defined(KOKKOS_ENABLE_HIP) && !defined(KOKKOS_ENABLE_SYCL) && \
    !defined(KOKKOS_ENABLE_OPENMPTARGET) && defined(__x86_64__) && defined(__GNUC__)
#define PPL_HAS_X86_SIMD 1
#define PPL_AVX2_ONLY(factory) (::ppl::build_satisfies(::ppl::build_requirement::avx2) ? (factory) : nullptr)
#else
#define PPL_AVX2_ONLY(factory) nullptr
#endif

namespace ppl {

enum class build_requirement { none, cuda, avx2 };

bool build_satisfies(build_requirement r);          // src/core/registry.cpp
std::string requirement_text(build_requirement r);  // "a CUDA build", ...
std::string build_backends_text();                  // this build's Kokkos backends, e.g. "OpenMP, Serial"

// Check: the type of an entry's optional configuration-time check (the sparse families: a check of the matrix,
// `matrix_check`, include/ppl/sparse/csr.hpp), run when a job is read so that `ppl validate` rejects what a run would.
template <class Factory, class Check = std::function<void()>>
class registry {
 public:
  struct entry {
    std::string name;
    std::string description;
    std::string backends;  // e.g. "host", "all", "cuda"
    Factory factory;       // empty when this build cannot run the entry
    build_requirement needs = build_requirement::none;
    // What the entry can do, in the family's terms (potential: the interaction kinds it supports); empty: no
    // family-specific capabilities. Tests iterate entry x capability.
    std::vector<std::string> capabilities = {};
    // The entry's declared parameters (parameters.hpp): the config check, `ppl strategies --parameters` and the
    // tests that run every declared value come from it.
    parameter_space parameters = {};
    // An optional configuration-time check (empty: none); it throws input_error for a problem the entry cannot
    // take, e.g. a preconditioner's first row without a usable diagonal.
    Check check = {};
    bool available() const { return static_cast<bool>(factory); }

    // Built by named fields: registry<F>::entry::named("x").with_description("...").with_backends("all")...
    static entry named(std::string n) {
      entry e;
      e.name = std::move(n);
      return e;
    }
    entry& with_description(std::string d) {
      description = std::move(d);
      return *this;
    }
    entry& with_backends(std::string b) {
      backends = std::move(b);
      return *this;
    }
    entry& with_factory(Factory f) {
      factory = std::move(f);
      return *this;
    }
    entry& with_needs(build_requirement r) {
      needs = r;
      return *this;
    }
    entry& with_capabilities(std::vector<std::string> c) {
      capabilities = std::move(c);
      return *this;
    }
    entry& with_parameters(parameter_space p) {
      parameters = std::move(p);
      return *this;
    }
    entry& with_check(Check c) {
      check = std::move(c);
      return *this;
    }
    bool can(const std::string& capability) const {
      return std::find(capabilities.begin(), capabilities.end(), capability) != capabilities.end();
    }
  };

  explicit registry(std::string family) : family_(std::move(family)) {}

  void add(entry e) {
    auto fail = [&](const std::string& why) { throw error(exit_code::failure, family_ + " '" + e.name + "': " + why); };
    if (lookup(e.name) != nullptr) fail("duplicate name");
    const auto ends_in = [&](const std::string& tail) {
      return e.name.size() > tail.size() && e.name.compare(e.name.size() - tail.size(), tail.size(), tail) == 0;
    };
    const bool cuda_name = ends_in("_cuda"), avx2_name = ends_in("_avx2");
    if (cuda_name != (e.needs == build_requirement::cuda) || cuda_name != (e.backends == "cuda"))
      fail("a name ends in _cuda exactly when the entry needs a CUDA build and its backends are \"cuda\"");
    if (avx2_name != (e.needs == build_requirement::avx2) || (avx2_name && e.backends != "host"))
      fail("a name ends in _avx2 exactly when the entry needs AVX2 and FMA, and its backends are \"host\"");
    if (e.available() != build_satisfies(e.needs))
      fail(e.available() ? "has a factory in a build that cannot run it" : "has no factory");
    entries_.push_back(std::move(e));
  }

  // Any registered entry, runnable here or not.
  const entry* lookup(const std::string& name) const {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const entry& e) { return e.name == name; });
    return it == entries_.end() ? nullptr : &*it;
  }

  // An entry this build can run, or nullptr.
  const entry* find(const std::string& name) const {
    const entry* e = lookup(name);
    return e != nullptr && e->available() ? e : nullptr;
  }

  // An entry this build can run; otherwise an input_error that says which build has it, or lists what this build has.
  const entry& get(const std::string& name, const std::string& where) const {
    const entry* e = lookup(name);
    if (e == nullptr)
      throw input_error(where + ": unknown " + family_ + " '" + name + "'; available in this build: " + names_joined());
    if (!e->available())
      throw input_error(where + ": " + family_ + " '" + name + "' needs " + requirement_text(e->needs) +
                        " (this build: " + build_backends_text() + ")");
    return *e;
  }

  // The names this build can run, in registration order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : entries_)
      if (e.available()) out.push_back(e.name);
    return out;
  }

  std::string names_joined() const {
    std::string out;
    for (const auto& name : names()) out += (out.empty() ? "" : ", ") + name;
    return out;
  }

  // Every registered entry, including those this build cannot run.
  const std::vector<entry>& entries() const { return entries_; }
  const std::string& family() const { return family_; }

 private:
  std::string family_;
  std::vector<entry> entries_;
};

}  // namespace ppl
