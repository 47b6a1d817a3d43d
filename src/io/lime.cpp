#include "io/lime.hpp"

#include <sys/types.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/error.hpp"
#include "io/byte_order.hpp"
#include "io/file_bytes.hpp"

namespace lqcd::io {

namespace {

constexpr std::uint16_t kLimeVersion = 1;
constexpr std::uint16_t kFlagMessageBegin = 0x8000;  // LIME spec: MB is bit 15 of the flags word
constexpr std::uint16_t kFlagMessageEnd = 0x4000;    // ME is bit 14

constexpr std::uint64_t padded(std::uint64_t n) { return (n + 7) / 8 * 8; }

}  // namespace

namespace {

// Decodes and validates the header at `offset` of a file of `size` bytes (h points at its 144 bytes).
LimeRecord decode_header(const std::uint8_t* h, std::uint64_t offset, std::uint64_t size,
                         const std::filesystem::path& path) {
  const std::uint32_t magic = load_u32(h, ByteOrder::big);
  if (magic != kLimeMagic)
    fail("{}: bad LIME magic number 0x{:08x} at offset {} (expected 0x{:08x}; a previous record "
         "length may be wrong)",
         path.string(), magic, offset, kLimeMagic);
  const std::uint16_t version = load_uint<std::uint16_t>(h + 4, ByteOrder::big);
  if (version != kLimeVersion)
    fail("{}: unsupported LIME version {} at offset {} (expected {})", path.string(), version, offset,
         kLimeVersion);
  const std::uint16_t flags = load_uint<std::uint16_t>(h + 6, ByteOrder::big);
  LimeRecord r;
  r.length = load_u64(h + 8, ByteOrder::big);
  const char* type = reinterpret_cast<const char*>(h + 16);
  r.type.assign(type, std::find(type, type + kLimeTypeBytes, '\0'));
  r.header_offset = offset;
  r.data_offset = offset + kLimeHeaderBytes;
  r.message_begin = (flags & kFlagMessageBegin) != 0;
  r.message_end = (flags & kFlagMessageEnd) != 0;
  if (r.length > size - r.data_offset)
    fail("{}: LIME record '{}' at offset {} declares {} data bytes but only {} remain in the file",
         path.string(), r.type, offset, r.length, size - r.data_offset);
  return r;
}

[[noreturn]] void fail_truncated_header(const std::filesystem::path& path, std::uint64_t offset,
                                        std::uint64_t left) {
  fail("{}: truncated LIME record header at offset {}: {} bytes left, a header needs {}", path.string(),
       offset, left, kLimeHeaderBytes);
}

// The last record's padding may be missing; anything else is caught as a bad magic number.
std::uint64_t next_record(const LimeRecord& r, std::uint64_t size) {
  return std::min<std::uint64_t>(size, r.data_offset + padded(r.length));
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

std::vector<LimeRecord> parse_lime_records(std::span<const std::uint8_t> file,
                                           const std::filesystem::path& path) {
  std::vector<LimeRecord> records;
  const std::uint64_t size = file.size();
  std::uint64_t offset = 0;
  while (offset < size) {
    if (size - offset < kLimeHeaderBytes) fail_truncated_header(path, offset, size - offset);
    records.push_back(decode_header(file.data() + offset, offset, size, path));
    offset = next_record(records.back(), size);
  }
  return records;
}

std::vector<LimeRecord> read_lime_records(const std::filesystem::path& path) {
  // Only the headers are read (seeking over the data), so listing a large file is cheap.
  std::uint64_t size = 0;
  (void)read_file_head(path, 0, size);  // existence, type and size, with the usual errors
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) fail("{}: cannot open ({})", path.string(), std::strerror(errno));
  std::vector<LimeRecord> records;
  std::uint8_t h[kLimeHeaderBytes];
  std::uint64_t offset = 0;
  while (offset < size) {
    if (size - offset < kLimeHeaderBytes) fail_truncated_header(path, offset, size - offset);
    if (::fseeko(f.get(), off_t(offset), SEEK_SET) != 0 || std::fread(h, 1, sizeof h, f.get()) != sizeof h)
      fail("{}: read error at offset {} ({})", path.string(), offset, std::strerror(errno));
    records.push_back(decode_header(h, offset, size, path));
    offset = next_record(records.back(), size);
  }
  return records;
}

const LimeRecord* find_lime_record(const std::vector<LimeRecord>& records, std::string_view type) {
  for (const LimeRecord& r : records)
    if (r.type == type) return &r;
  return nullptr;
}

std::string lime_record_text(std::span<const std::uint8_t> file, const LimeRecord& r) {
  const auto data = lime_record_data(file, r);
  std::string text(data.begin(), data.end());
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

std::vector<std::uint8_t> lime_record_header(std::string_view type, std::uint64_t length,
                                             bool message_begin, bool message_end) {
  if (type.size() >= kLimeTypeBytes)
    fail("LIME record type '{}' is longer than {} characters", type, kLimeTypeBytes - 1);
  std::vector<std::uint8_t> h(kLimeHeaderBytes, 0);
  store_uint<std::uint32_t>(h.data(), kLimeMagic, ByteOrder::big);
  store_uint<std::uint16_t>(h.data() + 4, kLimeVersion, ByteOrder::big);
  const std::uint16_t flags =
      std::uint16_t((message_begin ? kFlagMessageBegin : 0) | (message_end ? kFlagMessageEnd : 0));
  store_uint<std::uint16_t>(h.data() + 6, flags, ByteOrder::big);
  store_uint<std::uint64_t>(h.data() + 8, length, ByteOrder::big);
  std::memcpy(h.data() + 16, type.data(), type.size());
  return h;
}

void append_lime_record(std::vector<std::uint8_t>& out, std::string_view type, std::span<const std::uint8_t> data,
                        bool message_begin, bool message_end) {
  const auto header = lime_record_header(type, data.size(), message_begin, message_end);
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  out.insert(out.end(), lime_padding(data.size()), std::uint8_t(0));
}

void append_lime_text_record(std::vector<std::uint8_t>& out, std::string_view type, std::string_view text,
                             bool message_begin, bool message_end, bool nul_terminate) {
  std::vector<std::uint8_t> data(text.begin(), text.end());
  if (nul_terminate) data.push_back(0);
  append_lime_record(out, type, data, message_begin, message_end);
}

void LimeWriter::write_record(std::string_view type, std::span<const std::uint8_t> data,
                              bool message_begin, bool message_end) {
  if (type.size() >= kLimeTypeBytes)
    fail("{}: LIME record type '{}' is longer than {} characters", out_.final_path().string(), type,
         kLimeTypeBytes - 1);
  const auto header = lime_record_header(type, data.size(), message_begin, message_end);
  out_.write(header.data(), header.size());
  out_.write(data.data(), data.size());
  static constexpr std::uint8_t kZeros[8] = {};
  out_.write(kZeros, std::size_t(padded(data.size()) - data.size()));
}

void LimeWriter::write_text_record(std::string_view type, std::string_view text, bool message_begin,
                                   bool message_end, bool nul_terminate) {
  std::vector<std::uint8_t> data(text.begin(), text.end());
  if (nul_terminate) data.push_back(0);
  write_record(type, data, message_begin, message_end);
}

}  // namespace lqcd::io
