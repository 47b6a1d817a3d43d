// Gauge fixing (gauge/gauge_fixing.hpp) and its FFT (core/fourier_transform.hpp): the FFT against a
// plain DFT; a pure gauge goes back to the unit field; on a smooth field the Landau and Coulomb
// conditions are met (theta < 1e-14, and the divergence recomputed here from the links), the plaquette
// is unchanged, a random gauge transformation of the input ends at the same field up to the residual
// global symmetry, both methods agree, and host and device agree.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "core/error.hpp"
#include "core/fourier_transform.hpp"
#include "core/site_random.hpp"
#include "field_test_support.hpp"
#include "gauge/gauge_fixing.hpp"
#include "gauge/gauge_fixing_kernels.hpp"
#include "gauge/observables.hpp"
#include "gauge/updates.hpp"
#include "math/su3_exp.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// ---------------------------------------------------------------------------------------------------
// The FFT.

// sum_x f(x) exp(sign 2 pi i k.x / n) over row-major extents n, one array.
std::vector<std::complex<double>> plain_dft(const std::vector<std::complex<double>>& f, const std::vector<int>& n,
                                            int sign) {
  const int rank = int(n.size());
  std::vector<std::complex<double>> out(f.size());
  const auto coords = [&](std::size_t i, std::vector<int>& c) {
    for (int d = rank - 1; d >= 0; --d) {
      c[std::size_t(d)] = int(i % std::size_t(n[std::size_t(d)]));
      i /= std::size_t(n[std::size_t(d)]);
    }
  };
  std::vector<int> k(n.size()), x(n.size());
  for (std::size_t a = 0; a < f.size(); ++a) {
    coords(a, k);
    std::complex<double> s = 0;
    for (std::size_t b = 0; b < f.size(); ++b) {
      coords(b, x);
      double phase = 0;
      for (int d = 0; d < rank; ++d) phase += double(k[std::size_t(d)]) * x[std::size_t(d)] / n[std::size_t(d)];
      s += f[b] * std::polar(1.0, sign * 2 * std::numbers::pi * phase);
    }
    out[a] = s;
  }
  return out;
}

class FourierTransformTest : public ::testing::TestWithParam<Location> {};

