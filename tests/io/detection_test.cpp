// Format detection from content and the errors for files that are not configurations at all.

#include <gtest/gtest.h>

#include "io/gauge_file.hpp"
#include "io_test_support.hpp"

namespace lqcd::test {
namespace {

using io::detect_gauge_format;
using io::read_gauge_file;

class DetectionTest : public IoTest {};

TEST_F(DetectionTest, ContentNotExtensionDecides) {
  // A MILC file named like an ILDG file, and an ILDG file named like a NERSC file.
  const auto milc = tmp("looks_like.ildg");
  fs::copy_file(testdata("milc_l8888_b6.0.milc"), milc);
  EXPECT_EQ(detect_gauge_format(milc), "milc");
  const auto ildg = tmp("looks_like.nersc");
  fs::copy_file(testdata("chroma_weak_field_4x4x4x8.lime"), ildg);
  EXPECT_EQ(detect_gauge_format(ildg), "ildg");
  EXPECT_EQ(read_gauge_file(ildg).info.format, "ildg");
  EXPECT_EQ(detect_gauge_format(testdata("milc_l4448.scidac")), "scidac");
}

TEST_F(DetectionTest, MissingFileIsAnError) {
  const auto path = tmp("does_not_exist.lime");
  expect_error_naming([&] { detect_gauge_format(path); }, path, {"does not exist"});
  expect_error_naming([&] { read_gauge_file(path); }, path, {"does not exist"});
}

TEST_F(DetectionTest, EmptyFileIsAnError) {
  const auto path = tmp("empty.ildg");
  write_bytes(path, {});
  expect_error_naming([&] { detect_gauge_format(path); }, path, {"empty"});
  expect_error_naming([&] { read_gauge_file(path); }, path, {"empty"});
}

TEST_F(DetectionTest, UnrecognisedContentIsAnError) {
  const auto path = tmp("notes.txt");
  std::vector<std::uint8_t> bytes;
  append_text(bytes, "these are not the links you are looking for\n");
  write_bytes(path, bytes);
  expect_error_naming([&] { detect_gauge_format(path); }, path,
                      {"not a recognised gauge configuration (expected LIME/ILDG, NERSC, MILC or openQCD)"});
  expect_error_naming([&] { read_gauge_file(path); }, path, {"not a recognised gauge configuration"});
}

TEST_F(DetectionTest, DirectoryIsAnError) {
  expect_error_naming([&] { read_gauge_file(dir()); }, dir(), {"not a regular file"});
}

TEST_F(DetectionTest, TruncatedFilesOfEveryFormatAreErrors) {
  io::WriteOptions opt;
  opt.plaquette = 1.0;
  const LexicographicGauge unit({2, 2, 2, 4});
  io::write_ildg(tmp("a.ildg"), unit, opt);
  io::write_nersc(tmp("a.nersc"), unit, opt);
  io::write_openqcd(tmp("a.openqcd"), unit, opt);
  fs::copy_file(testdata("milc_l8888_b6.0.milc"), tmp("a.milc"));
  for (const char* name : {"a.ildg", "a.nersc", "a.openqcd", "a.milc"}) {
    auto bytes = read_bytes(tmp(name));
    bytes.resize(bytes.size() * 2 / 3);
    const auto cut = tmp(std::string("cut_") + name);
    write_bytes(cut, bytes);
    expect_error_naming([&] { read_gauge_file(cut); }, cut);
  }
}

}  // namespace
}  // namespace lqcd::test
