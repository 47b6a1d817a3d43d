#pragma once
// LIME (Lattice-QCD Interchange Message Encapsulation, USQCD; the container of ILDG and SciDAC
// files). A file is a sequence of records, each
//   a 144-byte header: uint32 magic 0x456789ab, uint16 version (1), uint16 flags
//                      (bit 15 message begin, bit 14 message end), uint64 data length,
//                      128-byte NUL-padded type string — all integers big-endian;
//   the data, padded with NULs to a multiple of 8 bytes.
// Records are grouped into messages by the MB/ME flags. Readers look records up by type and skip
// the ones they do not know, which is how ILDG, SciDAC and private records coexist in one file.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/atomic_file.hpp"

namespace lqcd::io {

constexpr std::uint32_t kLimeMagic = 0x456789abu;
constexpr std::size_t kLimeHeaderBytes = 144;
constexpr std::size_t kLimeTypeBytes = 128;

struct LimeRecord {
  std::string type;
  std::uint64_t header_offset = 0;  // where the 144-byte header starts
  std::uint64_t data_offset = 0;    // where the data start (header_offset + 144)
  std::uint64_t length = 0;         // data bytes, without the padding
  bool message_begin = false;
  bool message_end = false;
};

// The records of a LIME file held in memory. Throws lqcd::Error naming `path` (and the offset of the
// record) for a bad magic number or version, a header cut off by the end of the file, or data that
// run past the end of the file. Missing padding after the last record is tolerated (some writers
// omit it).
std::vector<LimeRecord> parse_lime_records(std::span<const std::uint8_t> file,
                                           const std::filesystem::path& path);
// The same, reading the file first.
std::vector<LimeRecord> read_lime_records(const std::filesystem::path& path);

// The first record of the given type, or nullptr.
const LimeRecord* find_lime_record(const std::vector<LimeRecord>& records, std::string_view type);

// The data of a record viewed inside the file buffer.
inline std::span<const std::uint8_t> lime_record_data(std::span<const std::uint8_t> file,
                                                      const LimeRecord& r) {
  return file.subspan(std::size_t(r.data_offset), std::size_t(r.length));
}
// The data of a text record (XML, xlf-info) as a string, with trailing NULs removed: QIO and c-lime
// writers include the C string terminator in the record length.
std::string lime_record_text(std::span<const std::uint8_t> file, const LimeRecord& r);

// Writes records one after another into an AtomicFile, padding each to 8 bytes. The caller states
// the message structure with the MB/ME flags.
class LimeWriter {
 public:
  explicit LimeWriter(AtomicFile& out) : out_(out) {}
  void write_record(std::string_view type, std::span<const std::uint8_t> data, bool message_begin,
                    bool message_end);
  // Text records; `nul_terminate` appends the C terminator as QIO does for its XML records.
  void write_text_record(std::string_view type, std::string_view text, bool message_begin,
                         bool message_end, bool nul_terminate = true);

 private:
  AtomicFile& out_;
};

// The same records appended to a buffer, for writers that place the bytes themselves (parallel ILDG:
// rank 0 writes the records around the binary data, every rank its part of the data).
void append_lime_record(std::vector<std::uint8_t>& out, std::string_view type, std::span<const std::uint8_t> data,
                        bool message_begin, bool message_end);
void append_lime_text_record(std::vector<std::uint8_t>& out, std::string_view type, std::string_view text,
                             bool message_begin, bool message_end, bool nul_terminate = true);
// NUL bytes that pad a record of `length` data bytes to a multiple of 8.
constexpr std::size_t lime_padding(std::uint64_t length) { return std::size_t((8 - length % 8) % 8); }

// The 144-byte header of one record (exposed for tests that construct damaged files).
std::vector<std::uint8_t> lime_record_header(std::string_view type, std::uint64_t length,
                                             bool message_begin, bool message_end);

}  // namespace lqcd::io
