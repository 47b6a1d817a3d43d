#include "io/atomic_file.hpp"

#include <fcntl.h>
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
