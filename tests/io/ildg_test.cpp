// ILDG/SciDAC writing and reading: bit-exact round trips, the record layout other codes expect,
// checksum detection of damaged data, and structural errors.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "io/byte_order.hpp"
#include "io/crc32.hpp"
#include "io/gauge_file.hpp"
#include "io/lime.hpp"
#include "io/link_codec.hpp"
#include "io/scidac_checksum.hpp"
#include "io_test_support.hpp"
#include "reference_observables.hpp"

namespace lqcd::test {
namespace {

using io::read_gauge_file;
using io::WriteOptions;

class IldgTest : public IoTest {};

std::vector<std::uint8_t> record_data(const fs::path& path, const std::string& type) {
  const auto bytes = read_bytes(path);
  const auto records = io::parse_lime_records(bytes, path);
  const auto* r = io::find_lime_record(records, type);
  EXPECT_NE(r, nullptr) << type;
  if (r == nullptr) return {};
  const auto data = io::lime_record_data(bytes, *r);
  return {data.begin(), data.end()};
}

TEST_F(IldgTest, RoundTrip64IsBitExact) {
  const auto field = random_gauge({4, 2, 6, 8}, 1);
  WriteOptions opt;
  opt.plaquette = reference_plaquette(field);
  opt.metadata = {{"beta", "6.0"}, {"sweep", "120"}, {"seed", "1"},
                  {"lqcd.program", "lqcd 0.1.0 (git abc, CUDA=OFF)"}};
  const auto path = tmp("conf.lime");
  io::write_ildg(path, field, opt);

  EXPECT_EQ(io::detect_gauge_format(path), "ildg");
  const auto g = read_gauge_file(path);
  EXPECT_EQ(g.info.format, "ildg");
  EXPECT_EQ(g.info.dims, (Dims{4, 2, 6, 8}));
  EXPECT_EQ(g.info.precision_bits, 64);
  EXPECT_EQ(g.info.checksum_ok, std::optional<bool>(true));
  EXPECT_TRUE(bit_identical(g.field, field));
  ASSERT_TRUE(g.info.header_plaquette.has_value());
  EXPECT_EQ(*g.info.header_plaquette, *opt.plaquette);  // written with round-trip precision
  EXPECT_EQ(g.info.metadata.at("beta"), "6.0");
  EXPECT_EQ(g.info.metadata.at("sweep"), "120");
  EXPECT_EQ(g.info.metadata.at("seed"), "1");
  EXPECT_EQ(g.info.metadata.at("lqcd.program"), "lqcd 0.1.0 (git abc, CUDA=OFF)");
  EXPECT_EQ(g.info.metadata.at("ildg-data-lfn"), "conf.lime");
}

TEST_F(IldgTest, RecordLayoutFollowsQio) {
  const auto field = random_gauge({2, 2, 2, 4}, 2);
  WriteOptions opt;
  opt.plaquette = 0.5;
  const auto path = tmp("layout.lime");
  io::write_ildg(path, field, opt);
  const auto records = io::read_lime_records(path);
  struct Expect {
    const char* type;
    bool mb, me;
  };
  const Expect expected[] = {{"scidac-private-file-xml", true, false},
                             {"scidac-file-xml", false, true},
                             {"scidac-private-record-xml", true, false},
                             {"scidac-record-xml", false, false},
                             {"ildg-format", false, false},
                             {"ildg-data-lfn", false, false},
                             {"ildg-binary-data", false, false},
                             {"scidac-checksum", false, true},
                             {"xlf-info", true, true}};
  ASSERT_EQ(records.size(), std::size(expected));
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].type, expected[i].type);
    EXPECT_EQ(records[i].message_begin, expected[i].mb) << records[i].type;
    EXPECT_EQ(records[i].message_end, expected[i].me) << records[i].type;
  }
  const auto format = record_data(path, "ildg-format");
  const std::string xml(format.begin(), format.end());
  EXPECT_NE(xml.find("<field>su3gauge</field>"), std::string::npos);
  EXPECT_NE(xml.find("<precision>64</precision><lx>2</lx><ly>2</ly><lz>2</lz><lt>4</lt>"), std::string::npos);
  const auto priv = record_data(path, "scidac-private-record-xml");
  const std::string pxml(priv.begin(), priv.end());
  EXPECT_NE(pxml.find("<precision>D</precision>"), std::string::npos);
  EXPECT_NE(pxml.find("<typesize>144</typesize><datacount>4</datacount>"), std::string::npos);
}

