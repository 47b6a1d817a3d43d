// The chain rule of the force through stout smearing (gauge/stout_force.hpp): the Cayley-Hamilton
// coefficients of exp(iQ) against a Taylor series, their derivatives b_ij against finite differences,
// the derivative formula of exp(iQ) (eq. 69) against finite differences, and the chain-ruled force of
// S[V] = sum Re tr(Y V) (Y fixed random matrices, whose force with respect to V is written down here)
// against central differences of S[stout^n(U)] with respect to the thin links U; host and device agree.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/site_random.hpp"
#include "field_test_support.hpp"
#include "gauge/stout_force.hpp"
#include "math/su3_exp_coefficients.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// T^a = lambda^a / 2 (Gell-Mann), written out.
SU3<double> generator(int a) {
  SU3<double> t = SU3<double>::zero();
  const double h = 0.5;
  switch (a) {
    case 0: t.m[0][1] = t.m[1][0] = Complex<double>(h); break;
    case 1: t.m[0][1] = Complex<double>(0, -h); t.m[1][0] = Complex<double>(0, h); break;
    case 2: t.m[0][0] = Complex<double>(h); t.m[1][1] = Complex<double>(-h); break;
    case 3: t.m[0][2] = t.m[2][0] = Complex<double>(h); break;
    case 4: t.m[0][2] = Complex<double>(0, -h); t.m[2][0] = Complex<double>(0, h); break;
    case 5: t.m[1][2] = t.m[2][1] = Complex<double>(h); break;
    case 6: t.m[1][2] = Complex<double>(0, -h); t.m[2][1] = Complex<double>(0, h); break;
    default: {
      const double s = h / std::sqrt(3.0);
      t.m[0][0] = t.m[1][1] = Complex<double>(s);
      t.m[2][2] = Complex<double>(-2 * s);
    }
  }
  return t;
}

// sum_a c^a T^a with Gaussian c^a times `size`.
SU3<double> random_algebra(SiteRandom& rng, double size) {
  SU3<double> q = SU3<double>::zero();
  for (int a = 0; a < 8; ++a) {
    SU3<double> t = generator(a);
    t *= size * rng.gaussian();
    q += t;
  }
  return q;
}

SU3<double> random_matrix(SiteRandom& rng) {
  SU3<double> y;
  for (auto& row : y.m)
    for (auto& z : row) {
      z.re = rng.gaussian();
      z.im = rng.gaussian();
    }
  return y;
}

// exp(i Q) by its Taylor series (|Q| of order 1 here: 60 terms reach rounding).
SU3<double> exp_i_taylor(const SU3<double>& q) {
  SU3<double> iq;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) iq.m[i][j] = Complex<double>(-q.m[i][j].im, q.m[i][j].re);
  SU3<double> r = SU3<double>::identity(), term = SU3<double>::identity();
  for (int k = 1; k <= 60; ++k) {
    term = term * iq;
    term *= 1.0 / k;
    r += term;
  }
  return r;
}

double max_diff(const Complex<double> a[3], const Complex<double> b[3]) {
  double d = 0;
  for (int j = 0; j < 3; ++j) d = std::max(d, abs(a[j] - b[j]));
  return d;
}

// Q scaled so that c1 = tr(Q^2)/2 takes the given value.
SU3<double> algebra_with_c1(SiteRandom& rng, double c1) {
  SU3<double> q = random_algebra(rng, 1.0);
  q *= std::sqrt(c1 / (0.5 * re_trace(q * q)));
  return q;
}

TEST(StoutForce, CoefficientsGiveTheExponential) {
  SiteRandom rng(41, 0, RngPurpose::Test, 1, 0);
  for (double c1 : {1e-12, 1e-4, 0.01, 0.03, 0.2, 1.0, 3.0})
    for (int n = 0; n < 4; ++n) {
      const SU3<double> q = algebra_with_c1(rng, c1);
      const ExpCoefficients k = exp_i_coefficients(q);
      EXPECT_LT(test::max_abs_diff(su3_quadratic(k.f, q, q * q), exp_i_taylor(q)), 1e-14) << c1;
    }
}

