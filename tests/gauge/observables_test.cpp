// Gauge observables: exact unit-field values, gauge invariance, the staple's consistency with the
// action (rungs 2-3 of the ladder), and host/device agreement (rung 5).
#include <gtest/gtest.h>

#include "gauge/observables.hpp"
#include "gauge/random_links.hpp"
#include "gauge/staples.hpp"
#include "gauge/updates.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

class GaugeObservablesTest : public ::testing::TestWithParam<Location> {};

TEST_P(GaugeObservablesTest, UnitFieldIsOneEverywhere) {
  GaugeField<double> U(Geometry::single_process({4, 4, 4, 6}), GetParam());
  set_unit_gauge(U);
  const GaugeObservables o = gauge_observables(U);
  EXPECT_DOUBLE_EQ(o.plaquette, 1.0);
  EXPECT_DOUBLE_EQ(o.plaquette_spatial, 1.0);
  EXPECT_DOUBLE_EQ(o.plaquette_temporal, 1.0);
  EXPECT_DOUBLE_EQ(o.rectangle, 1.0);
  EXPECT_DOUBLE_EQ(o.link_trace, 1.0);
  EXPECT_DOUBLE_EQ(o.polyakov_loop.re, 1.0);
  EXPECT_DOUBLE_EQ(o.polyakov_loop.im, 0.0);
  EXPECT_DOUBLE_EQ(gauge_action_value(U, GaugeAction::from_name("iwasaki", 2.5)), 0.0);
}

TEST_P(GaugeObservablesTest, ConstantCentreElementField) {
  // U_t = exp(2 pi i/3) on every time link, all others 1: temporal plaquettes stay 1, the Polyakov
  // loop on T = 6 is exp(2 pi i 6/3) = 1, and on T = 4 it is exp(2 pi i 4/3); the link trace is
  // (3 + cos(2 pi/3)) / 4.
  for (int T : {4, 6}) {
    GaugeField<double> host(Geometry::single_process({4, 4, 4, T}), Location::Host);
    set_unit_gauge(host);
    const GaugeView<double> v = host.view();
    const double phase = 2 * M_PI / 3;
    SU3<double> z{};
    for (int i = 0; i < 3; ++i) z.m[i][i] = Complex<double>(std::cos(phase), std::sin(phase));
    for (std::int64_t i = 0; i < host.geometry().volume(); ++i) {
      int x[4];
      v.idx.coords_lex(i, x);
      v.store(3, SiteIndexer::parity(x), v.idx.cb_index(x), z);
    }
    const GaugeField<double> U = host.clone(GetParam());
    const GaugeObservables o = gauge_observables(U);
    EXPECT_NEAR(o.plaquette, 1.0, 1e-14);
    EXPECT_NEAR(o.rectangle, 1.0, 1e-14);
    EXPECT_NEAR(o.link_trace, (3 + std::cos(phase)) / 4, 1e-14);
    EXPECT_NEAR(o.polyakov_loop.re, std::cos(phase * T), 1e-13);
    EXPECT_NEAR(o.polyakov_loop.im, std::sin(phase * T), 1e-13);
  }
}

TEST_P(GaugeObservablesTest, GaugeInvariance) {
  GaugeField<double> U(Geometry::single_process({4, 4, 6, 8}), GetParam());
  set_unit_gauge(U);  // ordered start: a large link trace that the transformation must destroy
  const GaugeAction wilson = GaugeAction::from_name("wilson", 5.7);
  for (std::uint32_t s = 0; s < 2; ++s) heatbath_sweep(U, wilson, 11, s);
  const GaugeObservables before = gauge_observables(U);
  random_gauge_transformation(U, 2024);
  const GaugeObservables after = gauge_observables(U);
  EXPECT_NEAR(after.plaquette, before.plaquette, 1e-13);
  EXPECT_NEAR(after.plaquette_spatial, before.plaquette_spatial, 1e-13);
  EXPECT_NEAR(after.plaquette_temporal, before.plaquette_temporal, 1e-13);
  EXPECT_NEAR(after.rectangle, before.rectangle, 1e-13);
  EXPECT_NEAR(after.polyakov_loop.re, before.polyakov_loop.re, 1e-13);
  EXPECT_NEAR(after.polyakov_loop.im, before.polyakov_loop.im, 1e-13);
  // The link trace is not gauge invariant: the transformation really did something.
  EXPECT_GT(before.link_trace, 0.3);
  EXPECT_LT(std::abs(after.link_trace), 0.1);
  EXPECT_LT(unitarity(U, 1e-12).max_deviation, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Backends, GaugeObservablesTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// The staples define the local action: changing one link by dU changes S by
// -(beta/3) Re tr(dU * (c0 A_plaq + c1 A_rect)). Checks the 6 plaquette and 18 rectangle paths.
TEST(Staples, LinkVariationOfTheActionMatchesTheStaple) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U(geom, Location::Host);
  set_hot_gauge(U, 5);
  for (const char* name : {"wilson", "symanzik", "dbw2"}) {
    const GaugeAction action = GaugeAction::from_name(name, 3.0);
    const GaugeView<double> v = U.view();
    int x[4] = {1, 2, 3, 0};
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double> a = action.has_rectangles() ? action_staple<true>(v, x, mu, action.c0(), action.c1())
                                                     : action_staple<false>(v, x, mu, action.c0(), action.c1());
      const SU3<double> old = v.link(x, mu);
      SiteRandom rng(77, std::uint64_t(mu), RngPurpose::Test, 0, 0);
      const SU3<double> replacement = random_su3(rng);
      const double s0 = gauge_action_value(U, action);
      v.store(mu, SiteIndexer::parity(x), v.idx.cb_index(x), replacement);
      const double s1 = gauge_action_value(U, action);
      v.store(mu, SiteIndexer::parity(x), v.idx.cb_index(x), old);
      const double predicted = -action.beta / 3 * (re_trace_mul(replacement, a) - re_trace_mul(old, a));
      EXPECT_NEAR(s1 - s0, predicted, 1e-9 * std::abs(s0)) << name << " mu=" << mu;
    }
  }
}

}  // namespace
}  // namespace lqcd
