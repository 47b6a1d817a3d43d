// NERSC archive files: round trips of our writer, reading files written "by hand" in the test (the
// compressed 4D_SU3_GAUGE form, little-endian data), checksum conventions, structural errors.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "io/gauge_file.hpp"
#include "io/nersc.hpp"
#include "io_test_support.hpp"
#include "reference_observables.hpp"

namespace lqcd::test {
namespace {

using io::read_gauge_file;
using io::WriteOptions;

class NerscTest : public IoTest {};

// Test-side encoder, independent of the library: `rows` rows of every link, as big- or
// little-endian float or double, plus the NERSC checksum (sum of the 32-bit words of the values).
struct HandWritten {
  std::vector<std::uint8_t> data;
  std::uint32_t checksum = 0;
};

template <typename Real>
HandWritten hand_encode(const LexicographicGauge& g, int rows, bool big_endian) {
  using Word = std::conditional_t<sizeof(Real) == 4, std::uint32_t, std::uint64_t>;
  HandWritten out;
  auto put = [&](double v) {
    const Word w = std::bit_cast<Word>(Real(v));
    if constexpr (sizeof(Word) == 4) {
      out.checksum += w;
    } else {
      out.checksum += std::uint32_t(w) + std::uint32_t(w >> 32);
    }
    for (std::size_t b = 0; b < sizeof(Word); ++b) {
      const std::size_t shift = 8 * (big_endian ? sizeof(Word) - 1 - b : b);
      out.data.push_back(std::uint8_t(w >> shift));
    }
  };
  for (const auto& u : g.links)
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < 3; ++j) {
        put(u.m[i][j].re);
        put(u.m[i][j].im);
      }
  return out;
}

std::vector<std::uint8_t> nersc_file(const Dims& d, const std::string& datatype, const std::string& fp,
                                     const HandWritten& body, const std::string& extra = "") {
  std::vector<std::uint8_t> bytes;
  append_text(bytes, fmt::format("BEGIN_HEADER\nHDR_VERSION = 1.0\nDATATYPE = {}\nDIMENSION_1 = {}\n"
                                 "DIMENSION_2 = {}\nDIMENSION_3 = {}\nDIMENSION_4 = {}\nCHECKSUM = {:x}\n"
                                 "FLOATING_POINT = {}\n{}END_HEADER\n",
                                 datatype, d[0], d[1], d[2], d[3], body.checksum, fp, extra));
  bytes.insert(bytes.end(), body.data.begin(), body.data.end());
  return bytes;
}

TEST_F(NerscTest, RoundTrip64IsBitExactWithHeaderValues) {
  const auto field = random_gauge({4, 4, 2, 6}, 11);
  WriteOptions opt;
  opt.plaquette = reference_plaquette(field);
  opt.metadata = {{"ENSEMBLE_ID", "test-ensemble"}, {"SEQUENCE_NUMBER", "42"}, {"beta", "6.0"},
                  {"CHECKSUM", "deadbeef"} /* structural: must be ignored */};
  const auto path = tmp("conf.nersc");
  io::write_nersc(path, field, opt);
  EXPECT_EQ(io::detect_gauge_format(path), "nersc");
  const auto g = read_gauge_file(path);
  EXPECT_EQ(g.info.format, "nersc");
  EXPECT_EQ(g.info.dims, (Dims{4, 4, 2, 6}));
  EXPECT_EQ(g.info.precision_bits, 64);
  EXPECT_EQ(g.info.checksum_ok, std::optional<bool>(true)) << g.info.checksum_detail;
  EXPECT_TRUE(bit_identical(g.field, field));
  ASSERT_TRUE(g.info.header_plaquette && g.info.header_link_trace);
  EXPECT_EQ(*g.info.header_plaquette, *opt.plaquette);
  EXPECT_NEAR(*g.info.header_link_trace, reference_link_trace(field), 1e-15);
  EXPECT_EQ(g.info.metadata.at("DATATYPE"), "4D_SU3_GAUGE_3x3");
  EXPECT_EQ(g.info.metadata.at("FLOATING_POINT"), "IEEE64BIG");
  EXPECT_EQ(g.info.metadata.at("ENSEMBLE_ID"), "test-ensemble");
  EXPECT_EQ(g.info.metadata.at("SEQUENCE_NUMBER"), "42");
  EXPECT_EQ(g.info.metadata.at("beta"), "6.0");
  EXPECT_EQ(g.info.metadata.at("BOUNDARY_4"), "PERIODIC");
  EXPECT_NE(g.info.metadata.at("CHECKSUM"), "deadbeef");
  // Our writer's checksum equals the test's independent sum over the stored words.
  EXPECT_EQ(std::stoul(g.info.metadata.at("CHECKSUM"), nullptr, 16),
            hand_encode<double>(field, 3, true).checksum);
}

TEST_F(NerscTest, RoundTrip32IsExactAfterRoundingAndKeepsGivenLinkTrace) {
  const auto field = random_gauge({2, 4, 4, 2}, 12);
  WriteOptions opt;
  opt.precision_bits = 32;
  opt.link_trace = 0.125;
  const auto path = tmp("conf32.nersc");
  io::write_nersc(path, field, opt);
  const auto g = read_gauge_file(path);
  EXPECT_EQ(g.info.precision_bits, 32);
  EXPECT_EQ(g.info.metadata.at("FLOATING_POINT"), "IEEE32BIG");
  EXPECT_EQ(g.info.checksum_ok, std::optional<bool>(true));
  EXPECT_FALSE(g.info.header_plaquette.has_value());  // PLAQUETTE only when given
  EXPECT_EQ(g.info.header_link_trace, std::optional<double>(0.125));
  EXPECT_TRUE(bit_identical(g.field, rounded_to_float(field)));
  const auto again = tmp("again32.nersc");
  io::write_nersc(again, g.field, opt);
  EXPECT_TRUE(bit_identical(read_gauge_file(again).field, g.field));
}

TEST_F(NerscTest, CompressedTwoRowFileRebuildsTheThirdRow) {
  const auto field = random_gauge({4, 2, 2, 4}, 13);  // reunitarised: exact SU(3) up to rounding
  const auto body = hand_encode<double>(field, 2, true);
  const auto path = tmp("two_rows.nersc");
  write_bytes(path, nersc_file(field.dims, "4D_SU3_GAUGE", "IEEE64BIG", body));
  const auto g = read_gauge_file(path);
  EXPECT_EQ(g.info.checksum_ok, std::optional<bool>(true)) << g.info.checksum_detail;
  double worst = 0;
  for (std::size_t i = 0; i < field.links.size(); ++i)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        worst = std::max(worst, std::abs(g.field.links[i].m[r][c].re - field.links[i].m[r][c].re));
        worst = std::max(worst, std::abs(g.field.links[i].m[r][c].im - field.links[i].m[r][c].im));
      }
  EXPECT_LT(worst, 1e-12);
  EXPECT_NEAR(reference_plaquette(g.field), reference_plaquette(field), 1e-13);
}

