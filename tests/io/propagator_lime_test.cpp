// Propagator files: exact round trip, checksum verification, structure errors.
#include <gtest/gtest.h>

#include <fstream>

#include "core/error_type.hpp"
#include "core/site_random.hpp"
#include "io/propagator_lime.hpp"
#include "test_support.hpp"

namespace lqcd::io {
namespace {

PropagatorFile random_propagator() {
  PropagatorFile p;
  p.dims = {2, 2, 4, 4};
  p.file_xml = "<propagator><kappa>0.155</kappa></propagator>";
  for (int k = 0; k < 12; ++k) {
    p.columns[std::size_t(k)].resize(64);
    for (std::size_t i = 0; i < 64; ++i) {
      SiteRandom rng(1, i, RngPurpose::Test, std::uint32_t(k), 0);
      for (auto& s : p.columns[std::size_t(k)][i].s)
        for (auto& z : s.c) {
          z.re = rng.gaussian();
          z.im = rng.gaussian();
        }
    }
  }
  return p;
}

TEST(PropagatorLime, RoundTripIsBitExact) {
  test::TempDir dir;
  const PropagatorFile p = random_propagator();
  write_propagator_lime(dir / "prop.lime", p);
  const PropagatorFile q = read_propagator_lime(dir / "prop.lime");
  EXPECT_EQ(q.dims, p.dims);
  EXPECT_EQ(q.file_xml, p.file_xml);
  for (int k = 0; k < 12; ++k)
    for (std::size_t i = 0; i < 64; ++i)
      for (int s = 0; s < 4; ++s)
        for (int c = 0; c < 3; ++c) {
          EXPECT_EQ(q.columns[std::size_t(k)][i].s[s].c[c].re, p.columns[std::size_t(k)][i].s[s].c[c].re);
          EXPECT_EQ(q.columns[std::size_t(k)][i].s[s].c[c].im, p.columns[std::size_t(k)][i].s[s].c[c].im);
        }
}

TEST(PropagatorLime, FlippedByteIsDetected) {
  test::TempDir dir;
  write_propagator_lime(dir / "prop.lime", random_propagator());
  {
    std::fstream f(dir / "prop.lime", std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-1500, std::ios::end);
    char c;
    f.get(c);
    f.seekp(-1500, std::ios::end);
    f.put(char(c ^ 0x01));
  }
  try {
    read_propagator_lime(dir / "prop.lime");
    FAIL() << "corruption not detected";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("prop.lime"), std::string::npos);
  }
}

}  // namespace
}  // namespace lqcd::io
