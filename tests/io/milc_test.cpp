// MILC binary (v5) reading: both byte orders, the sum29/sum31 checksum, rejected variants.

#include <gtest/gtest.h>

#include "io/byte_order.hpp"
#include "io/gauge_file.hpp"
#include "io/milc.hpp"
#include "io_test_support.hpp"
#include "reference_observables.hpp"

namespace lqcd::test {
namespace {

using io::read_gauge_file;

class MilcTest : public IoTest {};

// Test-only: the same file in the other byte order (every 32-bit word of header and data swapped;
// the 64-byte time stamp is text and stays as it is).
std::vector<std::uint8_t> byte_swapped_copy(const std::vector<std::uint8_t>& in) {
  std::vector<std::uint8_t> out = in;
  auto swap_word = [&](std::size_t at) {
    for (int k = 0; k < 4; ++k) out[at + std::size_t(k)] = in[at + 3 - std::size_t(k)];
  };
  for (std::size_t at = 0; at < 20; at += 4) swap_word(at);  // magic, dims
  for (std::size_t at = 84; at < in.size(); at += 4) swap_word(at);  // order, sums, data
  return out;
}

TEST_F(MilcTest, KnownFileChecksumsAndPlaquette) {
  const auto g = read_gauge_file(testdata("milc_l8888_b6.0.milc"));
  EXPECT_EQ(g.info.format, "milc");
  EXPECT_EQ(g.info.dims, (Dims{8, 8, 8, 8}));
  EXPECT_EQ(g.info.precision_bits, 32);
  EXPECT_EQ(g.info.checksum_ok, std::optional<bool>(true));
  EXPECT_EQ(g.info.checksum_detail, "milc sum29/sum31 4f9d000e/8d72f72e (computed 4f9d000e/8d72f72e)");
  EXPECT_EQ(g.info.metadata.at("byte_order"), "little-endian");
  const auto bytes = read_bytes(testdata("milc_l8888_b6.0.milc"));
  const auto sums = io::milc_checksum(std::span(bytes).subspan(96), io::ByteOrder::little);
  EXPECT_EQ(sums.sum29, 0x4f9d000eu);
  EXPECT_EQ(sums.sum31, 0x8d72f72eu);
  EXPECT_NEAR(reference_plaquette(g.field), 0.593560240433, 1e-6 * 0.593560240433);
  EXPECT_NEAR(reference_link_trace(g.field), -0.000646, 5e-7);
}

TEST_F(MilcTest, BigEndianCopyReadsToTheSameField) {
  const auto little = read_gauge_file(testdata("milc_l8888_b6.0.milc"));
  const auto path = tmp("swapped.milc");
  write_bytes(path, byte_swapped_copy(read_bytes(testdata("milc_l8888_b6.0.milc"))));
  EXPECT_EQ(io::detect_gauge_format(path), "milc");
  const auto big = read_gauge_file(path);
  EXPECT_EQ(big.info.metadata.at("byte_order"), "big-endian");
  EXPECT_EQ(big.info.dims, little.info.dims);
  // The checksum is over words in native order, so it does not change with the file's byte order.
  EXPECT_EQ(big.info.checksum_ok, std::optional<bool>(true)) << big.info.checksum_detail;
  EXPECT_EQ(big.info.checksum_detail, little.info.checksum_detail);
  EXPECT_TRUE(bit_identical(big.field, little.field));
}

TEST_F(MilcTest, FlippedByteGivesChecksumMismatch) {
  auto bytes = read_bytes(testdata("milc_l8888_b6.0.milc"));
  bytes[96 + 4 * 1234] ^= 0x01;  // lowest mantissa byte of a little-endian float
  const auto path = tmp("flipped.milc");
  write_bytes(path, bytes);
  const auto g = read_gauge_file(path);
  EXPECT_EQ(g.info.checksum_ok, std::optional<bool>(false)) << g.info.checksum_detail;
}

TEST_F(MilcTest, SiteOrderedFilesAreRejected) {
  auto bytes = read_bytes(testdata("milc_l8888_b6.0.milc"));
  io::store_uint<std::uint32_t>(bytes.data() + 84, 1, io::ByteOrder::little);
  const auto path = tmp("ordered.milc");
  write_bytes(path, bytes);
  expect_error_naming([&] { read_gauge_file(path); }, path,
                      {"site-ordered MILC files are not supported"});
}

TEST_F(MilcTest, TruncatedAndWrongDimsAreErrors) {
  auto bytes = read_bytes(testdata("milc_l8888_b6.0.milc"));
  auto truncated = bytes;
  truncated.erase(truncated.end() - 4, truncated.end());  // (resize: a GCC 12 -Wstringop-overflow false positive)
  const auto p1 = tmp("truncated.milc");
  write_bytes(p1, truncated);
  expect_error_naming([&] { read_gauge_file(p1); }, p1, {"8x8x8x8"});
  auto dims = bytes;
  io::store_uint<std::uint32_t>(dims.data() + 16, 16, io::ByteOrder::little);  // nt = 16
  const auto p2 = tmp("dims.milc");
  write_bytes(p2, dims);
  expect_error_naming([&] { read_gauge_file(p2); }, p2, {"8x8x8x16"});
  const auto p3 = tmp("header.milc");
  write_bytes(p3, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 40));
  expect_error_naming([&] { read_gauge_file(p3); }, p3, {"MILC header"});
}

TEST_F(MilcTest, NanInTheDataIsAnError) {
  auto bytes = read_bytes(testdata("milc_l8888_b6.0.milc"));
  // Site 100, mu = 3, element (1,1).im: word 3*18 + 2*(3+1) + 1 = 63 of the site.
  io::store_uint<std::uint32_t>(bytes.data() + 96 + (100 * 72 + 63) * 4, 0x7fc00000u, io::ByteOrder::little);
  const auto path = tmp("nan.milc");
  write_bytes(path, bytes);
  expect_error_naming([&] { read_gauge_file(path); }, path, {"site 100", "mu = 3"});
}

}  // namespace
}  // namespace lqcd::test
