#pragma once
// What a run writes besides configurations: a human log (stdout and PREFIX.log) and the
// machine-readable JSON-lines file (one object per line, flushed at once so a crash loses nothing).

#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

 private:
  std::ofstream file_;
  bool quiet_;
};

class JsonLines {
 public:
  JsonLines(const std::filesystem::path& file, bool append);
  void write(const nlohmann::json& record);

 private:
  std::filesystem::path path_;
  std::ofstream out_;
};

// Makes the parent directory of PREFIX.* exist; throws naming `key` if it cannot.
void prepare_output_prefix(const std::string& prefix, const std::string& key);

// A one-line status on stderr, redrawn in place, only when stderr is a terminal.
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  void update(const std::string& text);
  void finish();

 private:
  bool enabled_;
  bool dirty_ = false;
};

// "1h02m", "3m07s", "12.4s"
std::string format_duration(double seconds);

}  // namespace lqcd::app