TEST_F(IldgTest, NoXlfInfoWithoutPlaquetteOrMetadata) {
  const auto path = tmp("plain.lime");
  io::write_ildg(path, random_gauge({2, 2, 2, 2}, 3), WriteOptions{});
  const auto records = io::read_lime_records(path);
  EXPECT_EQ(io::find_lime_record(records, "xlf-info"), nullptr);
  const auto g = read_gauge_file(path);
  EXPECT_FALSE(g.info.header_plaquette.has_value());
}

TEST_F(IldgTest, RoundTrip32IsExactAfterTheFirstRounding) {
  const auto field = random_gauge({4, 4, 2, 2}, 4);
  WriteOptions opt;
  opt.precision_bits = 32;
  const auto first = tmp("first.lime");
  io::write_ildg(first, field, opt);
  const auto g1 = read_gauge_file(first);
  EXPECT_EQ(g1.info.precision_bits, 32);
  EXPECT_EQ(g1.info.checksum_ok, std::optional<bool>(true));
  EXPECT_TRUE(bit_identical(g1.field, rounded_to_float(field)));
  EXPECT_LT(max_abs_difference(g1.field, field), 1e-7);

  const auto second = tmp("second.lime");
  io::write_ildg(second, g1.field, opt);
  EXPECT_EQ(record_data(first, "ildg-binary-data"), record_data(second, "ildg-binary-data"));
  EXPECT_EQ(record_data(first, "scidac-checksum"), record_data(second, "scidac-checksum"));
  EXPECT_TRUE(bit_identical(read_gauge_file(second).field, g1.field));
  const auto priv = record_data(first, "scidac-private-record-xml");
  EXPECT_NE(std::string(priv.begin(), priv.end()).find("<precision>F</precision>"), std::string::npos);
}

TEST_F(IldgTest, RewritingAReferenceFileReproducesItsBinaryDataAndChecksum) {
  // cl2qcd_conf.00200.ildg is 64-bit big-endian ILDG: our writer must produce the same bytes and
  // therefore the checksum CL2QCD wrote (a3b09c8/d7a6d9a1).
  const auto ref = testdata("cl2qcd_conf.00200.ildg");
  const auto g = read_gauge_file(ref);
  const auto path = tmp("rewritten.lime");
  io::write_ildg(path, g.field, WriteOptions{});
  EXPECT_EQ(record_data(path, "ildg-binary-data"), record_data(ref, "ildg-binary-data"));
  const auto back = read_gauge_file(path);
  EXPECT_EQ(back.info.checksum_detail, "scidac suma/sumb a3b09c8/d7a6d9a1 (computed a3b09c8/d7a6d9a1)");
}

TEST_F(IldgTest, FlippedByteGivesChecksumMismatch) {
  for (const char* name : {"chroma_weak_field_4x4x4x8.lime", "milc_l4444.scidac", "cl2qcd_conf.00200.ildg"}) {
    auto bytes = read_bytes(testdata(name));
    const auto records = io::parse_lime_records(bytes, name);
    const auto* binary = io::find_lime_record(records, "ildg-binary-data");
    if (binary == nullptr) binary = io::find_lime_record(records, "scidac-binary-data");
    ASSERT_NE(binary, nullptr);
    // A low mantissa byte: the value stays finite, only the checksum can notice.
    bytes[binary->data_offset + 1000 * 8 + 7] ^= 0x01;
    const auto path = tmp(std::string("flipped_") + name);
    write_bytes(path, bytes);
    const auto g = read_gauge_file(path);
    EXPECT_EQ(g.info.checksum_ok, std::optional<bool>(false)) << name << ": " << g.info.checksum_detail;
  }
}

TEST_F(IldgTest, BinaryRecordOfTheWrongSizeIsAnError) {
  // A well-formed LIME file whose ildg-format promises 4x4x4x8 but whose data hold 4x4x4x4.
  const auto path = tmp("wrong_size.lime");
  const auto data = io::encode_site_major(random_gauge({4, 4, 4, 4}, 5), io::RealFormat{8, io::ByteOrder::big});
  {
    io::AtomicFile out(path);
    io::LimeWriter lime(out);
    lime.write_text_record("ildg-format",
                           "<ildgFormat><field>su3gauge</field><precision>64</precision>"
                           "<lx>4</lx><ly>4</ly><lz>4</lz><lt>8</lt></ildgFormat>",
                           true, false);
    lime.write_record("ildg-binary-data", data, false, true);
    out.commit();
  }
  expect_error_naming([&] { read_gauge_file(path); }, path,
                      {"ildg-binary-data", std::to_string(data.size()), std::to_string(2 * data.size())});
}

