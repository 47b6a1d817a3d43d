#include "app/output.hpp"

#include <cstdio>
#include <iostream>

#include <unistd.h>

#include "comm/communicator.hpp"
#include "core/error.hpp"

namespace lqcd::app {

// In a run of several MPI ranks only rank 0 writes logs, JSON lines and progress (the others compute
// the same values).
RunLog::RunLog(const std::filesystem::path& file, bool append, bool quiet)
    : quiet_(quiet || comm::rank() != 0) {
  if (!file.empty() && comm::rank() == 0) {
    file_.open(file, append ? std::ios::app : std::ios::trunc);
    if (!file_) fail("{}: cannot open the log file for writing", file.string());
  }
}

void RunLog::write(const std::string& text) {
  if (!quiet_) std::cout << text << '\n' << std::flush;
  if (file_.is_open()) file_ << text << '\n' << std::flush;
}

JsonLines::JsonLines(const std::filesystem::path& file, bool append) : path_(file) {
  if (comm::rank() != 0) return;
  out_.open(file, append ? std::ios::app : std::ios::trunc);
  if (!out_) fail("{}: cannot open the JSON-lines file for writing", file.string());
}

void JsonLines::write(const nlohmann::json& record) {
  if (!out_.is_open()) return;  // not rank 0
  out_ << record.dump() << '\n' << std::flush;
  if (!out_) fail("{}: write failed (disk full?)", path_.string());
}

void prepare_output_prefix(const std::string& prefix, const std::string& key) {
  if (prefix.empty()) fail("{}: must not be empty", key);
  const std::filesystem::path parent = std::filesystem::path(prefix).parent_path();
  if (parent.empty() || comm::rank() != 0) return;
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec || !std::filesystem::is_directory(parent))
    fail("{}: cannot create the output directory {} ({})", key, parent.string(), ec.message());
}

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled && comm::rank() == 0 && ::isatty(STDERR_FILENO)) {}
ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::update(const std::string& text) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  dirty_ = true;
}

void ProgressLine::finish() {
  if (enabled_ && dirty_) std::fprintf(stderr, "\r\033[K");
  dirty_ = false;
}

std::string format_duration(double s) {
  if (!(s >= 0) || s > 1e8) return "?";
  if (s < 60) return fmt::format("{:.1f}s", s);
  const long t = long(s + 0.5);
  if (t < 3600) return fmt::format("{}m{:02d}s", t / 60, t % 60);
  return fmt::format("{}h{:02d}m", t / 3600, (t % 3600) / 60);
}

}  // namespace lqcd::app