TEST_F(NerscTest, LittleEndianAndShortFloatingPointNames) {
  const auto field = random_gauge({2, 2, 2, 2}, 14);
  for (const bool big : {false, true}) {
    const auto body32 = hand_encode<float>(field, 3, big);
    const auto body64 = hand_encode<double>(field, 3, big);
    const auto p32 = tmp(big ? "be32.nersc" : "le32.nersc");
    const auto p64 = tmp(big ? "be64.nersc" : "le64.nersc");
    write_bytes(p32, nersc_file(field.dims, "4D_SU3_GAUGE_3x3", big ? "IEEE32" : "IEEE32LITTLE", body32));
    write_bytes(p64, nersc_file(field.dims, "4D_SU3_GAUGE_3x3", big ? "IEEE64" : "IEEE64LITTLE", body64));
    const auto g32 = read_gauge_file(p32);
    const auto g64 = read_gauge_file(p64);
    EXPECT_EQ(g32.info.checksum_ok, std::optional<bool>(true));
    EXPECT_EQ(g64.info.checksum_ok, std::optional<bool>(true));
    EXPECT_TRUE(bit_identical(g32.field, rounded_to_float(field)));
    EXPECT_TRUE(bit_identical(g64.field, field));
  }
}

TEST_F(NerscTest, ChecksumConventionMatchesMilc) {
  // MILC's .info for milc_l8888_b6.0.milc records gauge.nersc_checksum = 1245429571, computed by
  // MILC's nersc_cksum (sum of the float32 words of the first two rows). Storing that field as a
  // single-precision 4D_SU3_GAUGE file must reproduce it with our reader's checksum.
  const auto milc = read_gauge_file(testdata("milc_l8888_b6.0.milc"));
  const auto body = hand_encode<float>(milc.field, 2, true);
  const auto path = tmp("milc_as_nersc.nersc");
  HandWritten stated = body;
  stated.checksum = 1245429571u;
  write_bytes(path, nersc_file(milc.field.dims, "4D_SU3_GAUGE", "IEEE32BIG", stated));
  const auto g = read_gauge_file(path);
  EXPECT_EQ(g.info.checksum_ok, std::optional<bool>(true)) << g.info.checksum_detail;
  EXPECT_EQ(io::nersc_checksum(body.data, io::RealFormat{4, io::ByteOrder::big}), 1245429571u);
}

