// The parity-blocked field layout against the lexicographic file order, and host/device transfers.
#include <gtest/gtest.h>

#include <utility>

#include "core/error_type.hpp"
#include "fields/gauge_field.hpp"
#include "gauge/random_links.hpp"
#include "gauge/updates.hpp"
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

namespace lqcd {
namespace {

// The largest entry-wise difference between the links of U and those rebuilt from their Components-form,
// compressed in double and in single precision (host copies compared).
template <int Components>
std::pair<double, double> rebuilt_link_errors(const GaugeField<double>& U) {
  const Geometry& geom = U.geometry();
  const GaugeField<double> Uh = U.clone(Location::Host);
  const GaugeField<double, Components> Ch = compress_links<Components>(U).clone(Location::Host);
  const GaugeField<float, Components> Cf = compress_links<Components>(convert_precision<float>(U)).clone(Location::Host);
  double worst = 0, worst_f = 0;
  for (int p = 0; p < 2; ++p)
    for (std::int64_t s = 0; s < geom.half_volume(); ++s)
      for (int mu = 0; mu < 4; ++mu) {
        const SU3<double> a = Uh.view().load(mu, p, s), b = Ch.view().load(mu, p, s);
        const SU3<float> f = Cf.view().load(mu, p, s);
        worst = std::max(worst, test::max_abs_diff(a, b));
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) worst_f = std::max(worst_f, abs(a.m[i][j] - Complex<double>(f.m[i][j])));
      }
  return {worst, worst_f};
}

// 12-real links: the third row rebuilt as (row0 x row1)^* equals the stored one for SU(3) links (here
// gauge-transformed, so not rebuilt by the same formula before), in double and single precision, on the
// host and (GPU machine) the device; the compressed field holds 2/3 of the bytes.
TEST(CompressedLinks, TwelveRealLinksReconstructTheMatrix) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  for (Location loc : test::locations()) {
    GaugeField<double> U(geom, loc);
    set_hot_gauge(U, 5);
    random_gauge_transformation(U, 6);
    const GaugeField<double, 6> C = compress_links(U);
    EXPECT_EQ(C.bytes() * 3, U.bytes() * 2);
    const auto [worst, worst_f] = rebuilt_link_errors<6>(U);
    EXPECT_LT(worst, 1e-14) << to_string(loc);
    EXPECT_LT(worst_f, 1e-6) << to_string(loc);
  }
}

// 8-real links: the matrix rebuilt from u01, u02, u10 and the phases of u00 and u20 equals the stored
// one (rounding of square roots, sines and cosines), in double and single precision, host and device;
// half the bytes of 18 reals. A cold start (unit links: |u00| = 1) has no 8-real form: an error, not NaNs.
TEST(CompressedLinks, EightRealLinksReconstructTheMatrixOrRefuse) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  for (Location loc : test::locations()) {
    GaugeField<double> U(geom, loc);
    set_hot_gauge(U, 7);
    random_gauge_transformation(U, 8);
    const GaugeField<double, 4> C = compress_links<4>(U);
    EXPECT_EQ(C.bytes() * 9, U.bytes() * 4);
    const auto [worst, worst_f] = rebuilt_link_errors<4>(U);
    EXPECT_LT(worst, 1e-12) << to_string(loc);
    EXPECT_LT(worst_f, 1e-5) << to_string(loc);

    GaugeField<double> cold(geom, loc);
    set_unit_gauge(cold);
    try {
      compress_links<4>(cold);
      ADD_FAILURE() << "a cold start was compressed to 8 reals";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("8-real links"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace lqcd
