#pragma once
// One explicit name -> factory table per family. The name is the config value, the test parameter, the benchmark
// label and the Kokkos profiling region, so every trace and result row names its variant.
#include <algorithm>
#include <string>
#include <vector>

#include "ppl/core/error.hpp"

namespace ppl {

template <class Factory>
class registry {
 public:
  struct entry {
    std::string name;
    std::string description;
    std::string backends;  // e.g. "host", "all", "cuda"
    Factory factory;
  };

  explicit registry(std::string family) : family_(std::move(family)) {}

  void add(entry e) {
    if (find(e.name) != nullptr) throw error(exit_code::failure, family_ + ": duplicate strategy name '" + e.name + "'");
    entries_.push_back(std::move(e));
  }

  const entry* find(const std::string& name) const {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const entry& e) { return e.name == name; });
    return it == entries_.end() ? nullptr : &*it;
  }

  // Throws an input_error that lists what is available in this build.
  const entry& get(const std::string& name, const std::string& where) const {
    if (const entry* e = find(name)) return *e;
    throw input_error(where + ": unknown " + family_ + " '" + name + "'; available in this build: " + names_joined());
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) out.push_back(e.name);
    return out;
  }

  std::string names_joined() const {
    std::string out;
    for (const auto& e : entries_) out += (out.empty() ? "" : ", ") + e.name;
    return out;
  }

  const std::vector<entry>& entries() const { return entries_; }
  const std::string& family() const { return family_; }

 private:
  std::string family_;
  std::vector<entry> entries_;
};

}  // namespace ppl