// Both branches (the paper's closed form and the series) agree where both are accurate, for c0 of either
// sign, and the derivatives b_ij are those of f_j (central differences in c0 and c1 of the series).
TEST(StoutForce, ClosedFormAndSeriesAndDerivativesAgree) {
  SiteRandom rng(43, 0, RngPurpose::Test, 2, 0);
  for (double c1 : {0.03, 0.06, 0.1})
    for (int n = 0; n < 6; ++n) {
      const SU3<double> q = algebra_with_c1(rng, c1);
      double c0, cc1;
      exp_i_invariants(q, c0, cc1);
      for (double sign : {1.0, -1.0}) {
        const ExpCoefficients a = exp_i_coefficients_closed(sign * c0, cc1), b = exp_i_coefficients_series(sign * c0, cc1);
        EXPECT_LT(max_diff(a.f, b.f), 1e-14) << c1;
        EXPECT_LT(max_diff(a.b1, b.b1), 1e-11) << c1;
        EXPECT_LT(max_diff(a.b2, b.b2), 1e-11) << c1;
      }
    }
  // b_ij = df_j/dc_i by central differences, on both branches (the series at c1 = 0.005, the closed
  // form at 0.5 and 2).
  for (double c1 : {0.005, 0.5, 2.0})
    for (int n = 0; n < 4; ++n) {
      const SU3<double> q = algebra_with_c1(rng, c1);
      double c0, cc1;
      exp_i_invariants(q, c0, cc1);
      const ExpCoefficients k = exp_i_coefficients(q);
      const double h = 1e-5 * c1;
      auto f_at = [](double x0, double x1) {
        return x1 < kSeriesBelowC1 ? exp_i_coefficients_series(x0, x1) : exp_i_coefficients_closed(x0, x1);
      };
      const ExpCoefficients p0 = f_at(c0 + h, cc1), m0 = f_at(c0 - h, cc1), p1 = f_at(c0, cc1 + h), m1 = f_at(c0, cc1 - h);
      for (int j = 0; j < 3; ++j) {
        EXPECT_LT(abs((p0.f[j] - m0.f[j]) * (0.5 / h) - k.b2[j]), 1e-7) << c1 << " j " << j;
        EXPECT_LT(abs((p1.f[j] - m1.f[j]) * (0.5 / h) - k.b1[j]), 1e-7) << c1 << " j " << j;
      }
    }
}

// d/dt tr(Y exp(i(Q + t D))) = tr(Q D) tr(Y B1) + tr(Q^2 D) tr(Y B2) + f1 tr(Y D) + f2 tr(Y (D Q + Q D))
// (the paper's eq. 69 and the Gamma of eq. 74), by central differences of the Taylor series.
TEST(StoutForce, DerivativeOfTheExponential) {
  SiteRandom rng(47, 0, RngPurpose::Test, 3, 0);
  for (double c1 : {1e-6, 0.02, 0.4, 2.5})
    for (int n = 0; n < 3; ++n) {
      const SU3<double> q = algebra_with_c1(rng, c1), d = random_algebra(rng, 1.0), y = random_matrix(rng);
      const SU3<double> q2 = q * q;
      const ExpCoefficients k = exp_i_coefficients(q);
      const Complex<double> analytic = trace(q * d) * trace(y * su3_quadratic(k.b1, q, q2)) +
                                       trace(q2 * d) * trace(y * su3_quadratic(k.b2, q, q2)) +
                                       k.f[1] * trace(y * d) + k.f[2] * trace(y * (d * q + q * d));
      const double h = 1e-5;
      SU3<double> dp = d, dm = d;
      dp *= h;
      dm *= -h;
      const Complex<double> numeric = (trace(y * exp_i_taylor(q + dp)) - trace(y * exp_i_taylor(q + dm))) * (0.5 / h);
      EXPECT_LT(abs(analytic - numeric), 1e-8 * std::max(1.0, abs(numeric))) << c1;
    }
}

// S[V] = sum_{x,mu} Re tr(Y_mu(x) V_mu(x)) with fixed random Y, and its force with respect to V:
// F^a = d/dw Re tr(Y e^{iwT^a} V) = -Im tr(T^a V Y), F = sum_a F^a T^a.
struct LinearAction {
  LexicographicGauge y;
  double value(const GaugeField<double>& V) const {
    const LexicographicGauge v = to_lexicographic(V);
    double s = 0;
    for (std::int64_t x = 0; x < v.volume(); ++x)
      for (int mu = 0; mu < 4; ++mu) s += re_trace(y(x, mu) * v(x, mu));
    return s;
  }
  GaugeField<double> force(const GaugeField<double>& V) const {
    LexicographicGauge v = to_lexicographic(V);
    for (std::int64_t x = 0; x < v.volume(); ++x)
      for (int mu = 0; mu < 4; ++mu) {
        const SU3<double> vy = v(x, mu) * y(x, mu);
        SU3<double> f = SU3<double>::zero();
        for (int a = 0; a < 8; ++a) {
          SU3<double> t = generator(a);
          t *= -trace(t * vy).im;
          f += t;
        }
        v(x, mu) = f;
      }
    return to_gauge_field(v, V.geometry(), V.location(), "force");
  }
};

