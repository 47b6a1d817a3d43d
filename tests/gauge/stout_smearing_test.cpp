// Stout smearing (gauge/stout_smearing.hpp): zero steps or rho = 0 leave the field as it is; the
// smeared links are in SU(3) without a projection; gauge covariance; the plaquette grows; and one step
// equals the paper's formula written out independently here (explicit staples from the lexicographic
// links, Q from Omega, exp(iQ) by a Taylor series) to rounding; host and device agree.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "field_test_support.hpp"
#include "gauge/observables.hpp"
#include "gauge/stout_smearing.hpp"
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

// Site index of x + d * mu-hat (periodic) in lexicographic order.
std::int64_t neighbour(const Dims& n, std::int64_t site, int mu, int d) {
  int x[4];
  std::int64_t r = site;
  for (int k = 0; k < 4; ++k) {
    x[k] = int(r % n[k]);
    r /= n[k];
  }
  x[mu] = (x[mu] + d + n[mu]) % n[mu];
  return x[0] + std::int64_t(n[0]) * (x[1] + std::int64_t(n[1]) * (x[2] + std::int64_t(n[2]) * x[3]));
}

// exp(M) by its Taylor series (|M| of order 1 here: 40 terms reach rounding).
SU3<double> exp_taylor(const SU3<double>& m) {
  SU3<double> r = SU3<double>::identity(), term = SU3<double>::identity();
  for (int k = 1; k <= 40; ++k) {
    term = term * m;
    term *= 1.0 / k;
    r += term;
  }
  return r;
}

// U'_mu(x) of one stout step, from the paper's definitions (Phys. Rev. D 69 (2004) 054501, eqs. 1-3).
SU3<double> stout_link(const LexicographicGauge& U, std::int64_t x, int mu, double rho) {
  const Dims& n = U.dims;
  SU3<double> c = SU3<double>::zero();
  for (int nu = 0; nu < 4; ++nu) {
    if (nu == mu) continue;
    const std::int64_t xpnu = neighbour(n, x, nu, 1), xpmu = neighbour(n, x, mu, 1), xmnu = neighbour(n, x, nu, -1);
    const std::int64_t xmnupmu = neighbour(n, xmnu, mu, 1);
    c += U(x, nu) * U(xpnu, mu) * dagger(U(xpmu, nu));
    c += dagger(U(xmnu, nu)) * U(xmnu, mu) * U(xmnupmu, nu);
  }
  c *= rho;
  const SU3<double> omega = c * dagger(U(x, mu));
  // i Q = -(1/2) (Omega^dag - Omega) + (1/6) tr(Omega^dag - Omega): the exponent of exp(i Q).
  SU3<double> iq = (dagger(omega) - omega) * -0.5;
  Complex<double> tr = (iq.m[0][0] + iq.m[1][1] + iq.m[2][2]) * (1.0 / 3.0);
  for (int i = 0; i < 3; ++i) iq.m[i][i] = iq.m[i][i] - tr;
  return exp_taylor(iq) * U(x, mu);
}

class StoutTest : public ::testing::TestWithParam<Location> {};

TEST_P(StoutTest, ZeroStepsOrZeroRhoLeaveTheField) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = test::rough_gauge(g, GetParam(), 5);
  EXPECT_EQ(max_link_difference(stout_smear(U, {0.1, 0, false}), U), 0.0);
  EXPECT_LT(max_link_difference(stout_smear(U, {0.0, 3, false}), U), 1e-15);
}

TEST_P(StoutTest, OneStepIsThePapersFormula) {
  const Geometry g = Geometry::single_process({4, 4, 6, 4});
  const GaugeField<double> U = test::rough_gauge(g, GetParam(), 7);
  const double rho = 0.13;
  const LexicographicGauge before = to_lexicographic(U), after = to_lexicographic(stout_smear(U, {rho, 1, false}));
  double worst = 0, change = 0;
  for (std::int64_t x = 0; x < before.volume(); ++x)
    for (int mu = 0; mu < 4; ++mu) {
      worst = std::max(worst, test::max_abs_diff(after(x, mu), stout_link(before, x, mu, rho)));
      change = std::max(change, test::max_abs_diff(after(x, mu), before(x, mu)));
    }
  EXPECT_LT(worst, 1e-13);
  EXPECT_GT(change, 0.05);  // a real change, not the identity
}

TEST_P(StoutTest, LinksStayInSU3AndThePlaquetteGrows) {
  const Geometry g = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U = test::rough_gauge(g, GetParam(), 9);
  double last = plaquette(U);
  for (int step = 0; step < 4; ++step) {
    U = stout_smear(U, {0.1, 1, false});
    const LexicographicGauge l = to_lexicographic(U);
    double dev = 0;
    for (const SU3<double>& u : l.links) dev = std::max(dev, su3_deviation(u));
    EXPECT_LT(dev, 1e-13) << step;
    const double p = plaquette(U);
    EXPECT_GT(p, last) << step;
    last = p;
  }
}

TEST_P(StoutTest, GaugeCovariance) {
  const Geometry g = Geometry::single_process({4, 6, 4, 4});
  const std::uint64_t seed = 321;
  for (bool spatial : {false, true}) {
    const StoutParams prm{0.12, 3, spatial};
    GaugeField<double> U = test::rough_gauge(g, GetParam(), 11);
    GaugeField<double> smeared_then_transformed = stout_smear(U, prm);
    random_gauge_transformation(smeared_then_transformed, seed);
    random_gauge_transformation(U, seed);
    EXPECT_LT(max_link_difference(stout_smear(U, prm), smeared_then_transformed), 1e-12) << spatial;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, StoutTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(Stout, BadParametersNameTheKey) {
  const std::string rho = test::error_of([] { check_stout_params({-0.1, 1, false}, "smearing"); });
  EXPECT_NE(rho.find("smearing.rho"), std::string::npos) << rho;
  const std::string steps = test::error_of([] { check_stout_params({0.1, -1, false}, "smearing"); });
  EXPECT_NE(steps.find("smearing.steps"), std::string::npos) << steps;
}

TEST(Stout, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry g = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = test::rough_gauge(g, Location::Host, 13), Ud = Uh.clone(Location::Device);
  EXPECT_LT(max_link_difference(stout_smear(Uh, {0.1, 3, false}), stout_smear(Ud, {0.1, 3, false})), 1e-13);
}

}  // namespace
}  // namespace lqcd