TEST_P(FourierTransformTest, MatchesThePlainDftAndInvertsUpToTheNumberOfPoints) {
  for (const std::vector<int>& n : {std::vector<int>{3, 4, 2, 6}, std::vector<int>{5, 2, 4}}) {
    const int batch = 3;
    std::int64_t points = 1;
    for (int e : n) points *= e;
    std::vector<std::complex<double>> f(std::size_t(points * batch));
    SiteRandom rng(11, 0, RngPurpose::Test, 0, 0);
    for (auto& z : f) z = {rng.gaussian(), rng.gaussian()};
    Buffer<std::complex<double>> host(f.size(), Location::Host), buf(f.size(), GetParam());
    std::copy(f.begin(), f.end(), host.data());
    buf.copy_from(host);
    const BatchedFft fft(n, batch, GetParam());
    EXPECT_EQ(fft.points(), points);
    fft.forward(buf.data());
    host.copy_from(buf);
    for (int b = 0; b < batch; ++b) {
      const std::vector<std::complex<double>> one(f.begin() + b * points, f.begin() + (b + 1) * points);
      const auto want = plain_dft(one, n, -1);
      for (std::int64_t i = 0; i < points; ++i)
        ASSERT_LT(std::abs(host.data()[b * points + i] - want[std::size_t(i)]), 1e-12) << "rank " << n.size();
    }
    fft.backward(buf.data());
    host.copy_from(buf);
    for (std::size_t i = 0; i < f.size(); ++i)
      ASSERT_LT(std::abs(host.data()[i] / double(points) - f[i]), 1e-13) << "rank " << n.size();
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, FourierTransformTest, ::testing::ValuesIn(test::locations()),
                         [](const ::testing::TestParamInfo<Location>& info) { return to_string(info.param); });

// ---------------------------------------------------------------------------------------------------
// Gauge fixing.

// U_mu(x) = exp(i eps H) with H a random traceless Hermitian matrix per link: a smooth field, close to
// the unit one, whose gauge-fixing maximum is unique up to the global symmetry.
GaugeField<double> weak_field(const Geometry& g, Location loc, double eps, std::uint64_t seed) {
  LexicographicGauge lex(g.global);
  for (std::int64_t i = 0; i < lex.volume(); ++i)
    for (int mu = 0; mu < 4; ++mu) {
      SiteRandom rng(seed, std::uint64_t(i), RngPurpose::Test, std::uint32_t(mu), 0);
      SU3<double> h = test::random_matrix(rng);
      SU3<double> herm = (h + dagger(h)) * (eps / 2);
      const double tr = re_trace(herm) / 3;
      for (int r = 0; r < 3; ++r) herm.m[r][r].re -= tr;
      lex(i, mu) = exp_i(herm);
    }
  return to_gauge_field(lex, g, loc);
}

// The largest |Delta(x)_ij| (gauge_fixing.hpp) over the lattice, from the links in file order.
double max_divergence(const LexicographicGauge& u, int ndir) {
  const int n[4] = {u.dims[0], u.dims[1], u.dims[2], u.dims[3]};
  double worst = 0;
  for (std::int64_t i = 0; i < u.volume(); ++i) {
    int x[4];
    lexicographic_coords(i, n, x);
    SU3<double> d = SU3<double>::zero();
    for (int mu = 0; mu < ndir; ++mu) {
      int y[4] = {x[0], x[1], x[2], x[3]};
      y[mu] = (y[mu] + n[mu] - 1) % n[mu];
      const std::int64_t j = y[0] + n[0] * (y[1] + n[1] * (y[2] + std::int64_t(n[2]) * y[3]));
      d += u(i, mu) - dagger(u(i, mu));
      d -= u(j, mu) - dagger(u(j, mu));
    }
    // (d - tr d / 3) / (2i): the traceless part's entries have the same moduli up to the factor 1/2.
    const Complex<double> tr = (d.m[0][0] + d.m[1][1] + d.m[2][2]) * (1.0 / 3);
    for (int r = 0; r < 3; ++r) d.m[r][r] -= tr;
    for (const auto& row : d.m)
      for (const auto& z : row) worst = std::max(worst, std::abs(std::complex<double>(z.re, z.im)) / 2);
  }
  return worst;
}

// Fields equal up to a global rotation U -> h U h^dag (Landau), or one h(t) per time slice (Coulomb:
// only the spatial links then compare this way): their traces agree link by link, and so do the traces of
// the products with a fixed link of the same time slice.
void expect_equal_up_to_global_rotation(const LexicographicGauge& a, const LexicographicGauge& b, int ndir,
                                        double tol) {
  const int n[4] = {a.dims[0], a.dims[1], a.dims[2], a.dims[3]};
  const std::int64_t slice = std::int64_t(n[0]) * n[1] * n[2];
  double worst = 0;
  for (std::int64_t i = 0; i < a.volume(); ++i) {
    const std::int64_t ref = (i / slice) * slice;  // the slice's first site
    for (int mu = 0; mu < ndir; ++mu) {
      const Complex<double> d1 = trace(a(i, mu)) - trace(b(i, mu));
      const Complex<double> d2 = trace(a(i, mu) * a(ref, (mu + 1) % ndir)) - trace(b(i, mu) * b(ref, (mu + 1) % ndir));
      worst = std::max({worst, std::hypot(d1.re, d1.im), std::hypot(d2.re, d2.im)});
    }
  }
  EXPECT_LT(worst, tol);
}

struct FixCase {
  GaugeCondition gauge;
  GaugeFixMethod method;
  Location loc;
};

class GaugeFixTest : public ::testing::TestWithParam<FixCase> {};

TEST_P(GaugeFixTest, PureGaugeReturnsToTheUnitField) {
  const auto [gauge, method, loc] = GetParam();
  const int ndir = gauge == GaugeCondition::Landau ? 4 : 3;
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  GaugeField<double> U(g, loc);
  set_unit_gauge(U);
  random_gauge_transformation(U, 5);
  GaugeFixParams p;
  p.gauge = gauge;
  p.method = method;
  p.precision = method == GaugeFixMethod::Fourier ? 1e-20 : 1e-16;
  const GaugeFixResult r = fix_gauge(U, p);
  ASSERT_TRUE(r.converged) << r.iterations << " iterations, theta " << r.final.theta;
  // F = 1 only where every link of the condition is h 1 h^dag = 1 (Coulomb: the temporal links keep
  // h(t) h(t+1)^dag, the residual freedom).
  EXPECT_NEAR(r.final.functional, 1.0, 1e-12);
  const LexicographicGauge u = to_lexicographic(U);
  double worst = 0;
  for (std::int64_t i = 0; i < u.volume(); ++i)
    for (int mu = 0; mu < ndir; ++mu) worst = std::max(worst, test::max_abs_diff(u(i, mu), SU3<double>::identity()));
  EXPECT_LT(worst, 1e-7);
}

TEST_P(GaugeFixTest, MeetsTheConditionKeepsThePlaquetteAndForgetsTheStartingGauge) {
  const auto [gauge, method, loc] = GetParam();
  const int ndir = gauge == GaugeCondition::Landau ? 4 : 3;
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  GaugeField<double> U = weak_field(g, loc, 0.4, 3);
  GaugeField<double> V = U.clone(loc);
  random_gauge_transformation(V, 21);
  const GaugeObservables before = gauge_observables(U);
  GaugeFixParams p;
  p.gauge = gauge;
  p.method = method;
  p.precision = method == GaugeFixMethod::Fourier ? 1e-14 : 1e-15;
  const GaugeFixResult a = fix_gauge(U, p), b = fix_gauge(V, p);
  ASSERT_TRUE(a.converged && b.converged) << a.final.theta << " " << b.final.theta;
  EXPECT_GT(a.iterations, 5);
  EXPECT_GT(b.final.functional, b.initial.functional);
  EXPECT_NEAR(a.final.functional, b.final.functional, 1e-12);
  const GaugeFixQuality q = gauge_fix_quality(U, gauge);
  EXPECT_EQ(q.theta, a.final.theta);
  EXPECT_LT(max_divergence(to_lexicographic(U), ndir), 2e-6);
  const GaugeObservables after = gauge_observables(U);
  EXPECT_NEAR(after.plaquette, before.plaquette, 1e-12);
  EXPECT_NEAR(after.polyakov_loop.re, before.polyakov_loop.re, 1e-12);
  EXPECT_NEAR(after.polyakov_loop.im, before.polyakov_loop.im, 1e-12);
  expect_equal_up_to_global_rotation(to_lexicographic(U), to_lexicographic(V), ndir, 1e-6);
}

std::vector<FixCase> fix_cases() {
  std::vector<FixCase> c;
  for (Location loc : test::locations())
    for (GaugeCondition gauge : {GaugeCondition::Landau, GaugeCondition::Coulomb})
      for (GaugeFixMethod m : {GaugeFixMethod::Fourier, GaugeFixMethod::Overrelaxation}) c.push_back({gauge, m, loc});
  return c;
}

INSTANTIATE_TEST_SUITE_P(Cases, GaugeFixTest, ::testing::ValuesIn(fix_cases()),
                         [](const ::testing::TestParamInfo<FixCase>& info) {
                           return to_string(info.param.gauge) + "_" +
                                  (info.param.method == GaugeFixMethod::Fourier ? "fft" : "or") + "_" +
                                  to_string(info.param.loc);
                         });

TEST(GaugeFixing, BothMethodsReachTheSameGauge) {
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  GaugeField<double> U = weak_field(g, Location::Host, 0.4, 7);
  GaugeField<double> V = U.clone(Location::Host);
  GaugeFixParams p;
  p.precision = 1e-15;
  fix_gauge(U, p);
  p.method = GaugeFixMethod::Overrelaxation;
  fix_gauge(V, p);
  expect_equal_up_to_global_rotation(to_lexicographic(U), to_lexicographic(V), 4, 1e-6);
}

TEST(GaugeFixing, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry g = Geometry::single_process({8, 8, 8, 8});
  GaugeField<double> h = test::rough_gauge(g, Location::Host, 4, 6.0);
  GaugeField<double> d = h.clone(Location::Device);
  for (GaugeFixMethod m : {GaugeFixMethod::Fourier, GaugeFixMethod::Overrelaxation}) {
    GaugeFixParams p;
    p.method = m;
    p.max_iterations = 50;  // a fixed number of steps: the same path on both
    p.precision = 1e-30;
    const GaugeFixResult a = fix_gauge(h, p), b = fix_gauge(d, p);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_NEAR(a.final.theta, b.final.theta, 1e-10 * a.initial.theta);
    EXPECT_LT(test::max_link_difference(to_lexicographic(h), to_lexicographic(d)), 1e-11);
  }
}

TEST(GaugeFixing, RefusesBadParameters) {
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  GaugeField<double> U = weak_field(g, Location::Host, 0.4, 3);
  const auto refused = [&](auto change, const char* key) {
    GaugeFixParams p;
    change(p);
    try {
      fix_gauge(U, p);
      ADD_FAILURE() << key << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  refused([](GaugeFixParams& p) { p.precision = 0; }, "gaugefix.precision");
  refused([](GaugeFixParams& p) { p.max_iterations = 0; }, "gaugefix.max_iterations");
  refused([](GaugeFixParams& p) { p.alpha = -0.1; }, "gaugefix.alpha");
  refused([](GaugeFixParams& p) { p.omega = 2; }, "gaugefix.omega");
  refused([](GaugeFixParams& p) { p.reunitarize_every = -1; }, "gaugefix.reunitarize_every");
}

TEST(GaugeFixing, TooLongAStepIsHalvedUntilTheFunctionalRises) {
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  GaugeField<double> U = test::rough_gauge(g, Location::Host, 6, 6.0);
  GaugeFixParams p;
  p.alpha = 0.5;  // diverges at a fixed step on such a field
  const GaugeFixResult r = fix_gauge(U, p);
  EXPECT_TRUE(r.converged) << r.final.theta;
  EXPECT_GT(r.step_halvings, 0);
  EXPECT_LT(r.alpha, 0.1);
  EXPECT_EQ(r.alpha, 0.5 / (1 << r.step_halvings));
}

TEST(GaugeFixing, StopsAtTheIterationLimitAndSaysSo) {
  const Geometry g = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U = test::rough_gauge(g, Location::Host, 2, 5.7);
  GaugeFixParams p;
  p.max_iterations = 3;
  const GaugeFixResult r = fix_gauge(U, p);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_LT(r.final.theta, r.initial.theta);
}

}  // namespace
}  // namespace lqcd
