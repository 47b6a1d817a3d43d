#include "io/append_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace lqcd::io {

AppendFile::AppendFile(std::filesystem::path path, Mode mode) : path_(std::move(path)) {
  const int flags = O_RDWR | O_CREAT | O_CLOEXEC | O_APPEND | (mode == Mode::truncate ? O_TRUNC : 0);
  fd_ = ::open(path_.c_str(), flags, 0644);
  if (fd_ < 0) fail("{}: cannot open for writing ({})", path_.string(), std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    fail("{}: cannot inspect the file ({})", path_.string(), std::strerror(err));
  }
  size_ = std::uint64_t(st.st_size);
  if (mode == Mode::append && size_ > 0) {
    // A run killed in the middle of a line (or a write cut short before this class existed) leaves the
    // file without its final newline: end that fragment first, so that new lines start on their own.
    char last = '\n';
    if (::pread(fd_, &last, 1, off_t(size_ - 1)) == 1 && last != '\n') write_line("");
  }
}

AppendFile::~AppendFile() {
  if (fd_ >= 0) ::close(fd_);
}

void AppendFile::write_line(std::string_view text) {
  std::string line;
  line.reserve(text.size() + 1);
  line.append(text);
  line.push_back('\n');
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n > 0) {
      done += std::size_t(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    const int err = n < 0 ? errno : ENOSPC;  // a write of 0 bytes makes no progress: treat it as full
    // Drop the part of the line that did get through: the file keeps only whole lines.
    if (done > 0 && ::ftruncate(fd_, off_t(size_)) != 0) {
      // nothing more to do: the error below names the file, whose last line is then incomplete
    }
    fail("{}: write failed ({})", path_.string(), std::strerror(err));
  }
  size_ += line.size();
}

}  // namespace lqcd::io
