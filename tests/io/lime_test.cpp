// The LIME record layer: listing real files, writing records (flags, padding) and rejecting damaged
// containers with one-line errors that name the file.

#include <gtest/gtest.h>

#include "io/byte_order.hpp"
#include "io/file_bytes.hpp"
#include "io/lime.hpp"
#include "io_test_support.hpp"

namespace lqcd::test {
namespace {

using io::LimeRecord;

TEST(Lime, ListsTheRecordsOfAChromaFile) {
  const auto records = io::read_lime_records(testdata("chroma_weak_field_4x4x4x8.lime"));
  ASSERT_EQ(records.size(), 7u);
  const char* types[] = {"scidac-private-file-xml", "scidac-file-xml", "scidac-private-record-xml",
                         "scidac-record-xml",       "ildg-format",     "ildg-binary-data",
                         "scidac-checksum"};
  for (std::size_t i = 0; i < records.size(); ++i) EXPECT_EQ(records[i].type, types[i]);
  EXPECT_TRUE(records[0].message_begin);
  EXPECT_TRUE(records[1].message_end);
  EXPECT_TRUE(records[2].message_begin);
  EXPECT_FALSE(records[5].message_begin || records[5].message_end);
  EXPECT_TRUE(records[6].message_end);
  EXPECT_EQ(records[5].length, 4u * 4 * 4 * 8 * 4 * 18 * 8);
  EXPECT_EQ(records[5].data_offset, 1752u);
  // The in-memory parser agrees with the header-seeking one.
  const auto bytes = read_bytes(testdata("chroma_weak_field_4x4x4x8.lime"));
  const auto parsed = io::parse_lime_records(bytes, "x");
  ASSERT_EQ(parsed.size(), records.size());
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    EXPECT_EQ(parsed[i].type, records[i].type);
    EXPECT_EQ(parsed[i].data_offset, records[i].data_offset);
    EXPECT_EQ(parsed[i].length, records[i].length);
  }
}

class LimeFileTest : public IoTest {};

TEST_F(LimeFileTest, WriterPadsAndFlagsRecords) {
  const auto path = tmp("three.lime");
  {
    io::AtomicFile out(path);
    io::LimeWriter lime(out);
    lime.write_text_record("first", "abc", true, false, /*nul_terminate=*/false);
    const std::vector<std::uint8_t> eight(8, 0x5a);
    lime.write_record("second", eight, false, true);
    lime.write_text_record("third", "xml", true, true);
    out.commit();
  }
  const auto bytes = read_bytes(path);
  EXPECT_EQ(bytes.size(), 3 * 144 + 8 + 8 + 8u);
  const auto records = io::parse_lime_records(bytes, path);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].type, "first");
  EXPECT_EQ(records[0].length, 3u);
  EXPECT_TRUE(records[0].message_begin);
  EXPECT_FALSE(records[0].message_end);
  EXPECT_EQ(records[1].header_offset, 144u + 8);
  EXPECT_FALSE(records[1].message_begin);
  EXPECT_TRUE(records[1].message_end);
  EXPECT_EQ(records[2].length, 4u);  // "xml" + NUL
  EXPECT_EQ(io::lime_record_text(bytes, records[2]), "xml");
  // Header fields as the spec lays them out: magic, version 1, flags (MB = bit 15, ME = bit 14).
  EXPECT_EQ(io::load_u32(bytes.data(), io::ByteOrder::big), 0x456789abu);
  EXPECT_EQ(bytes[4], 0);
  EXPECT_EQ(bytes[5], 1);
  EXPECT_EQ(bytes[6], 0x80);
  EXPECT_EQ(bytes[7], 0x00);
  const std::size_t third = records[2].header_offset;
  EXPECT_EQ(bytes[third + 6], 0xC0);
  // Padding is NUL.
  EXPECT_EQ(bytes[144 + 3], 0);
  EXPECT_EQ(bytes[144 + 7], 0);
}

TEST_F(LimeFileTest, RecordLengthPastTheEndIsAnError) {
  auto bytes = read_bytes(testdata("milc_l4444.ildg"));
  const auto records = io::parse_lime_records(bytes, "x");
  const auto* binary = io::find_lime_record(records, "ildg-binary-data");
  ASSERT_NE(binary, nullptr);
  io::store_uint<std::uint64_t>(bytes.data() + binary->header_offset + 8, binary->length + 1000000,
                                io::ByteOrder::big);
  const auto path = tmp("long_record.ildg");
  write_bytes(path, bytes);
  expect_error_naming([&] { io::read_lime_records(path); }, path, {"ildg-binary-data", "declares"});
}

TEST_F(LimeFileTest, ShortenedRecordLengthIsAnError) {
  // The next header is then looked for inside the data: bad magic.
  auto bytes = read_bytes(testdata("milc_l4444.ildg"));
  const auto records = io::parse_lime_records(bytes, "x");
  const auto* binary = io::find_lime_record(records, "ildg-binary-data");
  io::store_uint<std::uint64_t>(bytes.data() + binary->header_offset + 8, binary->length - 64,
                                io::ByteOrder::big);
  const auto path = tmp("short_record.ildg");
  write_bytes(path, bytes);
  expect_error_naming([&] { io::read_lime_records(path); }, path, {"magic"});
}

TEST_F(LimeFileTest, TruncatedHeaderIsAnError) {
  auto bytes = read_bytes(testdata("milc_l4444.ildg"));
  bytes.resize(144 + 152 + 100);  // first record complete, second header cut
  const auto path = tmp("truncated.ildg");
  write_bytes(path, bytes);
  expect_error_naming([&] { io::read_lime_records(path); }, path, {"truncated"});
}

TEST_F(LimeFileTest, WrongVersionIsAnError) {
  auto bytes = read_bytes(testdata("milc_l4444.ildg"));
  bytes[5] = 2;
  const auto path = tmp("version.ildg");
  write_bytes(path, bytes);
  expect_error_naming([&] { io::read_lime_records(path); }, path, {"version"});
}

}  // namespace
}  // namespace lqcd::test
