// The tolerant text parsers behind the NERSC header, xlf-info records and the LIME XML records.

#include <gtest/gtest.h>

#include "io/text_parsing.hpp"

namespace lqcd::io {
namespace {

TEST(TextParsing, XmlTagsAreFoundDespiteBrokenAttributes) {
  // From milc_l4448_foreign_records.lime: the schemaLocation attribute is never closed.
  const std::string xml =
      "<ildgFormat xmlns=\"http://www.lqcd.org/ildg\" xsi:schemaLocation=\"http://www.lqcd.org/ildg "
      "filefmt.xsd><version>1.0</version><precision>32</precision><lx>4</lx><ly>4</ly><lz>4</lz><lt>8</lt>"
      "</ildgFormat>";
  EXPECT_EQ(xml_tag_text(xml, "lt"), std::optional<std::string>("8"));
  EXPECT_EQ(xml_tag_text(xml, "precision"), std::optional<std::string>("32"));
  EXPECT_FALSE(xml_tag_text(xml, "field").has_value());
  EXPECT_FALSE(xml_tag_text(xml, "l").has_value());  // not a prefix match of <lx>
  EXPECT_EQ(xml_tag_text("<a x=\"1\">\n  text \n</a>", "a"), std::optional<std::string>("text"));
}

TEST(TextParsing, XlfInfoPairs) {
  const auto pairs = parse_xlf_info(
      "plaquette = 0.571077\n trajectory nr = \n beta = 5.690000, kappa = 0.125000, mu = 0.006000\n"
      " date = Sun Jan 20 12:15:17 2013\nlqcd.program = lqcd 0.1 (git abc, CUDA=OFF)\nno pair here\n");
  ASSERT_EQ(pairs.size(), 7u);
  EXPECT_EQ(pairs[0], (std::pair<std::string, std::string>{"plaquette", "0.571077"}));
  EXPECT_EQ(pairs[1], (std::pair<std::string, std::string>{"trajectory nr", ""}));
  EXPECT_EQ(pairs[2], (std::pair<std::string, std::string>{"beta", "5.690000"}));
  EXPECT_EQ(pairs[3], (std::pair<std::string, std::string>{"kappa", "0.125000"}));
  EXPECT_EQ(pairs[4], (std::pair<std::string, std::string>{"mu", "0.006000"}));
  EXPECT_EQ(pairs[5], (std::pair<std::string, std::string>{"date", "Sun Jan 20 12:15:17 2013"}));
  EXPECT_EQ(pairs[6], (std::pair<std::string, std::string>{"lqcd.program", "lqcd 0.1 (git abc, CUDA=OFF)"}));
}

TEST(TextParsing, Numbers) {
  EXPECT_EQ(parse_integer(" 16 "), std::optional<std::int64_t>(16));
  EXPECT_FALSE(parse_integer("16x").has_value());
  EXPECT_FALSE(parse_integer("").has_value());
  EXPECT_EQ(parse_real("0.571077"), std::optional<double>(0.571077));
  EXPECT_EQ(parse_real("1e-05"), std::optional<double>(1e-05));
  EXPECT_FALSE(parse_real("abc").has_value());
  EXPECT_EQ(parse_hex32("a3b09c8"), std::optional<std::uint32_t>(0x0a3b09c8u));
  EXPECT_EQ(parse_hex32("0xD7A6D9A1"), std::optional<std::uint32_t>(0xd7a6d9a1u));
  EXPECT_FALSE(parse_hex32("123456789").has_value());  // more than 32 bits
  EXPECT_FALSE(parse_hex32("xyz").has_value());
}

}  // namespace
}  // namespace lqcd::io
