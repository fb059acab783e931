// Atomic output files: complete or absent, never a temporary left beside them, whatever stops the write (an
// exception, SIGTERM/SIGINT/SIGHUP, the file size limit). The signal cases run in a forked child.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
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

// Every gzip member of `packed` inflated with zlib directly (not through ppl's reader): what gzip -d gives.
std::string gunzip(const std::string& packed) {
  std::string out;
  z_stream zs{};
  EXPECT_EQ(inflateInit2(&zs, 15 + 16), Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
  zs.avail_in = static_cast<uInt>(packed.size());
  char buf[1 << 14];
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_STREAM_END && zs.avail_in == 0) break;
    if (rc == Z_STREAM_END) {
      inflateReset(&zs);
      continue;
    }
    if (rc != Z_OK) {
      ADD_FAILURE() << "inflate: " << rc;
      break;
    }
  }
  inflateEnd(&zs);
  return out;
}

std::string raw_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(atomic_file, gzip_output_is_one_gzip_member_of_the_bytes_written) {
  ppl_test::temp_dir t;
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i * 7919 % 100003) + (i % 3 == 2 ? "\n" : " ");
  const auto path = t.file("out.txt.gz");
  ppl::write_file_atomically(path, ppl::output_compression::gzip, [&](std::ostream& o) { o << text; });
  const std::string packed = raw_bytes(path);
  ASSERT_GE(packed.size(), 18u);
  EXPECT_EQ((unsigned char)packed[0], 0x1f);
  EXPECT_EQ((unsigned char)packed[1], 0x8b);
  EXPECT_LT(packed.size(), text.size() / 2);
  EXPECT_EQ(gunzip(packed), text);
  EXPECT_EQ(entries(t.path), 1u);
  // And what Python's gzip module (the one gridData and mrcfile use) makes of it.
  int status = 0;
  ppl_test::run_command("/usr/bin/python3 -c 'import gzip' 2>/dev/null", status);
  if (status == 0) {
    const auto n = ppl_test::run_command(
        "/usr/bin/python3 -c 'import gzip,sys; print(len(gzip.open(sys.argv[1]).read()))' " + path, status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(n, std::to_string(text.size()) + "\n");
  }
}

TEST(atomic_file, gzip_of_nothing_is_a_valid_empty_member) {
  ppl_test::temp_dir t;
  const auto path = t.file("empty.gz");
  ppl::write_file_atomically(path, ppl::output_compression::gzip, [](std::ostream&) {});
  EXPECT_EQ(gunzip(raw_bytes(path)), "");
}

TEST(output_set, files_appear_only_at_commit_and_all_together) {
  ppl_test::temp_dir t;
  const auto a = t.write("a.txt", "old a\n"), b = t.file("b.txt");
  ppl::output_set set;
  ppl::write_file_atomically(a, [](std::ostream& o) { o << "new a\n"; });
  ppl::write_file_atomically(b, [](std::ostream& o) { o << "new b\n"; });
  EXPECT_EQ(ppl_test::read_file(a), "old a\n");
  EXPECT_FALSE(fs::exists(b));
  EXPECT_EQ(set.bytes(a), 6u);
  set.commit();
  EXPECT_EQ(ppl_test::read_file(a), "new a\n");
  EXPECT_EQ(ppl_test::read_file(b), "new b\n");
  EXPECT_EQ(entries(t.path), 2u);
}

TEST(output_set, a_failure_in_the_second_output_leaves_the_first_old_file_and_no_debris) {
  ppl_test::temp_dir t;
  const auto a = t.write("a.txt", "old a\n"), b = t.write("b.txt", "old b\n");
  EXPECT_THROW(
      {
        ppl::output_set set;
        ppl::write_file_atomically(a, [](std::ostream& o) { o << "new a\n"; });
        ppl::write_file_atomically(b, [](std::ostream& o) {
          o << "half of b";
          throw ppl::error(ppl::exit_code::failure, "b failed");
        });
        set.commit();
      },
      ppl::error);
  EXPECT_EQ(ppl_test::read_file(a), "old a\n");
  EXPECT_EQ(ppl_test::read_file(b), "old b\n");
  EXPECT_EQ(entries(t.path), 2u);
  // The set is gone: a later write goes straight to its file again.
  ppl::write_file_atomically(a, [](std::ostream& o) { o << "direct\n"; });
  EXPECT_EQ(ppl_test::read_file(a), "direct\n");
}

TEST(output_set, the_file_size_limit_on_the_second_output_leaves_the_first_old_file) {
  ppl_test::temp_dir t;
  const auto a = t.write("a.txt", "old a\n"), b = t.file("b.bin");
  const int status = in_child([&] {
    const rlimit lim{1 << 16, 1 << 16};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    try {
      ppl::output_set set;
      ppl::write_file_atomically(a, [](std::ostream& o) { o << "new a\n"; });
      ppl::write_file_atomically(b, [](std::ostream& o) { o << std::string(1 << 20, 'b'); });
      set.commit();
    } catch (const ppl::error& e) {
      ::_exit(e.code() == ppl::exit_code::failure ? 7 : 8);
    }
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_EQ(ppl_test::read_file(a), "old a\n");
  EXPECT_EQ(entries(t.path), 1u);
}

TEST(output_set, a_signal_after_the_first_output_removes_every_temporary_file) {
  ppl_test::temp_dir t;
  const auto a = t.write("a.txt", "old a\n"), b = t.file("b.txt");
  const int status = in_child([&] {
    ppl::output_set set;
    ppl::write_file_atomically(a, [](std::ostream& o) { o << "new a\n"; });
    ppl::write_file_atomically(b, [](std::ostream& o) {
      o << "half";
      o.flush();
      std::raise(SIGTERM);
    });
    set.commit();
  });
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(ppl_test::read_file(a), "old a\n");
  EXPECT_EQ(entries(t.path), 1u);
}

}  // namespace
