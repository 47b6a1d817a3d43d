// CRC-32 against the published check value and zlib's chaining behaviour.

#include <gtest/gtest.h>

#include <string>

#include "io/crc32.hpp"

namespace lqcd::io {
namespace {

TEST(Crc32, CheckValueOfTheStandard) {
  // The "check" value of CRC-32/ISO-HDLC (the CRC of zlib and of the SciDAC checksum).
  const std::string s = "123456789";
  EXPECT_EQ(crc32(s.data(), s.size()), 0xCBF43926u);
}

TEST(Crc32, EmptyInputAndKnownStrings) {
  EXPECT_EQ(crc32(nullptr, 0), 0u);
  const std::string fox = "The quick brown fox jumps over the lazy dog";
  EXPECT_EQ(crc32(fox.data(), fox.size()), 0x414FA339u);
}

TEST(Crc32, ChainsLikeZlib) {
  const std::string s = "lattice QCD configuration bytes";
  const std::uint32_t whole = crc32(s.data(), s.size());
  const std::uint32_t part = crc32(s.data(), 10);
  EXPECT_EQ(crc32(s.data() + 10, s.size() - 10, part), whole);
}

}  // namespace
}  // namespace lqcd::io
