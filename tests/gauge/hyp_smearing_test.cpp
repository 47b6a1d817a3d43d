// HYP smearing (gauge/hyp_smearing.hpp): zero parameters give back the field; it is gauge covariant
// (smearing a gauge-transformed field = transforming the smeared field); a smeared link depends only on
// the links of the hypercubes attached to it (the defining property); it smooths more than one APE step
// of the same outer weight; host and device agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "field_test_support.hpp"
#include "gauge/ape_smearing.hpp"
#include "gauge/hyp_smearing.hpp"
#include "gauge/observables.hpp"
#include "gauge/updates.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

class HypSmearingTest : public ::testing::TestWithParam<Location> {};

TEST_P(HypSmearingTest, ZeroParametersGiveBackTheField) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = test::rough_gauge(g, GetParam(), 3, 6.0);
  HypParams p;
  p.alpha1 = p.alpha2 = p.alpha3 = 0;
  EXPECT_LT(test::max_link_difference(to_lexicographic(hyp_smear(U, p)), to_lexicographic(U)), 1e-13);
}

TEST_P(HypSmearingTest, IsGaugeCovariantAndSmooths) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = test::rough_gauge(g, GetParam(), 3, 6.0);
  const HypParams p;
  GaugeField<double> smeared_then_rotated = hyp_smear(U, p);
  random_gauge_transformation(smeared_then_rotated, 41);
  GaugeField<double> W = U.clone(GetParam());
  random_gauge_transformation(W, 41);
  const GaugeField<double> rotated_then_smeared = hyp_smear(W, p);
  EXPECT_LT(test::max_link_difference(to_lexicographic(rotated_then_smeared), to_lexicographic(smeared_then_rotated)),
            1e-12);
  const double p0 = plaquette(U), p1 = plaquette(hyp_smear(U, p));
  ApeParams ape;
  ape.alpha = 0.75;
  ape.iterations = 1;
  ape.spatial_only = false;
  EXPECT_GT(p1, plaquette(ape_smear(U, ape))) << "HYP's three levels smooth more than one APE step";
  EXPECT_GT(p1, p0 + 0.2);
  HypParams two = p;
  two.steps = 2;
  EXPECT_GT(plaquette(hyp_smear(U, two)), p1);
}

// 3D HYP: the time links are kept, zero parameters give back the field, it is covariant under gauge
// transformations (which differ from slice to slice), smooths the spatial plaquette, and without its inner
// level is one spatial APE step.
TEST_P(HypSmearingTest, SpatialHypKeepsTimeLinksAndIsCovariant) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = test::rough_gauge(g, GetParam(), 3, 6.0);
  HypParams p;
  p.spatial = true;
  const LexicographicGauge u = to_lexicographic(U), v = to_lexicographic(hyp_smear(U, p));
  double time_links = 0;
  for (std::int64_t s = 0; s < u.volume(); ++s) time_links = std::max(time_links, test::max_abs_diff(u(s, 3), v(s, 3)));
  EXPECT_EQ(time_links, 0.0);
  HypParams zero = p;
  zero.alpha1 = zero.alpha2 = 0;
  EXPECT_LT(test::max_link_difference(to_lexicographic(hyp_smear(U, zero)), u), 1e-13);
  GaugeField<double> smeared_then_rotated = hyp_smear(U, p);
  random_gauge_transformation(smeared_then_rotated, 43);
  GaugeField<double> W = U.clone(GetParam());
  random_gauge_transformation(W, 43);
  EXPECT_LT(test::max_link_difference(to_lexicographic(hyp_smear(W, p)), to_lexicographic(smeared_then_rotated)), 1e-12);
  const GaugeObservables before = gauge_observables(U), after = gauge_observables(hyp_smear(U, p));
  EXPECT_GT(after.plaquette_spatial, before.plaquette_spatial + 0.1);
  // Without the inner level (alpha2 = 0) 3D HYP is one spatial APE step of alpha = alpha1.
  ApeParams ape;
  ape.alpha = 0.75;
  ape.iterations = 1;
  ape.spatial_only = true;
  HypParams outer = p;
  outer.alpha2 = 0;
  EXPECT_LT(test::max_link_difference(to_lexicographic(hyp_smear(U, outer)), to_lexicographic(ape_smear(U, ape))), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Backends, HypSmearingTest, ::testing::ValuesIn(test::locations()),
                         [](const ::testing::TestParamInfo<Location>& info) { return to_string(info.param); });

