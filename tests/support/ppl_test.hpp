#pragma once
// Test support shared by every suite: per-process temporary folders, the repository's data folder, seeds, and the
// message of an expected exception. One copy of each; suites include this header instead of writing their own.
#include <gtest/gtest.h>

#include <Kokkos_Macros.hpp>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ppl_test {

// Whether this build has Kokkos CUDA (the registry's CUDA-only entries are runnable exactly then).
#if defined(KOKKOS_ENABLE_CUDA)
constexpr bool cuda_build = true;
#else
constexpr bool cuda_build = false;
#endif

// A new empty folder, unique to this process and test (pid + a counter), removed when the object goes away, so
// concurrent runs of one binary (ctest -j, the .threads1/.threads2 entries) never share files.
struct temp_dir {
  std::filesystem::path path;
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  std::string file(const std::string& name) const { return (path / name).string(); }
  // Writes `text` (binary-exact) to `name` in the folder and returns its path.
  std::string write(const std::string& name, const std::string& text) const;
  // Writes `text` gzip-compressed.
  std::string write_gz(const std::string& name, const std::string& text) const;
};

// Runs the rest of a scope in `dir` (outputs of a job are relative to the current folder); restores it after.
struct scoped_cwd {
  std::filesystem::path previous;
  explicit scoped_cwd(const std::filesystem::path& dir) : previous(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~scoped_cwd() { std::filesystem::current_path(previous); }
  scoped_cwd(const scoped_cwd&) = delete;
  scoped_cwd& operator=(const scoped_cwd&) = delete;
};

// <repository>/data/<relative>: from $PPL_DATA_DIR when set (CTest sets it), else found by walking up from the
// test executable to the folder that holds data/README.md. Never a path baked in at build time.
std::string data_path(const std::string& relative);

// The whole content of a plain or gzip-compressed file.
std::string read_file(const std::string& path);

// A JSON file (a job's summary) parsed.
nlohmann::json read_json(const std::string& path);

// Runs a shell command (a real reader: python3 with mrcfile, gemmi, griddataformats); its stdout, and its wait
// status in `status` (-1 when it could not be started).
std::string run_command(const std::string& cmd, int& status);

// Loads and runs the job file at `path` in this process; its exit code, its printed text in *output if given
// (support/job_runner.cpp: only the job layer's tests link it).
int run_job(const std::string& path, std::string* output = nullptr);

// The seed of this test run: fixed by default (the same inputs on every platform and run); PPL_TEST_SEED=<n> sets
// it, PPL_TEST_SEED=random draws one. It is printed with every failing test. `stream` derives independent seeds.
std::uint64_t seed(std::uint64_t stream = 0);
// Registers the listener that prints the seed on failure (tests/main.cpp calls it once).
void install_seed_reporter();

// The --kokkos-* flags the test binary was started with, as given (tests/main.cpp records them), so a test can
// check that Kokkos applied them.
void record_kokkos_flags(const std::vector<std::string>& flags);
const std::vector<std::string>& kokkos_flags();

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
