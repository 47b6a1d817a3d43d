#pragma once
// A text file written line by line and never rewritten in place: the human log and the JSON-lines
// results of a run. Each line goes to the kernel in one write(2) as soon as it is complete, so a
// kill -9 loses at most the line being written and never leaves earlier lines damaged. A failed write
// (disk full, file size limit, I/O error) cuts the file back to its length before the line, so the file
// never ends in half a record, and throws lqcd::Error naming the file and the system's reason.

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace lqcd::io {

class AppendFile {
 public:
  enum class Mode {
    truncate,  // a new run: start the file empty
    append     // a resumed run: keep what is there
  };
  // Opens (creates) `path`, for reading too (the last byte, in append mode); throws lqcd::Error naming it, with the reason, if it cannot.
  AppendFile(std::filesystem::path path, Mode mode);
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  // Writes text and a newline.
  void write_line(std::string_view text);

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;  // bytes in the file: only this object writes it (the output prefix is locked)
};

}  // namespace lqcd::io