TEST_F(IldgTest, MissingBinaryRecordOrFormatIsAnError) {
  const auto path = tmp("no_binary.lime");
  {
    io::AtomicFile out(path);
    io::LimeWriter lime(out);
    lime.write_text_record("ildg-format", "<ildgFormat><precision>64</precision><lx>2</lx><ly>2</ly><lz>2</lz><lt>2</lt></ildgFormat>", true, true);
    out.commit();
  }
  expect_error_naming([&] { read_gauge_file(path); }, path, {"ildg-binary-data"});

  const auto path2 = tmp("no_format.lime");
  {
    io::AtomicFile out(path2);
    io::LimeWriter lime(out);
    lime.write_text_record("something-else", "hello", true, true);
    out.commit();
  }
  expect_error_naming([&] { read_gauge_file(path2); }, path2, {"ildg-format"});

  const auto path3 = tmp("bad_precision.lime");
  {
    io::AtomicFile out(path3);
    io::LimeWriter lime(out);
    lime.write_text_record("ildg-format", "<ildgFormat><precision>16</precision><lx>2</lx><ly>2</ly><lz>2</lz><lt>2</lt></ildgFormat>", true, true);
    out.commit();
  }
  expect_error_naming([&] { read_gauge_file(path3); }, path3, {"precision"});
}

TEST_F(IldgTest, TruncatedFileIsAnError) {
  auto bytes = read_bytes(testdata("tmlqcd_4x4x4x4.ildg"));
  bytes.resize(bytes.size() / 2);
  const auto path = tmp("truncated.ildg");
  write_bytes(path, bytes);
  expect_error_naming([&] { read_gauge_file(path); }, path, {"ildg-binary-data"});
}

TEST_F(IldgTest, NanInTheDataIsAnError) {
  auto bytes = read_bytes(testdata("chroma_weak_field_4x4x4x8.lime"));
  const auto records = io::parse_lime_records(bytes, "x");
  const auto* binary = io::find_lime_record(records, "ildg-binary-data");
  // Site 5 (x=1, y=1), mu = 2, element (0,0).re.
  const std::size_t at = binary->data_offset + (5 * 4 + 2) * 18 * 8;
  io::store_f64(bytes.data() + at, std::numeric_limits<double>::quiet_NaN(), io::ByteOrder::big);
  const auto path = tmp("nan.lime");
  write_bytes(path, bytes);
  expect_error_naming([&] { read_gauge_file(path); }, path, {"site 5", "mu = 2"});
}

TEST_F(IldgTest, WriterRefusesNonFiniteFieldsAndBadPrecision) {
  auto field = random_gauge({2, 2, 2, 2}, 6);
  const auto path = tmp("refused.lime");
  WriteOptions opt;
  opt.precision_bits = 16;
  expect_error_naming([&] { io::write_ildg(path, field, opt); }, path, {"precision"});
  field.links[3].m[1][1].im = std::numeric_limits<double>::infinity();
  expect_error_naming([&] { io::write_ildg(path, field, WriteOptions{}); }, path, {"non-finite"});
  EXPECT_FALSE(fs::exists(path));
}

TEST(ScidacChecksum, RotationsFollowTheSiteRank) {
  // Two sites of 4 bytes: c0 rotated by 0, c1 rotated by 1 (rank mod 29 and mod 31).
  const std::vector<std::uint8_t> data = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::uint32_t c0 = io::crc32(data.data(), 4), c1 = io::crc32(data.data() + 4, 4);
  const auto sum = io::scidac_checksum(data, 4);
  const std::uint32_t expected = c0 ^ ((c1 << 1) | (c1 >> 31));
  EXPECT_EQ(sum.suma, expected);
  EXPECT_EQ(sum.sumb, expected);
  // Rank 29 wraps in suma but not in sumb.
  std::vector<std::uint8_t> many(30 * 4, 0);
  many[29 * 4] = 0xff;
  const auto s2 = io::scidac_checksum(many, 4);
  EXPECT_NE(s2.suma, s2.sumb);
}

}  // namespace
}  // namespace lqcd::test
