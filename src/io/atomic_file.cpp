#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"

namespace lqcd::io {

std::filesystem::path atomic_temporary_path(const std::filesystem::path& final_path, long id) {
  const std::string name = fmt::format(".{}.tmp.{}", final_path.filename().string(), id);
  return final_path.parent_path() / name;
}

std::vector<std::filesystem::path> remove_stale_temporaries(const std::filesystem::path& dir,
                                                            const std::string& name_start) {
  std::vector<std::filesystem::path> removed;
  const std::filesystem::path d = dir.empty() ? std::filesystem::path(".") : dir;
  std::error_code ec;
  std::filesystem::directory_iterator it(d, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::string head = "." + name_start;
    const std::size_t tmp = name.rfind(".tmp.");
    if (name.compare(0, head.size(), head) != 0 || tmp == std::string::npos || tmp < head.size()) continue;
    const std::string id = name.substr(tmp + 5);
    if (id.empty() || id.size() > 9 || id.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::stol(id);
    // kill(pid, 0) probes for the process without signalling it; EPERM means it exists (another user).
    const bool alive = pid > 0 && pid != long(::getpid()) && (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
    std::error_code type;
    if (alive || !it->is_regular_file(type)) continue;
    std::error_code rm;
    if (std::filesystem::remove(it->path(), rm)) removed.push_back(it->path());
  }
  return removed;
}

void sync_directory(const std::filesystem::path& dir) {
  const std::string d = dir.empty() ? std::string(".") : dir.string();
  const int fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  (void)::fsync(fd);
  (void)::close(fd);
}

AtomicFile::AtomicFile(std::filesystem::path final_path)
    : final_path_(std::move(final_path)), temp_path_(atomic_temporary_path(final_path_, long(::getpid()))) {
  if (final_path_.filename().empty()) fail("{}: not a file name", final_path_.string());
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (file_ == nullptr)
    fail("{}: cannot create the temporary file {} ({})", final_path_.string(), temp_path_.string(),
         std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::discard() noexcept {
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
  std::error_code ec;
  std::filesystem::remove(temp_path_, ec);
}

void AtomicFile::write(const void* data, std::size_t n) {
  if (file_ == nullptr) fail("{}: write after commit or failure", final_path_.string());
  if (n == 0) return;
  if (std::fwrite(data, 1, n, file_) != n) {
    const int err = errno;
    discard();
    fail("{}: write failed ({})", final_path_.string(), std::strerror(err));
  }
}

void AtomicFile::commit() {
  if (file_ == nullptr) fail("{}: commit after commit or failure", final_path_.string());
  // Buffered data reach the kernel only at fflush, and the disk only at fsync; a full disk often
  // shows up only here, so both are checked before the rename can expose the file.
  if (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0) {
    const int err = errno;
    discard();
    fail("{}: flushing to disk failed ({})", final_path_.string(), std::strerror(err));
  }
  const int close_status = std::fclose(file_);
  file_ = nullptr;
  if (close_status != 0) {
    const int err = errno;
    discard();
    fail("{}: closing failed ({})", final_path_.string(), std::strerror(err));
  }
  if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    const int err = errno;
    discard();
    fail("{}: cannot rename {} onto it ({})", final_path_.string(), temp_path_.string(),
         std::strerror(err));
  }
  committed_ = true;
  sync_directory(final_path_.parent_path());
}

}  // namespace lqcd::io