// Changing one link changes V_mu(x) only if it lies in a hypercube attached to the link (x, x + mu):
// U_1(x + 2 e0), U_0(x + 2 e1) and U_1(x + e1) (which leaves them) do not matter; U_2(x + e1) (an edge of
// the cube spanned by e0, e1, e2 at x, reached at the second level) and U_1(x) do.
TEST(HypSmearing, SmearedLinkSeesOnlyItsHypercubes) {
  const Dims L{6, 6, 6, 6};
  const Geometry g = Geometry::single_process(L);
  const GaugeField<double> U = test::rough_gauge(g, Location::Host, 7, 6.0);
  const LexicographicGauge base = to_lexicographic(hyp_smear(U, HypParams{}));
  const auto lex = [&](int x, int y, int z, int t) { return x + L[0] * (y + L[1] * (z + std::int64_t(L[2]) * t)); };
  const auto changed_at = [&](std::int64_t site, int nu) {
    LexicographicGauge u = to_lexicographic(U);
    u(site, nu) = u(site, nu) * u(lex(1, 2, 3, 4), 2);  // another SU(3) matrix
    return to_lexicographic(hyp_smear(to_gauge_field(u, g, Location::Host), HypParams{}));
  };
  const std::int64_t x = lex(2, 2, 2, 2);  // the link U_0(x)
  for (const auto& [site, nu] : {std::pair{lex(4, 2, 2, 2), 1}, std::pair{lex(2, 4, 2, 2), 0}, std::pair{lex(2, 3, 2, 2), 1}})
    EXPECT_LT(test::max_abs_diff(changed_at(site, nu)(x, 0), base(x, 0)), 1e-14) << site << " " << nu;
  for (const auto& [site, nu] : {std::pair{lex(2, 3, 2, 2), 2}, std::pair{x, 1}})
    EXPECT_GT(test::max_abs_diff(changed_at(site, nu)(x, 0), base(x, 0)), 1e-4) << site << " " << nu;
}

// 3D HYP: V_0(x) depends on the spatial links of the three-dimensional cubes of its time slice attached
// to it: U_1(x), U_2(x + e1) and U_2(x + e0) (edges of the cube spanned by e0, e1, e2, the last two reached
// at the first level) change it; a link of the next time slice, the time link at x, U_1(x + 2 e0) and
// U_1(x + e1) (which leaves the cubes) do not.
TEST(HypSmearing, SpatialSmearedLinkSeesOnlyItsCubes) {
  const Dims L{6, 6, 6, 6};
  const Geometry g = Geometry::single_process(L);
  const GaugeField<double> U = test::rough_gauge(g, Location::Host, 7, 6.0);
  HypParams p;
  p.spatial = true;
  const LexicographicGauge base = to_lexicographic(hyp_smear(U, p));
  const auto lex = [&](int x, int y, int z, int t) { return x + L[0] * (y + L[1] * (z + std::int64_t(L[2]) * t)); };
  const auto changed_at = [&](std::int64_t site, int nu) {
    LexicographicGauge u = to_lexicographic(U);
    u(site, nu) = u(site, nu) * u(lex(1, 2, 3, 4), 2);
    return to_lexicographic(hyp_smear(to_gauge_field(u, g, Location::Host), p));
  };
  const std::int64_t x = lex(2, 2, 2, 2);
  for (const auto& [site, nu] : {std::pair{lex(2, 2, 2, 3), 0}, std::pair{x, 3}, std::pair{lex(4, 2, 2, 2), 1},
                                 std::pair{lex(2, 3, 2, 2), 1}})
    EXPECT_LT(test::max_abs_diff(changed_at(site, nu)(x, 0), base(x, 0)), 1e-14) << site << " " << nu;
  for (const auto& [site, nu] : {std::pair{lex(2, 3, 2, 2), 2}, std::pair{lex(3, 2, 2, 2), 2}, std::pair{x, 1}})
    EXPECT_GT(test::max_abs_diff(changed_at(site, nu)(x, 0), base(x, 0)), 1e-4) << site << " " << nu;
}

TEST(HypSmearing, BadParametersNameTheirKey) {
  const Geometry g = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(g, Location::Host);
  HypParams p;
  p.alpha2 = 1.5;
  try {
    hyp_smear(U, p);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hyp.alpha2"), std::string::npos) << e.what();
  }
  p = HypParams{};
  p.steps = -1;
  EXPECT_THROW(hyp_smear(U, p), Error);
}

TEST(HypSmearing, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry g = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> h = test::rough_gauge(g, Location::Host, 4, 6.0);
  const LexicographicGauge a = to_lexicographic(hyp_smear(h, HypParams{}));
  const LexicographicGauge b = to_lexicographic(hyp_smear(h.clone(Location::Device), HypParams{}));
  EXPECT_LT(test::max_link_difference(a, b), 1e-12);
  HypParams spatial;
  spatial.spatial = true;
  EXPECT_LT(test::max_link_difference(to_lexicographic(hyp_smear(h, spatial)),
                                      to_lexicographic(hyp_smear(h.clone(Location::Device), spatial))),
            1e-12);
}

}  // namespace
}  // namespace lqcd
