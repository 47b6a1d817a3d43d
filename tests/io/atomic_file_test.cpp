// AtomicFile: nothing appears under the final name before commit(), an existing file survives an
// abandoned write, and failures name the final path.

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>

#include "io/atomic_file.hpp"
#include "io/gauge_file.hpp"
#include "io_test_support.hpp"

namespace lqcd::test {
namespace {

class AtomicFileTest : public IoTest {
 protected:
  std::size_t entries() const {
    return std::size_t(std::distance(fs::directory_iterator(dir()), fs::directory_iterator()));
  }
};

TEST_F(AtomicFileTest, CommitRenamesOntoTheFinalName) {
  const auto path = tmp("out.dat");
  io::AtomicFile f(path);
  f.write("hello ");
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::exists(f.temporary_path()));
  EXPECT_EQ(f.temporary_path().parent_path(), path.parent_path());
  EXPECT_EQ(f.temporary_path().filename().string().rfind(".out.dat.tmp.", 0), 0u);
  f.write("world");
  f.commit();
  EXPECT_TRUE(fs::exists(path));
  EXPECT_FALSE(fs::exists(f.temporary_path()));
  const auto bytes = read_bytes(path);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "hello world");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFileTest, UncommittedWriterLeavesNoFile) {
  const auto path = tmp("never.dat");
  {
    io::AtomicFile f(path);
    f.write("partial");
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(entries(), 0u);  // the temporary is gone too
}

TEST_F(AtomicFileTest, UncommittedWriterDoesNotDamageAnExistingFile) {
  const auto path = tmp("existing.dat");
  write_bytes(path, {'o', 'l', 'd'});
  {
    io::AtomicFile f(path);
    f.write(std::string(100000, 'x'));
    // An exception unwinding through a writer has the same effect as this scope's end.
  }
  const auto bytes = read_bytes(path);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "old");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFileTest, CommittedWriterReplacesAnExistingFile) {
  const auto path = tmp("existing.dat");
  write_bytes(path, {'o', 'l', 'd'});
  io::AtomicFile f(path);
  f.write("new");
  f.commit();
  const auto bytes = read_bytes(path);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "new");
}

TEST_F(AtomicFileTest, MissingDirectoryIsAnErrorNamingTheFinalPath) {
  const auto path = tmp("no_such_dir") / "conf.lime";
  expect_error_naming([&] { io::AtomicFile f(path); }, path);
  // The writers report it the same way.
  io::WriteOptions opt;
  opt.plaquette = 1.0;
  const LexicographicGauge unit({2, 2, 2, 2});
  expect_error_naming([&] { io::write_ildg(path, unit, opt); }, path);
  expect_error_naming([&] { io::write_nersc(path, unit, opt); }, path);
  expect_error_naming([&] { io::write_openqcd(path, unit, opt); }, path);
}

// Emulates a full disk: with a file-size limit and SIGXFSZ ignored, write(2) fails with EFBIG once
// the limit is reached, which is how ENOSPC surfaces too (at fwrite, fflush or fsync).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    ok_ = setrlimit(RLIMIT_FSIZE, &limit) == 0;
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, old_handler_);
  }
  bool ok() const { return ok_; }

 private:
  rlimit saved_{};
  void (*old_handler_)(int) = nullptr;
  bool ok_ = false;
};

TEST_F(AtomicFileTest, WriteFailureIsAnErrorNamingTheFinalPath) {
  const auto path = tmp("full.dat");
  write_bytes(path, {'o', 'l', 'd'});
  {
    FileSizeLimit limit(64 * 1024);
    if (!limit.ok()) GTEST_SKIP() << "cannot set RLIMIT_FSIZE";
    expect_error_naming(
        [&] {
          io::AtomicFile f(path);
          f.write(std::string(1 << 20, 'x'));
          f.commit();
        },
        path, {"failed"});
    // A writer hitting the limit: same error, the old file untouched.
    expect_error_naming([&] { io::write_nersc(path, LexicographicGauge({4, 4, 4, 4}), io::WriteOptions{}); }, path);
  }
  const auto bytes = read_bytes(path);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "old");
  EXPECT_EQ(entries(), 1u);  // no temporary left behind
}

}  // namespace
}  // namespace lqcd::test
