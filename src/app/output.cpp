#include "app/output.hpp"

#include <cstdlib>
#include <string_view>

#include <cstdio>
#include <iostream>

#include <unistd.h>

#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace lqcd::app {

// In a run of several MPI ranks only rank 0 writes logs, JSON lines and progress (the others compute
// the same values).
RunLog::RunLog(const std::filesystem::path& file, bool append, bool quiet)
    : quiet_(quiet || comm::rank() != 0) {
  if (!file.empty() && comm::rank() == 0)
    file_.emplace(file, append ? io::AppendFile::Mode::append : io::AppendFile::Mode::truncate);
}

void RunLog::write(const std::string& text) {
  if (!quiet_) std::cout << text << '\n' << std::flush;
  if (file_) file_->write_line(text);
}

JsonLines::JsonLines(const std::filesystem::path& file, bool append) {
  if (comm::rank() != 0) return;
  out_.emplace(file, append ? io::AppendFile::Mode::append : io::AppendFile::Mode::truncate);
}

void JsonLines::write(const nlohmann::json& record) {
  if (out_) out_->write_line(record.dump());  // only rank 0 has the file
}

namespace {

// Makes the parent directory of PREFIX.* exist; throws naming `key` if it cannot.
void prepare_output_directory(const std::string& prefix, const std::string& key) {
  const std::filesystem::path parent = std::filesystem::path(prefix).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec || !std::filesystem::is_directory(parent))
    fail("{}: cannot create the output directory {} ({})", key, parent.string(), ec.message());
}

}  // namespace

OutputPrefixLock::OutputPrefixLock(const std::string& prefix, const std::string& key) {
  if (prefix.empty()) fail("{}: must not be empty", key);
  const std::filesystem::path p(prefix);
  if (p.filename().empty()) fail("{}: \"{}\" names a directory; expected a directory and a file name start", key, prefix);
  // Rank 0 alone touches the file system; the others learn the outcome from it, so that every rank
  // throws the same one-line error (none is left waiting in a later collective).
  std::string error;
  if (comm::rank() == 0) {
    try {
      prepare_output_directory(prefix, key);
      const std::filesystem::path lock_path = prefix + ".lock";
      long holder = 0;
      if (std::optional<io::FileLock> lock = io::FileLock::try_acquire(lock_path, &holder)) lock_.emplace(std::move(*lock));
      if (!lock_)
        error = fmt::format("{}: output prefix {} is in use by another lqcd run ({}; lock {}); wait for it to end or "
                            "choose another prefix",
                            key, prefix, holder > 0 ? fmt::format("pid {}", holder) : std::string("pid unknown"),
                            lock_path.string());
      else
        removed_ = io::remove_stale_temporaries(p.parent_path(), p.filename().string() + ".");
    } catch (const Error& e) {
      error = e.what();
    }
  }
  comm::broadcast(Dims{1, 1, 1, comm::size()}, error);
  if (!error.empty()) fail("{}", error);
}

namespace {
bool progress_forced() {
  const char* v = std::getenv("LQCD_PROGRESS");
  return v && std::string_view(v) == "1";
}
}  // namespace

ProgressLine::ProgressLine(bool enabled)
    : enabled_(enabled && comm::rank() == 0 && (::isatty(STDERR_FILENO) || progress_forced())),
      terminal_(::isatty(STDERR_FILENO)) {}
ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::update(const std::string& text) {
  if (!enabled_) return;
  if (terminal_) std::fprintf(stderr, "\r\033[K%s", text.c_str());
  else std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
  dirty_ = terminal_;
}

void ProgressLine::finish() {
  if (enabled_ && dirty_) std::fprintf(stderr, "\r\033[K");
  dirty_ = false;
}

CountProgress::CountProgress(bool enabled, std::string what, long total)
    : line_(enabled), what_(std::move(what)), total_(total), start_(std::chrono::steady_clock::now()) {}

void CountProgress::done(long count) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? double(count) / elapsed : 0.0;
  const std::string eta = count >= total_ ? "done" : rate > 0 ? "ETA " + format_duration(double(total_ - count) / rate) : "ETA ?";
  line_.update(fmt::format("[{}] {}/{} | {:.3g}/s | {} | {}", what_, count, total_, rate, format_duration(elapsed), eta));
}

std::string format_duration(double s) {
  if (!(s >= 0) || s > 1e8) return "?";
  if (s < 60) return fmt::format("{:.1f}s", s);
  const long t = long(s + 0.5);
  if (t < 3600) return fmt::format("{}m{:02d}s", t / 60, t % 60);
  return fmt::format("{}h{:02d}m", t / 3600, (t % 3600) / 60);
}

}  // namespace lqcd::app
