// Faults of issue 26, as a user meets them: a second run of the same output prefix, kill -9 while a
// run writes, a truncated JSON line and stale temporaries on --resume, a read-only output directory,
// a full disk and a file-size limit. Each time: a one-line "lqcd: error:" naming the file and the
// reason, a non-zero exit, and the files written before left intact. The random-moment kills are
// scripts/fault-campaign.sh (ctest fault_campaign runs it with a few kills).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <regex>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace lqcd {
namespace {

using test::read_text;
using test::run_lqcd;
using test::write_text;
namespace fs = std::filesystem;

const char* kHeatbath = R"([lattice]
dims = [4, 4, 4, 4]
[gauge]
beta = 5.7
[heatbath]
thermalization = 0
sweeps = SWEEPS
overrelaxation = 1
seed = 99
[output]
prefix = "PREFIX"
save_every = 1
checkpoint_every = 1
)";

std::string heatbath_input(const std::string& prefix, long sweeps, const std::string& extra = "") {
  std::string s = kHeatbath;
  s.replace(s.find("SWEEPS"), 6, std::to_string(sweeps));
  s.replace(s.find("PREFIX"), 6, prefix);
  return s + extra;
}

// The "lqcd: error: ..." line among what the program printed on stderr (MPI may add other lines).
std::string error_line(const std::string& err) {
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("lqcd: error:", 0) == 0) return line;
  return "";
}

// Every file under dir with its contents: what a refused or failed run must leave as it was.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = read_text(e.path());
  return files;
}

// Every configuration (saved ones and the checkpoint) under dir/out reads back with a valid checksum.
void expect_configurations_valid(const fs::path& dir, const std::string& sub) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir / sub)) {
    const std::string name = e.path().filename().string();
    // A run killed while writing leaves its temporary (never a half-written final name); the next run
    // in the directory removes it (checked by the callers after that run).
    if (name.find(".tmp.") != std::string::npos) continue;
    if (name.find(".ildg") == std::string::npos && name.find(".nersc") == std::string::npos) continue;
    const auto r = run_lqcd("measure --json '" + (sub + "/" + name) + "'", dir);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    if (r.exit_code == 0) {
      EXPECT_EQ(nlohmann::json::parse(r.out)["checksum_ok"], true) << name;
    }
    ++n;
  }
  EXPECT_GT(n, 0) << "no configuration in " << (dir / sub);
}

// Every line of a JSON-lines file is a whole record, and the file ends with a newline.
void expect_whole_json_lines(const fs::path& file) {
  const std::string text = read_text(file);
  if (text.empty()) return;
  EXPECT_EQ(text.back(), '\n') << file;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded()) << file << ": " << line;
}

// The records without their timing fields, which depend on the clock.
std::vector<nlohmann::json> jsonl_values(const fs::path& file) {
  std::vector<nlohmann::json> v = test::read_jsonl(file);
  for (auto& j : v)
    for (const char* k : {"seconds", "solver_seconds", "force_seconds", "solver_seconds_by_monomial", "force_seconds_by_monomial",
                          "energy_joules"})
      j.erase(k);
  return v;
}

