#pragma once
// Helpers shared by the potential I/O tests: a fresh temporary folder per test and small file writers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ppl_test {

// A new empty folder under the system temp folder, removed when the object goes away.
struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("ppl_io_") + info->test_suite_name() + "_" + info->name();
    for (auto& c : name)
      if (c == '/') c = '_';
    path = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~temp_dir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name), std::ios::binary) << text;
    return file(name);
  }
};

// The message of the exception `f` throws as T ("" and a test failure if it throws nothing or something else).
template <class T, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const T& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception type: " << e.what();
    return "";
  }
  ADD_FAILURE() << "no exception thrown";
  return "";
}

}  // namespace ppl_test