TEST_F(NerscTest, FlippedByteGivesChecksumMismatch) {
  const auto path = tmp("flip.nersc");
  io::write_nersc(path, random_gauge({2, 2, 2, 2}, 15), WriteOptions{});
  auto bytes = read_bytes(path);
  bytes[bytes.size() - 100] ^= 0x01;
  write_bytes(path, bytes);
  const auto g = read_gauge_file(path);
  EXPECT_EQ(g.info.checksum_ok, std::optional<bool>(false));
}

TEST_F(NerscTest, NoChecksumKeyMeansUnknown) {
  const auto field = random_gauge({2, 2, 2, 2}, 16);
  const auto body = hand_encode<double>(field, 3, true);
  auto bytes = nersc_file(field.dims, "4D_SU3_GAUGE_3x3", "IEEE64BIG", body);
  const std::string text(bytes.begin(), bytes.begin() + 200);
  const auto at = text.find("CHECKSUM");
  const auto eol = text.find('\n', at);
  bytes.erase(bytes.begin() + long(at), bytes.begin() + long(eol) + 1);
  const auto path = tmp("nochecksum.nersc");
  write_bytes(path, bytes);
  const auto g = read_gauge_file(path);
  EXPECT_FALSE(g.info.checksum_ok.has_value());
}

TEST_F(NerscTest, DimsNotMatchingTheDataAreAnError) {
  const auto field = random_gauge({2, 2, 2, 2}, 17);
  const auto body = hand_encode<double>(field, 3, true);
  const auto path = tmp("dims.nersc");
  write_bytes(path, nersc_file({2, 2, 2, 4}, "4D_SU3_GAUGE_3x3", "IEEE64BIG", body));
  expect_error_naming([&] { read_gauge_file(path); }, path, {"DIMENSION_1..4", "2x2x2x4"});
  // Same with a truncated file.
  io::write_nersc(path, field, WriteOptions{});
  auto bytes = read_bytes(path);
  bytes.erase(bytes.end() - 8, bytes.end());
  write_bytes(path, bytes);
  expect_error_naming([&] { read_gauge_file(path); }, path, {"bytes"});
}

TEST_F(NerscTest, BadHeadersAreErrors) {
  const auto field = random_gauge({2, 2, 2, 2}, 18);
  const auto body = hand_encode<double>(field, 3, true);
  const auto p1 = tmp("fp.nersc");
  write_bytes(p1, nersc_file(field.dims, "4D_SU3_GAUGE_3x3", "IEEE128BIG", body));
  expect_error_naming([&] { read_gauge_file(p1); }, p1, {"FLOATING_POINT"});
  const auto p2 = tmp("datatype.nersc");
  write_bytes(p2, nersc_file(field.dims, "4D_SU2_GAUGE", "IEEE64BIG", body));
  expect_error_naming([&] { read_gauge_file(p2); }, p2, {"DATATYPE"});
  const auto p3 = tmp("noend.nersc");
  std::vector<std::uint8_t> noend;
  append_text(noend, "BEGIN_HEADER\nDATATYPE = 4D_SU3_GAUGE_3x3\nDIMENSION_1 = 2\n");
  write_bytes(p3, noend);
  expect_error_naming([&] { read_gauge_file(p3); }, p3, {"END_HEADER"});
  const auto p4 = tmp("dimtext.nersc");
  write_bytes(p4, nersc_file({2, 2, 2, 2}, "4D_SU3_GAUGE_3x3", "IEEE64BIG", body, "PLAQUETTE = abc\n"));
  expect_error_naming([&] { read_gauge_file(p4); }, p4, {"PLAQUETTE"});
}

TEST_F(NerscTest, NanInTheDataIsAnError) {
  auto field = random_gauge({2, 2, 2, 2}, 19);
  field.links[4 * 9 + 1].m[2][0].re = std::numeric_limits<double>::quiet_NaN();
  const auto body = hand_encode<double>(field, 3, true);
  const auto path = tmp("nan.nersc");
  write_bytes(path, nersc_file(field.dims, "4D_SU3_GAUGE_3x3", "IEEE64BIG", body));
  expect_error_naming([&] { read_gauge_file(path); }, path, {"site 9", "mu = 1"});
}

}  // namespace
}  // namespace lqcd::test
