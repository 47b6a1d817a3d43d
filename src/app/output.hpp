#pragma once
// What a run writes besides configurations: a human log (stdout and PREFIX.log) and the
// machine-readable JSON-lines file (one object per line, written at once so a crash loses nothing),
// and the claim on the output prefix that keeps two runs from writing the same files.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/append_file.hpp"
#include "io/file_lock.hpp"

namespace lqcd::app {

class RunLog {
 public:
  // file empty: stdout only. append: continue an existing log (resume).
  RunLog(const std::filesystem::path& file, bool append, bool quiet);
  template <typename... Args>
  void line(fmt::format_string<Args...> f, Args&&... args) {
    write(fmt::format(f, std::forward<Args>(args)...));
  }
  void write(const std::string& text);
  // No echo on stdout (--quiet, --json, or not rank 0): progress lines stay off too.
  bool quiet() const { return quiet_; }

 private:
  std::optional<io::AppendFile> file_;
  bool quiet_;
};

class JsonLines {
 public:
  JsonLines(const std::filesystem::path& file, bool append);
  void write(const nlohmann::json& record);

 private:
  std::optional<io::AppendFile> out_;
};

// A run's claim on its output prefix PREFIX (issue 26), held for the run's lifetime. Construction
// makes the directory of PREFIX.* exist, takes the lock PREFIX.lock (io::FileLock: released by the
// kernel however the run ends, kill -9 included) and then removes the temporaries
// `.PREFIX-NAME*.tmp.PID` that runs killed while writing a file left behind (their PID no longer
// exists; the lock guarantees no live run of this prefix is writing them). A second run of the same
// prefix fails at once, naming the prefix and the holder's process id, before it has touched any file.
// In a run of several MPI ranks only rank 0 holds the lock; every rank throws the same error. The
// argument `key` names the input key of the prefix in errors.
class OutputPrefixLock {
 public:
  OutputPrefixLock(const std::string& prefix, const std::string& key);

  // Temporaries of killed runs that were removed (rank 0; empty elsewhere), for the log.
  const std::vector<std::filesystem::path>& removed_temporaries() const { return removed_; }

 private:
  std::optional<io::FileLock> lock_;
  std::vector<std::filesystem::path> removed_;
};

// A one-line status on stderr, redrawn in place, only when stderr is a terminal (or, with the
// environment variable LQCD_PROGRESS=1, also when it is not: one line per update, for logs and tests).
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  void update(const std::string& text);
  void finish();

 private:
  bool enabled_;
  bool terminal_ = false;
  bool dirty_ = false;
};

// Progress through a known number of steps of a long command (solves, time slices, source times,
// configurations): "[what] done/total | rate per second | elapsed | ETA".
class CountProgress {
 public:
  CountProgress(bool enabled, std::string what, long total);
  void done(long count);  // `count` steps are finished
  void finish() { line_.finish(); }

 private:
  ProgressLine line_;
  std::string what_;
  long total_;
  std::chrono::steady_clock::time_point start_;
};

// "1h02m", "3m07s", "12.4s"
std::string format_duration(double seconds);

}  // namespace lqcd::app
