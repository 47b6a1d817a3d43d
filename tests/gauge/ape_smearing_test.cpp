// APE smearing: the SU(3) projection (maximum of Re tr(P^dag X), covariance), unit field, identity
// cases, SU(3) links, gauge covariance, untouched temporal links, growing spatial plaquette,
// host/device agreement, parameter validation (rungs 1, 2, 3, 5).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "gauge/ape_smearing.hpp"
#include "gauge/ape_smearing_kernels.hpp"
#include "gauge/observables.hpp"
#include "gauge/random_links.hpp"
#include "gauge/updates.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

double max_link_difference(const GaugeField<double>& a, const GaugeField<double>& b) {
  const LexicographicGauge la = to_lexicographic(a), lb = to_lexicographic(b);
  double d = 0;
  for (std::size_t i = 0; i < la.links.size(); ++i) d = std::max(d, test::max_abs_diff(la.links[i], lb.links[i]));
  return d;
}

// A hot start after a few heatbath sweeps at beta = 5.5: rough, but with some correlation.
GaugeField<double> rough_gauge(const Geometry& g, Location loc, std::uint64_t seed = 17) {
  GaugeField<double> U(g, loc);
  set_hot_gauge(U, seed);
  const GaugeAction a = GaugeAction::from_name("wilson", 5.5);
  for (std::uint32_t s = 0; s < 2; ++s) heatbath_sweep(U, a, seed, s);
  return U;
}

// The sum an APE step projects: (1 - alpha) U + alpha/6 (sum of 6 Haar-random "staples").
SU3<double> ape_like_sum(SiteRandom& rng, double alpha) {
  SU3<double> x = random_su3(rng) * (1 - alpha);
  for (int k = 0; k < 6; ++k) x += random_su3(rng) * (alpha / 6);
  return x;
}

TEST(ApeProjection, FindsTheMaximumOfTheRealTrace) {
  for (double alpha : {0.1, 0.5, 0.9, 1.0}) {
    for (std::uint64_t t = 0; t < 200; ++t) {
      SiteRandom rng(5, t, RngPurpose::Test, 0, 0);
      const SU3<double> x = ape_like_sum(rng, alpha);
      const SU3<double> p = project_su3(x);
      ASSERT_LT(su3_deviation(p), 1e-14);
      const double best = re_trace_mul(p, dagger(x));  // Re tr(P X^dag) = Re tr(P^dag X)
      // No other start of the iteration finds a larger maximum ...
      for (int r = 0; r < 10; ++r)
        EXPECT_LE(re_trace_mul(project_su3_from(x, random_su3(rng)), dagger(x)), best + 1e-12) << alpha << " " << t;
      // ... and no small SU(3) rotation exp(i eps H) P (checked to second order) improves it.
      for (int r = 0; r < 5; ++r) {
        SU3<double> h = test::random_matrix(rng);
        h = (h + dagger(h)) * 0.5;
        const double eps = 1e-4;
        SU3<double> q = SU3<double>::identity();
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) q.m[i][j] += times_i(h.m[i][j]) * eps;
        EXPECT_LE(re_trace_mul(reunitarize(q) * p, dagger(x)), best + 1e-12);
      }
    }
  }
}

TEST(ApeProjection, IsCovariantAndFixesSU3TimesPositiveScale) {
  for (std::uint64_t t = 0; t < 200; ++t) {
    SiteRandom rng(6, t, RngPurpose::Test, 0, 0);
    const SU3<double> v = random_su3(rng);
    EXPECT_LT(test::max_abs_diff(project_su3(v * 0.37), v), 1e-14);
    const SU3<double> x = ape_like_sum(rng, 0.5), g = random_su3(rng), h = random_su3(rng);
    EXPECT_LT(test::max_abs_diff(project_su3(mul_adj(g * x, h)), mul_adj(g * project_su3(x), h)), 1e-13);
  }
}

class ApeBackendTest : public ::testing::TestWithParam<Location> {};

TEST_P(ApeBackendTest, UnitFieldStaysUnit) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  GaugeField<double> U(geom, GetParam());
  set_unit_gauge(U);
  for (bool spatial : {true, false}) {
    const GaugeField<double> S = ape_smear(U, ApeParams{0.7, 3, spatial});
    EXPECT_EQ(S.location(), GetParam());
    EXPECT_EQ(max_link_difference(S, U), 0.0) << spatial;
  }
}

TEST_P(ApeBackendTest, ZeroIterationsOrZeroAlphaIsTheIdentity) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  EXPECT_EQ(max_link_difference(ape_smear(U, ApeParams{0.5, 0, true}), U), 0.0);   // a copy
  EXPECT_EQ(max_link_difference(ape_smear(U, ApeParams{0.5, 0, false}), U), 0.0);
  for (bool spatial : {true, false})  // P_SU(3) of an SU(3) link is the link, up to rounding
    EXPECT_LT(max_link_difference(ape_smear(U, ApeParams{0.0, 3, spatial}), U), 1e-14) << spatial;
}

TEST_P(ApeBackendTest, LeavesTheInputUnchangedAndSmearsForReal) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  const GaugeField<double> before = U.clone(Location::Host);
  const GaugeField<double> S = ape_smear(U, ApeParams{0.5, 4, false});
  EXPECT_EQ(max_link_difference(U, before), 0.0);
  EXPECT_GT(max_link_difference(S, U), 0.1);
}