LinearAction random_linear_action(const Geometry& g, std::uint64_t seed) {
  LinearAction s{LexicographicGauge(g.global)};
  SiteRandom rng(seed, 0, RngPurpose::Test, 4, 0);
  for (SU3<double>& y : s.y.links) y = random_matrix(rng);
  return s;
}

// The chain-ruled force at a few links and generators against d/dw S[stout^n(e^{iwT^a} U)] by central
// differences.
void expect_chain_rule_is_derivative(const GaugeField<double>& U, const StoutParams& prm, double tol) {
  const Geometry& g = U.geometry();
  const LinearAction S = random_linear_action(g, 101);
  const StoutSmearedLinks links(U, prm);
  const LexicographicGauge f = to_lexicographic(links.chain_rule(S.force(links.smeared())));
  const LexicographicGauge lex = to_lexicographic(U);
  const double eps = 1e-5;
  SiteRandom pick(7, 0, RngPurpose::Test, 5, 0);
  for (int n = 0; n < 8; ++n) {
    const std::int64_t site = std::int64_t(pick.uniform() * double(g.volume()));
    const int mu = int(pick.uniform() * 4), a = int(pick.uniform() * 8);
    double s[2];
    for (int sign = 0; sign < 2; ++sign) {
      LexicographicGauge v = lex;
      SU3<double> t = generator(a);
      t *= sign ? -eps : eps;
      v(site, mu) = exp_i_taylor(t) * v(site, mu);
      s[sign] = S.value(stout_smear(to_gauge_field(v, g, U.location()), prm));
    }
    const double numeric = (s[0] - s[1]) / (2 * eps);
    const double analytic = 2 * re_trace(generator(a) * f(site, mu));  // F^a = 2 tr(T^a F)
    EXPECT_NEAR(analytic, numeric, tol * std::max(1.0, std::abs(numeric)))
        << "steps " << prm.steps << " rho " << prm.rho << " spatial " << prm.spatial_only << ": site " << site
        << " mu " << mu << " generator " << a;
    EXPECT_LT(abs(trace(f(site, mu))), 1e-13);
    EXPECT_LT(test::max_abs_diff(f(site, mu), dagger(f(site, mu))), 1e-13);
  }
}

class StoutForceTest : public ::testing::TestWithParam<Location> {};

TEST_P(StoutForceTest, ChainRuleIsTheDerivative) {
  const Geometry g = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(g, GetParam(), 23);
  expect_chain_rule_is_derivative(U, {0.1, 1, false}, 1e-6);
  expect_chain_rule_is_derivative(U, {0.15, 3, false}, 1e-6);
  expect_chain_rule_is_derivative(U, {0.12, 2, true}, 1e-6);
}

// At the unit field Q = 0 on every link (the series branch, and a cold HMC start): the force is still
// the derivative.
TEST_P(StoutForceTest, ChainRuleAtTheUnitField) {
  const Geometry g = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U(g, GetParam());
  set_unit_gauge(U);
  expect_chain_rule_is_derivative(U, {0.125, 2, false}, 1e-6);
}

TEST_P(StoutForceTest, ZeroStepsOrZeroRhoKeepTheForce) {
  const Geometry g = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(g, GetParam(), 29);
  const LinearAction S = random_linear_action(g, 103);
  const GaugeField<double> F = S.force(U);
  const LexicographicGauge f = to_lexicographic(F);
  for (const StoutParams prm : {StoutParams{0.1, 0, false}, StoutParams{0.0, 2, false}}) {
    const StoutSmearedLinks links(U, prm);
    const LexicographicGauge g2 = to_lexicographic(links.chain_rule(S.force(links.smeared())));
    double d = 0;
    for (std::size_t i = 0; i < f.links.size(); ++i) d = std::max(d, test::max_abs_diff(f.links[i], g2.links[i]));
    EXPECT_LT(d, 1e-13) << prm.steps << " " << prm.rho;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, StoutForceTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(StoutForce, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry g = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = test::rough_gauge(g, Location::Host, 31), Ud = Uh.clone(Location::Device);
  const LinearAction S = random_linear_action(g, 107);
  const StoutParams prm{0.12, 3, false};
  const StoutSmearedLinks h(Uh, prm), d(Ud, prm);
  const LexicographicGauge fh = to_lexicographic(h.chain_rule(S.force(h.smeared())));
  const LexicographicGauge fd = to_lexicographic(d.chain_rule(S.force(d.smeared())));
  double diff = 0, size = 0;
  for (std::size_t i = 0; i < fh.links.size(); ++i) {
    diff = std::max(diff, test::max_abs_diff(fh.links[i], fd.links[i]));
    size = std::max(size, test::max_abs_diff(fh.links[i], SU3<double>::zero()));
  }
  EXPECT_LT(diff, 1e-12 * size);
}

}  // namespace
}  // namespace lqcd
