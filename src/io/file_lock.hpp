#pragma once
// An exclusive lock on a lock file (issue 26: "two processes given the same output prefix: the second
// refuses"). The lock is a POSIX record lock (fcntl F_SETLK on the whole file): the kernel drops it when
// the process ends in any way, kill -9 included, so a crash never leaves a stale lock behind, and
// F_GETLK tells a refused process which process holds it. The file also carries the holder's process id
// as text, for people looking at the directory.
//
// Caveat of POSIX record locks: closing *any* descriptor of the lock file in the holding process drops
// the lock. Nothing else in lqcd opens the lock file, which only FileLock names.

#include <filesystem>
#include <optional>

namespace lqcd::io {

class FileLock {
 public:
  // Tries to take the lock on `path` (created if missing). Returns nullopt, with the holder's process id
  // in *holder (0 where it cannot be told), when another process holds it; throws lqcd::Error naming
  // `path` when the file cannot be created or locked (read-only directory, no permission, ...).
  static std::optional<FileLock> try_acquire(const std::filesystem::path& path, long* holder);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&&) = delete;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  // Removes the lock file, then releases the lock (in that order: see try_acquire's inode check).
  ~FileLock();

  const std::filesystem::path& path() const { return path_; }

 private:
  FileLock(std::filesystem::path path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace lqcd::io
