#pragma once
// Whole-file reads. Configuration files are small next to the fields built from them, so every
// reader takes the file into memory once and parses it from there; that keeps the parsers free of
// stream state and lets every size check compare against the true file length.

#include <cstdint>
#include <filesystem>
#include <vector>

namespace lqcd::io {

using Bytes = std::vector<std::uint8_t>;

// The contents of the file; throws lqcd::Error naming the file when it is missing, is not a regular
// file, or cannot be read completely.
Bytes read_file_bytes(const std::filesystem::path& path);

// At most n bytes from the start of the file and the file's total size (for format detection
// without reading a whole configuration). Same errors as read_file_bytes.
Bytes read_file_head(const std::filesystem::path& path, std::size_t n, std::uint64_t& file_size);

// n bytes at `offset` (a record of a large file); fails naming the file if they are not all there.
Bytes read_file_range(const std::filesystem::path& path, std::uint64_t offset, std::size_t n);

}  // namespace lqcd::io