TEST_P(ApeBackendTest, SmearedLinksAreSU3) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  GaugeField<double> hot(geom, GetParam());
  set_hot_gauge(hot, 3);
  for (bool spatial : {true, false})
    for (double alpha : {0.5, 1.0}) {
      const GaugeField<double> S = ape_smear(hot, ApeParams{alpha, 5, spatial});
      const UnitarityStats u = unitarity(S, 1e-12);  // max |U U^dag - 1| + |det U - 1|
      EXPECT_LT(u.max_deviation, 1e-12) << spatial << " " << alpha;
      EXPECT_EQ(u.violations, 0.0);
      const LexicographicGauge l = to_lexicographic(S);
      double det_dev = 0;
      for (const auto& link : l.links) det_dev = std::max(det_dev, abs(determinant(link) - Complex<double>(1)));
      EXPECT_LT(det_dev, 1e-12);
    }
}

TEST_P(ApeBackendTest, GaugeCovariance) {
  // smear(U^g) = smear(U)^g with U^g_mu(x) = g(x) U_mu(x) g(x+mu)^dag: the transformation of
  // random_gauge_transformation depends only on the seed and the site.
  const Geometry geom = Geometry::single_process({4, 6, 4, 4});
  const std::uint64_t seed = 123;
  for (bool spatial : {true, false}) {
    const ApeParams prm{0.6, 4, spatial};
    GaugeField<double> U = rough_gauge(geom, GetParam());
    GaugeField<double> smeared_then_transformed = ape_smear(U, prm);
    random_gauge_transformation(smeared_then_transformed, seed);
    random_gauge_transformation(U, seed);
    EXPECT_LT(max_link_difference(ape_smear(U, prm), smeared_then_transformed), 1e-11) << spatial;
  }
}

TEST_P(ApeBackendTest, SpatialOnlyLeavesTemporalLinksBitIdentical) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  const LexicographicGauge before = to_lexicographic(U);
  const LexicographicGauge after = to_lexicographic(ape_smear(U, ApeParams{0.5, 5, true}));
  double spatial_change = 0;
  for (std::int64_t s = 0; s < before.volume(); ++s) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        EXPECT_EQ(after(s, kTimeDir).m[i][j].re, before(s, kTimeDir).m[i][j].re);
        EXPECT_EQ(after(s, kTimeDir).m[i][j].im, before(s, kTimeDir).m[i][j].im);
      }
    for (int mu = 0; mu < 3; ++mu) spatial_change = std::max(spatial_change, test::max_abs_diff(after(s, mu), before(s, mu)));
  }
  EXPECT_GT(spatial_change, 0.1);
}

TEST_P(ApeBackendTest, SpatialPlaquetteGrowsWithSmearing) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> hot(geom, GetParam());
  set_hot_gauge(hot, 9);
  const GaugeField<double> rough = rough_gauge(geom, GetParam(), 9);
  const GaugeField<double>* fields[2] = {&hot, &rough};
  for (const GaugeField<double>* U : fields) {
    for (bool spatial : {true, false}) {
      double last = gauge_observables(*U).plaquette_spatial;
      double last_all = gauge_observables(*U).plaquette;
      for (int n = 1; n <= 4; ++n) {
        const GaugeObservables o = gauge_observables(ape_smear(*U, ApeParams{0.5, n, spatial}));
        EXPECT_GT(o.plaquette_spatial, last + 1e-3) << spatial << " after " << n;
        if (!spatial) {
          EXPECT_GT(o.plaquette, last_all + 1e-3) << "after " << n;
        }
        last = o.plaquette_spatial;
        last_all = o.plaquette;
      }
      EXPECT_GT(last, 0.5) << spatial;  // from ~0 (hot) or ~0.3 (rough) to far above
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ApeBackendTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(ApeSmearing, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = rough_gauge(geom, Location::Host);
  const GaugeField<double> Ud = Uh.clone(Location::Device);
  for (bool spatial : {true, false}) {
    const ApeParams prm{0.5, 5, spatial};
    const GaugeField<double> Sh = ape_smear(Uh, prm), Sd = ape_smear(Ud, prm);
    EXPECT_EQ(Sd.location(), Location::Device);
    EXPECT_LT(max_link_difference(Sh, Sd), 1e-12) << spatial;
  }
}

TEST(ApeSmearing, RejectsBadParameters) {
  const GaugeField<double> U(Geometry::single_process({4, 4, 4, 4}), Location::Host);
  auto message = [&](const ApeParams& p) {
    try {
      (void)ape_smear(U, p);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  for (double alpha : {-0.1, 1.5, std::numeric_limits<double>::quiet_NaN()})
    EXPECT_NE(message(ApeParams{alpha, 1, true}).find("source.ape_alpha"), std::string::npos) << alpha;
  EXPECT_NE(message(ApeParams{0.5, -1, true}).find("source.ape_iterations"), std::string::npos);
  EXPECT_NO_THROW(check_ape_params(ApeParams{1.0, 0, false}));
  EXPECT_NO_THROW(check_ape_params(ApeParams{0.0, 10, true}));
}

}  // namespace
}  // namespace lqcd