// lqcd started in the background (fork + exec), so that a test can stop, kill and wait for it. The
// destructor kills and reaps it if the test did not.
class Background {
 public:
  Background(const std::string& args, const fs::path& dir, std::optional<rlim_t> file_size_limit = std::nullopt) {
    const std::string cmd = "cd '" + dir.string() + "' && OMP_NUM_THREADS=1 exec '" + std::string(LQCD_BINARY) +
                            "' " + args + " >.bg.out 2>.bg.err </dev/null";
    pid_ = ::fork();
    if (pid_ == 0) {
      if (file_size_limit) {
        const rlimit limit{*file_size_limit, *file_size_limit};
        ::setrlimit(RLIMIT_FSIZE, &limit);
      }
      ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Background() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int sig) { ::kill(pid_, sig); }
  // SIGSTOP, returning once the process has stopped (kill returns before the signal takes effect: a
  // snapshot taken right after it once caught a checkpoint being written, CI 2026-12-06).
  // False where the process had exited instead (it is then reaped: pid() is -1).
  bool stop() {
    ::kill(pid_, SIGSTOP);
    int status = 0;
    pid_t r = 0;
    do r = ::waitpid(pid_, &status, WUNTRACED);
    while (r < 0 && errno == EINTR);
    if (r == pid_ && WIFSTOPPED(status)) return true;
    if (r == pid_) pid_ = -1;
    return false;
  }
  // The exit status (-signal if killed by one).
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
};

// run_lqcd with one OpenMP thread: on a busy machine (CI with two cores) spinning threads slow the HMC
// tests many times over, and no result depends on the thread count.
test::CommandResult run_lqcd_one_thread(const std::string& args, const fs::path& dir) {
  test::CommandResult r;
  {
    Background run(args, dir);
    r.exit_code = run.wait();
  }
  r.out = read_text(dir / ".bg.out");
  r.err = read_text(dir / ".bg.err");
  return r;
}

bool wait_for_file(const fs::path& file, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (fs::exists(file)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// A small tmpfs mounted on dir/name for the scope of the object (root with mount rights only: CI
// containers may have neither, and the tests that need it then skip).
class Tmpfs {
 public:
  Tmpfs(const fs::path& mount_point, const std::string& size) : path_(mount_point) {
    fs::create_directories(path_);
    const std::string options = "size=" + size;
    mounted_ = ::mount("tmpfs", path_.c_str(), "tmpfs", 0, options.c_str()) == 0;
  }
  ~Tmpfs() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  Tmpfs(const Tmpfs&) = delete;
  Tmpfs& operator=(const Tmpfs&) = delete;
  bool mounted() const { return mounted_; }
  bool remount_read_only() {
    return ::mount("tmpfs", path_.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0;
  }

 private:
  fs::path path_;
  bool mounted_ = false;
};

TEST(FaultTolerance, SecondRunOfTheSamePrefixIsRefusedAndTouchesNothing) {
  test::TempDir dir;
  write_text(dir / "long.toml", heatbath_input("out/run", 1000000));
  write_text(dir / "short.toml", heatbath_input("out/run", 2));
  Background first("heatbath long.toml --quiet", dir.path());
  ASSERT_TRUE(wait_for_file(dir / "out/run.000001.ildg", 30)) << read_text(dir / ".bg.err");
  ASSERT_TRUE(first.stop()) << read_text(dir / ".bg.err");  // frozen: its files cannot change under the comparison below
  const auto before = snapshot(dir / "out");
  ASSERT_TRUE(before.count("run.lock"));

  for (const char* args : {"heatbath short.toml", "heatbath short.toml --resume", "heatbath long.toml --resume"}) {
    const auto second = run_lqcd(args, dir.path());
    EXPECT_NE(second.exit_code, 0) << args;
    const std::string line = error_line(second.err);
    EXPECT_NE(line.find("out/run is in use by another lqcd run (pid " + std::to_string(first.pid()) + ";"),
              std::string::npos)
        << args << ": " << second.err;
    EXPECT_EQ(snapshot(dir / "out"), before) << args << " changed the first run's files";
  }

  // kill -9: the kernel releases the lock; the files the run left are whole, and a new run may start.
  first.signal(SIGKILL);
  EXPECT_EQ(first.wait(), -SIGKILL);
  expect_configurations_valid(dir.path(), "out");
  expect_whole_json_lines(dir / "out/run.jsonl");
  const auto again = run_lqcd("heatbath short.toml", dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_FALSE(fs::exists(dir / "out/run.lock")) << "the lock file outlived the run";
  for (const auto& e : fs::directory_iterator(dir / "out"))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos)
        << "the killed run's temporary outlived the next run: " << e.path();
}

TEST(FaultTolerance, HmcKilledAfterACheckpointResumesToTheUninterruptedChain) {
  test::TempDir dir;
  write_text(dir / "hmc.toml", R"([lattice]
dims = [4, 4, 4, 4]
[integrator]
tau = 0.5
steps = [3, 2]
[hmc]
seed = 7
start = "hot"
thermalization = 1
trajectories = 3
[output]
prefix = "out/run"
save_every = 1
checkpoint_every = 1
)");
  ASSERT_EQ(run_lqcd_one_thread("hmc hmc.toml --quiet", dir.path()).exit_code, 0);
  const auto full = jsonl_values(dir / "out/run.jsonl");
  fs::rename(dir / "out", dir / "full");

  {
    Background run("hmc hmc.toml --quiet", dir.path());
    ASSERT_TRUE(wait_for_file(dir / "out/run.checkpoint.ildg", 60)) << read_text(dir / ".bg.err");
    run.signal(SIGKILL);  // as soon as the first checkpoint is there: during trajectory 2 (or later)
    run.wait();
  }
  expect_configurations_valid(dir.path(), "out");
  expect_whole_json_lines(dir / "out/run.jsonl");
  const auto resumed = run_lqcd_one_thread("hmc hmc.toml --resume --quiet", dir.path());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(jsonl_values(dir / "out/run.jsonl"), full);
  for (int n = 2; n <= 4; ++n) {
    const std::string name = fmt::format("run.{:06d}.ildg", n);
    const auto a = run_lqcd("measure full/" + name, dir.path()), b = run_lqcd("measure out/" + name, dir.path());
    ASSERT_EQ(b.exit_code, 0) << b.err;
    // Same checksum of the binary data and the same observables; the file names aside.
    EXPECT_EQ(a.out.substr(a.out.find('\n')), b.out.substr(b.out.find('\n'))) << name;
  }
}

TEST(FaultTolerance, TruncatedJsonLineAndStaleTemporariesAreHandledOnResume) {
  test::TempDir dir;
  write_text(dir / "full.toml", heatbath_input("out/run", 4));
  write_text(dir / "stopped.toml", heatbath_input("out/run", 1));
  ASSERT_EQ(run_lqcd("heatbath full.toml", dir.path()).exit_code, 0);
  const auto full = jsonl_values(dir / "out/run.jsonl");
  fs::rename(dir / "out", dir / "full-out");

  ASSERT_EQ(run_lqcd("heatbath stopped.toml", dir.path()).exit_code, 0);
  // What a run killed during sweep 4 may leave: half a record, half a configuration under its
  // temporary name (a process id that cannot exist: above Linux's largest pid_max), and a log line
  // cut short.
  std::ofstream(dir / "out/run.jsonl", std::ios::app) << R"({"sweep":4,"plaquette":0.5)";
  write_text(dir / "out/.run.000004.ildg.tmp.999999999", "half a configuration");
  std::ofstream(dir / "out/run.log", std::ios::app) << "        4 0.5";
  const auto resumed = run_lqcd("heatbath full.toml --resume", dir.path());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(jsonl_values(dir / "out/run.jsonl"), full);
  expect_whole_json_lines(dir / "out/run.jsonl");
  EXPECT_FALSE(fs::exists(dir / "out/.run.000004.ildg.tmp.999999999"));
  const std::string log = read_text(dir / "out/run.log");
  EXPECT_NE(log.find("# removed out/.run.000004.ildg.tmp.999999999, left by a killed run"), std::string::npos) << log;
  EXPECT_NE(log.find("        4 0.5\n# lqcd"), std::string::npos) << "the cut log line is ended before new lines";
  expect_configurations_valid(dir.path(), "out");
}

TEST(FaultTolerance, ReadOnlyOutputDirectoryGivesAClearErrorAndKeepsTheFiles) {
  test::TempDir dir;
  const bool root = ::geteuid() == 0;
  Tmpfs mount(dir / "ro", "4m");
  if (root && !mount.mounted()) GTEST_SKIP() << "running as root without mount rights: no read-only directory to test";
  write_text(dir / "in.toml", heatbath_input("ro/run", 2));
  ASSERT_EQ(run_lqcd("heatbath in.toml", dir.path()).exit_code, 0);
  const auto before = snapshot(dir / "ro");
  // root ignores permission bits: a read-only mount is the only way; others get a mode-0555 directory.
  if (root)
    ASSERT_TRUE(mount.remount_read_only());
  else
    fs::permissions(dir / "ro", fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove);
  for (const char* args : {"heatbath in.toml", "heatbath in.toml --resume"}) {
    const auto r = run_lqcd(args, dir.path());
    EXPECT_NE(r.exit_code, 0) << args;
    const std::string line = error_line(r.err);
    EXPECT_NE(line.find("ro/run.lock"), std::string::npos) << args << ": " << r.err;
    EXPECT_NE(line.find(root ? "Read-only file system" : "Permission denied"), std::string::npos) << r.err;
    EXPECT_EQ(snapshot(dir / "ro"), before) << args;
  }
  if (!root) fs::permissions(dir / "ro", fs::perms::owner_all);
}

// Runs `body` with a tmpfs of `size` mounted on `mount_point`. Root with mount rights mounts it here.
// Anyone else (CI runners, developers) gets it in a child process that enters a user and mount namespace
// of its own (unprivileged, as `unshare -rm` does): the child maps its user to root inside the namespace,
// mounts the tmpfs (visible to the lqcd processes it starts, which inherit the namespace, and gone with
// it), runs `body` and exits with 0 or 1 as the body's expectations held; gtest's failure messages are
// printed by the child as they happen. A child is single-threaded after fork(), as unshare(CLONE_NEWUSER)
// requires. Skips only where neither way exists (a kernel or container without user namespaces).
template <typename Body>
void with_small_disk(const fs::path& mount_point, const std::string& size, Body&& body) {
  {
    Tmpfs mount(mount_point, size);
    if (mount.mounted()) {
      body();
      return;
    }
  }
  std::fflush(nullptr);
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0) << "fork: " << std::strerror(errno);
  if (child == 0) {
    const auto write_file = [](const char* file, const std::string& text) {
      const int fd = ::open(file, O_WRONLY);
      const bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == ssize_t(text.size());
      if (fd >= 0) ::close(fd);
      return ok;
    };
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) ::_exit(77);
    if (!write_file("/proc/self/setgroups", "deny") || !write_file("/proc/self/uid_map", fmt::format("0 {} 1", uid)) ||
        !write_file("/proc/self/gid_map", fmt::format("0 {} 1", gid)))
      ::_exit(77);
    Tmpfs mount(mount_point, size);
    if (!mount.mounted()) ::_exit(77);
    body();
    std::fflush(nullptr);
    ::_exit(::testing::Test::HasFailure() ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child with the small disk died (status " << status << ")";
  if (WEXITSTATUS(status) == 77) GTEST_SKIP() << "no tmpfs: neither mount rights nor user namespaces here";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "expectations failed with the small disk (messages above)";
}

TEST(FaultTolerance, FullDiskGivesAClearErrorKeepsTheFilesAndResumes) {
  test::TempDir dir;
  write_text(dir / "in.toml", heatbath_input("small/run", 10));
  // Room for about three 4^4 configurations (147 KiB each in double precision) besides log and JSON lines.
  with_small_disk(dir / "small", "480k", [&] {
    const auto r = run_lqcd("heatbath in.toml --quiet", dir.path());
    EXPECT_NE(r.exit_code, 0);
    const std::string line = error_line(r.err);
    EXPECT_TRUE(std::regex_search(line, std::regex("^lqcd: error: small/\\S*run\\.\\S+: .*\\(No space left on device\\)$")))
        << r.err;
    // What was written before the disk filled reads back: saved configurations, the checkpoint, the records.
    expect_configurations_valid(dir.path(), "small");
    expect_whole_json_lines(dir / "small/run.jsonl");
    EXPECT_TRUE(fs::exists(dir / "small/run.checkpoint.ildg"));
    // With room made (the saved configurations moved away, no more saves), --resume runs to the end.
    for (const auto& e : fs::directory_iterator(dir / "small"))
      if (std::regex_search(e.path().filename().string(), std::regex("^run\\.[0-9]{6}\\.ildg$"))) fs::remove(e.path());
    std::string no_saves = read_text(dir / "in.toml");
    no_saves.replace(no_saves.find("save_every = 1"), 14, "save_every = 0");
    write_text(dir / "resume.toml", no_saves);
    const auto resumed = run_lqcd("heatbath resume.toml --resume --quiet", dir.path());
    EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_EQ(test::read_jsonl(dir / "small/run.jsonl").size(), 10u);
  });
}

TEST(FaultTolerance, FileSizeLimitGivesAClearErrorAndKeepsTheFiles) {
  // RLIMIT_FSIZE (ulimit -f) works everywhere, root or not. 8 MiB admits the saved single-precision
  // configurations of 12^4 (6.0 MB) but not the double-precision checkpoint (11.9 MB); a smaller limit
  // would stop OpenMPI's start-up (its PMIx shared-memory segment is a file of a few MiB).
  test::TempDir dir;
  std::string input = heatbath_input("out/run", 2, "precision = 32\n");
  input.replace(input.find("[4, 4, 4, 4]"), 12, "[12, 12, 12, 12]");
  write_text(dir / "in.toml", input);
  Background run("heatbath in.toml --quiet", dir.path(), rlim_t(8) << 20);
  const int status = run.wait();
  const std::string err = read_text(dir / ".bg.err");
  if (status != 1 && err.find("MPI_Init") != std::string::npos)
    GTEST_SKIP() << "the MPI library does not start under an 8 MiB file-size limit";
  EXPECT_EQ(status, 1) << "killed by SIGXFSZ instead of an error? " << err;
  const std::string line = error_line(err);
  EXPECT_TRUE(std::regex_search(line, std::regex("^lqcd: error: out/\\S*run\\.checkpoint\\.ildg\\S*: .*\\(File too large\\)$")))
      << err;
  expect_configurations_valid(dir.path(), "out");  // run.000001.ildg, whole
  EXPECT_FALSE(fs::exists(dir / "out/run.checkpoint.ildg"));
  expect_whole_json_lines(dir / "out/run.jsonl");
}

}  // namespace
}  // namespace lqcd
