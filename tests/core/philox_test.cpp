// Philox-4x32-10 against the published known-answer vectors (Random123, kat_vectors), and the
// site-keyed streams built on it.
#include <gtest/gtest.h>

#include <set>

#include "core/philox.hpp"
#include "core/site_random.hpp"

namespace lqcd {
namespace {

void expect_block(Philox4x32::Block ctr, std::uint32_t k0, std::uint32_t k1, Philox4x32::Block expected) {
  const Philox4x32::Block out = Philox4x32::generate(ctr, k0, k1);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out.v[i], expected.v[i]) << "word " << i;
}

TEST(Philox, KnownAnswerVectors) {
  expect_block({{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}});
  expect_block({{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}}, 0xffffffff, 0xffffffff,
               {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}});
  expect_block({{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}}, 0xa4093822, 0x299f31d0,
               {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}});
}

TEST(SiteRandom, StreamsDependOnEveryKeyPart) {
  auto first = [](std::uint64_t seed, std::uint64_t site, RngPurpose p, std::uint32_t sub, std::uint32_t upd) {
    SiteRandom r(seed, site, p, sub, upd);
    return r.next_u32();
  };
  std::set<std::uint32_t> seen{first(1, 0, RngPurpose::Heatbath, 0, 0), first(2, 0, RngPurpose::Heatbath, 0, 0),
                               first(1, 1, RngPurpose::Heatbath, 0, 0), first(1, 0, RngPurpose::HotStart, 0, 0),
                               first(1, 0, RngPurpose::Heatbath, 1, 0), first(1, 0, RngPurpose::Heatbath, 0, 1),
                               first(1, std::uint64_t(1) << 33, RngPurpose::Heatbath, 0, 0)};
  EXPECT_EQ(seen.size(), 7u);
  // The same key gives the same numbers.
  SiteRandom a(7, 42, RngPurpose::Momenta, 3, 9), b(7, 42, RngPurpose::Momenta, 3, 9);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(a.next_u32(), b.next_u32());
}

TEST(SiteRandom, UniformAndGaussianMoments) {
  SiteRandom r(99, 5, RngPurpose::Test, 0, 0);
  const int n = 200000;
  double su = 0, su2 = 0, sg = 0, sg2 = 0, sg4 = 0;
  double umin = 1, umax = 0;
  for (int i = 0; i < n; ++i) {
    const double u = r.uniform();
    umin = std::min(umin, u);
    umax = std::max(umax, u);
    su += u;
    su2 += u * u;
    const double g = r.gaussian();
    sg += g;
    sg2 += g * g;
    sg4 += g * g * g * g;
  }
  EXPECT_GE(umin, 0.0);
  EXPECT_LT(umax, 1.0);
  EXPECT_NEAR(su / n, 0.5, 0.003);
  EXPECT_NEAR(su2 / n, 1.0 / 3.0, 0.003);
  EXPECT_NEAR(sg / n, 0.0, 0.01);
  EXPECT_NEAR(sg2 / n, 1.0, 0.01);
  EXPECT_NEAR(sg4 / n, 3.0, 0.06);
}

}  // namespace
}  // namespace lqcd
