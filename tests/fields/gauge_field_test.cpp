// The parity-blocked field layout against the lexicographic file order, and host/device transfers.
#include <gtest/gtest.h>

#include "core/error_type.hpp"
#include "fields/gauge_field.hpp"
#include "gauge/random_links.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

LexicographicGauge random_lexicographic(const Dims& dims) {
  LexicographicGauge lex(dims);
  for (std::size_t i = 0; i < lex.links.size(); ++i) {
    SiteRandom rng(1, i, RngPurpose::Test, 0, 0);
    lex.links[i] = test::random_matrix(rng);
  }
  return lex;
}

TEST(GaugeField, StrideIsPaddedTo256Bytes) {
  const GaugeField<double> u(Geometry::single_process({6, 2, 2, 2}), Location::Host);  // 24 sites per parity
  EXPECT_EQ(u.stride(), 32);  // 16 vectors of 16 bytes = 256 bytes
  EXPECT_EQ(std::int64_t(u.bytes()), 32 * 9 * 8 * 16);  // stride x 9 components x (4 dirs x 2 parities) x 16 B
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(u.view().data) % 256, 0u);
}

TEST(GaugeField, LexicographicRoundTripIsExactAndLinksLandWhereIndexed) {
  const Dims dims{4, 6, 2, 4};
  const LexicographicGauge lex = random_lexicographic(dims);
  const Geometry geom = Geometry::single_process(dims);
  for (Location loc : test::locations()) {
    const GaugeField<double> u = to_gauge_field(lex, geom, loc);
    const LexicographicGauge back = to_lexicographic(u);
    ASSERT_EQ(back.links.size(), lex.links.size());
    for (std::size_t i = 0; i < lex.links.size(); ++i) ASSERT_EQ(test::max_abs_diff(back.links[i], lex.links[i]), 0.0);
  }
  // The view finds U_mu(x) at the coordinates of the file's site.
  const GaugeField<double> u = to_gauge_field(lex, geom, Location::Host);
  int x[4] = {3, 5, 1, 2};
  const std::int64_t site = 3 + 4 * (5 + 6 * (1 + 2 * 2));
  EXPECT_EQ(test::max_abs_diff(u.view().link(x, 2), lex(site, 2)), 0.0);
}

TEST(GaugeField, WrongDimensionsAreAnError) {
  const LexicographicGauge lex(Dims{4, 4, 4, 4});
  EXPECT_THROW(to_gauge_field(lex, Geometry::single_process({4, 4, 4, 8}), Location::Host, "x.ildg"), Error);
}

TEST(GaugeField, MovesTransferOwnership) {
  GaugeField<double> a(Geometry::single_process({4, 4, 4, 4}), Location::Host);
  const auto* p = a.view().data;
  GaugeField<double> b(std::move(a));
  EXPECT_EQ(b.view().data, p);
  static_assert(!std::is_copy_constructible_v<GaugeField<double>>);
}

}  // namespace
}  // namespace lqcd
