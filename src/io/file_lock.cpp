#include "io/file_lock.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"

namespace lqcd::io {

namespace {

// The process holding a conflicting lock on fd's file (0: none any more, or not known).
long lock_holder(int fd) {
  struct flock query {};
  query.l_type = F_WRLCK;
  query.l_whence = SEEK_SET;
  if (::fcntl(fd, F_GETLK, &query) != 0 || query.l_type == F_UNLCK) return 0;
  return long(query.l_pid);
}

}  // namespace

std::optional<FileLock> FileLock::try_acquire(const std::filesystem::path& path, long* holder) {
  if (holder != nullptr) *holder = 0;
  // A holder removes the file before it unlocks (~FileLock), so the file we lock may already be
  // unlinked, with a new one (perhaps locked by a third process) under the name: then we try again on
  // the file that the name now refers to. A few rounds suffice unless runs start and stop in a loop.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) fail("{}: cannot create the lock file ({})", path.string(), std::strerror(errno));
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;  // l_start = l_len = 0: the whole file
    if (::fcntl(fd, F_SETLK, &lock) != 0) {
      const int err = errno;
      if (err == EACCES || err == EAGAIN) {
        if (holder != nullptr) *holder = lock_holder(fd);
        ::close(fd);
        return std::nullopt;
      }
      ::close(fd);
      fail("{}: cannot lock the lock file ({})", path.string(), std::strerror(err));
    }
    struct stat opened {}, named {};
    if (::fstat(fd, &opened) != 0 || ::stat(path.c_str(), &named) != 0 || opened.st_ino != named.st_ino ||
        opened.st_dev != named.st_dev) {
      ::close(fd);  // we locked a file that its previous holder has just removed
      continue;
    }
    // The holder's id as text, for people; failing to write it does not weaken the lock.
    const std::string pid = fmt::format("{}\n", long(::getpid()));
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
      // only informative: F_GETLK names the holder either way
    }
    return FileLock(path, fd);
  }
  fail("{}: the lock file keeps being replaced by other processes; giving up", path.string());
}

FileLock::FileLock(FileLock&& other) noexcept : path_(std::move(other.path_)), fd_(other.fd_) { other.fd_ = -1; }

FileLock::~FileLock() {
  if (fd_ < 0) return;
  // Unlink while still holding the lock: a process that opened the old file meanwhile sees, after it
  // gets the lock, that the name no longer refers to it and starts over.
  (void)::unlink(path_.c_str());
  (void)::close(fd_);
}

}  // namespace lqcd::io
