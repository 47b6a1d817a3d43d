#include "io/file_bytes.hpp"

#include <sys/types.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <system_error>

#include "core/error.hpp"

namespace lqcd::io {

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FileHandle = std::unique_ptr<std::FILE, FileCloser>;

FileHandle open_for_reading(const std::filesystem::path& path, std::uint64_t& size) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found)
    fail("{}: cannot open: file does not exist", path.string());
  // Anything else that stops the look-up, e.g. a symbolic link loop or a directory without search
  // permission, is named as the system names it.
  if (ec) fail("{}: cannot open ({})", path.string(), ec.message());
  if (!std::filesystem::is_regular_file(status)) fail("{}: cannot open: not a regular file", path.string());
  size = std::filesystem::file_size(path, ec);
  if (ec) fail("{}: cannot determine the file size ({})", path.string(), ec.message());
  FileHandle f(std::fopen(path.c_str(), "rb"));
  if (!f) fail("{}: cannot open ({})", path.string(), std::strerror(errno));
  return f;
}

void read_exactly(std::FILE* f, std::uint8_t* dst, std::size_t n, const std::filesystem::path& path) {
  if (n != 0 && std::fread(dst, 1, n, f) != n)
    fail("{}: read error: expected {} bytes, got fewer ({})", path.string(), n,
         std::ferror(f) ? std::strerror(errno) : "unexpected end of file");
}

}  // namespace

Bytes read_file_bytes(const std::filesystem::path& path) {
  std::uint64_t size = 0;
  FileHandle f = open_for_reading(path, size);
  Bytes bytes(size);
  read_exactly(f.get(), bytes.data(), bytes.size(), path);
  return bytes;
}

Bytes read_file_head(const std::filesystem::path& path, std::size_t n, std::uint64_t& file_size) {
  FileHandle f = open_for_reading(path, file_size);
  Bytes bytes(std::size_t(std::min<std::uint64_t>(n, file_size)));
  read_exactly(f.get(), bytes.data(), bytes.size(), path);
  return bytes;
}

Bytes read_file_range(const std::filesystem::path& path, std::uint64_t offset, std::size_t n) {
  std::uint64_t size = 0;
  FileHandle f = open_for_reading(path, size);
  if (offset > size || n > size - offset)
    fail("{}: read error: expected {} bytes at offset {}, the file has {}", path.string(), n, offset, size);
  if (::fseeko(f.get(), off_t(offset), SEEK_SET) != 0)
    fail("{}: cannot seek to offset {} ({})", path.string(), offset, std::strerror(errno));
  Bytes bytes(n);
  read_exactly(f.get(), bytes.data(), n, path);
  return bytes;
}

}  // namespace lqcd::io
