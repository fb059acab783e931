// Atomic output files: complete or absent, never a temporary left beside them, whatever stops the write (an
// exception, SIGTERM/SIGINT/SIGHUP, the file size limit). The signal cases run in a forked child.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>

#include "ppl/core/error.hpp"
#include "ppl/io/atomic_file.hpp"
#include "support/ppl_test.hpp"

namespace {

namespace fs = std::filesystem;

std::size_t entries(const fs::path& dir) {
  return std::distance(fs::directory_iterator(dir), {});
}

// Runs `body` in a child process; returns its wait status.
template <class F>
int in_child(F&& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(atomic_file, writes_the_whole_file_and_nothing_else) {
  ppl_test::temp_dir t;
  ppl::write_file_atomically(t.file("out.txt"), [](std::ostream& o) { o << std::string(200000, 'x') << "end\n"; });
  EXPECT_EQ(ppl_test::read_file(t.file("out.txt")).size(), 200004u);
  EXPECT_EQ(entries(t.path), 1u);
}

TEST(atomic_file, a_failing_fill_leaves_the_old_file_and_no_debris) {
  ppl_test::temp_dir t;
  const auto path = t.write("out.txt", "old\n");
  EXPECT_THROW(ppl::write_file_atomically(path,
                                          [](std::ostream& o) {
                                            o << std::string(100000, 'y');
                                            throw std::runtime_error("stop");
                                          }),
               std::runtime_error);
  EXPECT_EQ(ppl_test::read_file(path), "old\n");
  EXPECT_EQ(entries(t.path), 1u);
}

TEST(atomic_file, a_signal_during_the_write_removes_the_temporary_file) {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    ppl_test::temp_dir t;
    const auto path = t.write("out.txt", "old\n");
    const int status = in_child([&] {
      ppl::write_file_atomically(path, [&](std::ostream& o) {
        o << std::string(1 << 20, 'z');
        o.flush();
        std::raise(sig);
      });
    });
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig << ": status " << status;
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_EQ(ppl_test::read_file(path), "old\n") << "signal " << sig;
    EXPECT_EQ(entries(t.path), 1u) << "signal " << sig << ": a temporary file was left";
  }
}

TEST(atomic_file, the_file_size_limit_is_an_error_not_a_kill) {
  ppl_test::temp_dir t;
  const auto path = t.file("big.bin");
  const int status = in_child([&] {
    const rlimit lim{1 << 16, 1 << 16};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    try {
      ppl::write_file_atomically(path, [](std::ostream& o) { o << std::string(1 << 20, 'b'); });
    } catch (const ppl::error& e) {
      ::_exit(e.code() == ppl::exit_code::failure ? 7 : 8);
    }
  });
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_EQ(entries(t.path), 0u);
}

TEST(atomic_file, a_path_with_a_nul_byte_is_refused) {
  ppl_test::temp_dir t;
  const std::string path = t.file("a") + std::string(1, '\0') + "b";
  EXPECT_THROW(ppl::write_file_atomically(path, [](std::ostream& o) { o << "x"; }), ppl::error);
  EXPECT_EQ(entries(t.path), 0u);
}

}  // namespace
