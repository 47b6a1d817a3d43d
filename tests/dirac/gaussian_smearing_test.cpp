// Wuppertal (Gaussian) smearing: free-field plane waves as eigenvectors, hermiticity, gauge
// covariance, time slices kept apart, host/device agreement, parameter validation (rungs 2, 3, 5).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "dirac/gaussian_smearing.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/ape_smearing.hpp"
#include "gauge/update_kernels.hpp"
#include "gauge/updates.hpp"
#include "field_test_support.hpp"

namespace lqcd {
namespace {

using test::max_diff;
using test::max_norm;
using test::random_spinor;

GaugeField<double> rough_gauge(const Geometry& g, Location loc) { return test::rough_gauge(g, loc, 21, 5.7); }

LexicographicSpinor smeared(const LexicographicSpinor& psi, const GaugeField<double>& U, const GaussianParams& p) {
  SpinorField<double> f = to_spinor_field(psi, U.geometry(), U.location());
  gaussian_smear(f, U, p);
  return to_lexicographic(f);
}

// On the unit field, psi(x) = f(t) e^{i p.x} u (spatial momentum p_i = 2 pi n_i / L_i, any time
// profile f, any spin-colour vector u) is an eigenvector with eigenvalue
// [(1 + 2 kappa_G sum_i cos p_i) / (1 + 6 kappa_G)]^N in the hopping form, [1 - (w^2/4N) sum_i 2 (1 - cos p_i)]^N
// in the width form (the lattice Laplacian's eigenvalue is -sum_i 2 (1 - cos p_i)).
TEST(GaussianSmearing, FreePlaneWavesAreEigenvectors) {
  const Geometry geom = Geometry::single_process({6, 4, 8, 4});
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  const SiteIndexer idx = SiteIndexer::from(geom);
  const int momenta[5][3] = {{0, 0, 0}, {1, 0, 0}, {2, 1, 3}, {3, 2, 4}, {5, 3, 7}};
  // Both input forms, negative kappa_G (w = 2, N = 5 is kappa_G = -1) and alpha = 1/6 (no kappa_G) included.
  const double kappas[] = {0.25, 0.5, 2.0, 0.1, -1.0}, widths[] = {2.0, 2.0, 3.5};
  const GaussianParams params[] = {GaussianParams::from_kappa(0.25, 1), GaussianParams::from_kappa(0.5, 3),
                                   GaussianParams::from_kappa(2.0, 5),  GaussianParams::from_kappa(0.1, 40),
                                   GaussianParams::from_kappa(-1.0, 5), GaussianParams::from_width(2.0, 5),
                                   GaussianParams::from_width(2.0, 6),  GaussianParams::from_width(3.5, 20)};
  int case_no = 0;
  for (const auto& n : momenta)
    for (const GaussianParams& prm : params) {
      SiteRandom rng(7, std::uint64_t(case_no++), RngPurpose::Test, 0, 0);
      ColorSpinor<double> u;
      for (auto& sp : u.s)
        for (auto& z : sp.c) z = Complex<double>(rng.gaussian(), rng.gaussian());
      Complex<double> f[4];
      for (auto& z : f) z = Complex<double>(rng.gaussian(), rng.gaussian());
      double p[3], cos_sum = 0;
      for (int d = 0; d < 3; ++d) {
        p[d] = 2 * M_PI * n[d] / geom.local[d];
        cos_sum += std::cos(p[d]);
      }
      const std::size_t k = std::size_t(&prm - params);
      const double per_step = k < 5 ? (1 + 2 * kappas[k] * cos_sum) / (1 + 6 * kappas[k])
                                    : 1 - widths[k - 5] * widths[k - 5] / (4.0 * prm.iterations) * 2 * (3 - cos_sum);
      const double lambda = std::pow(per_step, prm.iterations);
      LexicographicSpinor wave(std::size_t(geom.volume())), expected(wave.size());
      for (std::int64_t i = 0; i < geom.volume(); ++i) {
        int x[4];
        idx.coords_lex(i, x);
        const double phase = p[0] * x[0] + p[1] * x[1] + p[2] * x[2];
        wave[std::size_t(i)] = (f[x[3]] * Complex<double>(std::cos(phase), std::sin(phase))) * u;
        expected[std::size_t(i)] = Complex<double>(lambda) * wave[std::size_t(i)];
      }
      // Relative to the eigenvalue (but not below 1e-2 of it: the rounding is absolute).
      EXPECT_LT(max_diff(smeared(wave, U, prm), expected), 1e-12 * max_norm(wave) * std::max(std::abs(lambda), 1e-2))
          << "n = " << n[0] << n[1] << n[2] << " alpha = " << prm.alpha << " N = " << prm.iterations
          << " lambda = " << lambda;
    }
}

class GaussianBackendTest : public ::testing::TestWithParam<Location> {};

TEST_P(GaussianBackendTest, IsHermitian) {
  // S = [(1 + kappa H_s) / (1 + 6 kappa)]^N with H_s hermitian: <chi, S psi> = <S chi, psi>.
  const Geometry geom = Geometry::single_process({4, 6, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  const GaussianParams prm = GaussianParams::from_kappa(0.4, 6);
  const SpinorField<double> chi = to_spinor_field(random_spinor(geom, 1), geom, GetParam());
  const SpinorField<double> psi = to_spinor_field(random_spinor(geom, 2), geom, GetParam());
  SpinorField<double> s_chi = chi.clone(GetParam()), s_psi = psi.clone(GetParam());
  gaussian_smear(s_chi, U, prm);
  gaussian_smear(s_psi, U, prm);
  const Complex<double> lhs = dot(chi, s_psi), rhs = dot(s_chi, psi);
  EXPECT_NEAR(lhs.re, rhs.re, 1e-12 * abs(lhs));
  EXPECT_NEAR(lhs.im, rhs.im, 1e-12 * abs(lhs));
  EXPECT_GT(std::abs(lhs.im), 1e-3 * abs(lhs));  // a non-trivial complex number
}

TEST_P(GaussianBackendTest, GaugeCovariance) {
  // S[U^g] (g psi) = g (S[U] psi), U^g_mu(x) = g(x) U_mu(x) g(x+mu)^dag; with an APE-smeared field
  // as in use (both are covariant, so the composition is too).
  const Geometry geom = Geometry::single_process({4, 4, 6, 4});
  GaugeField<double> U = rough_gauge(geom, GetParam());
  const ApeParams ape{0.5, 2, true};
  const GaussianParams prm = GaussianParams::from_kappa(0.3, 5);
  const LexicographicSpinor psi = random_spinor(geom, 3);
  LexicographicSpinor g_s_psi = smeared(psi, ape_smear(U, ape), prm);

  const std::uint64_t seed = 77;
    auto rotate = [&](const LexicographicSpinor& v) { return test::gauge_rotate(v, U, seed); };
  g_s_psi = rotate(g_s_psi);
  random_gauge_transformation(U, seed);
  const LexicographicSpinor s_g_psi = smeared(rotate(psi), ape_smear(U, ape), prm);
  EXPECT_LT(max_diff(s_g_psi, g_s_psi), 1e-11 * max_norm(g_s_psi));
}

TEST_P(GaussianBackendTest, PointSourceStaysOnItsTimeSliceAndSpreadsByOneHopPerIteration) {
  const Geometry geom = Geometry::single_process({8, 8, 8, 6});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  const SiteIndexer idx = SiteIndexer::from(geom);
  const int src[4] = {1, 2, 5, 3};
  LexicographicSpinor point(std::size_t(geom.volume()));
  point[std::size_t(idx.lex(src))].s[2].c[1] = Complex<double>(1.0);
  const int N = 3;
  const LexicographicSpinor out = smeared(point, U, GaussianParams::from_kappa(0.5, N));
  int nonzero = 0;
  double total = 0;
  for (std::int64_t i = 0; i < geom.volume(); ++i) {
    int x[4];
    idx.coords_lex(i, x);
    int dist = 0;  // spatial taxicab distance on the periodic lattice
    for (int d = 0; d < 3; ++d) {
      const int a = std::abs(x[d] - src[d]);
      dist += std::min(a, geom.local[d] - a);
    }
    const double n2 = norm2(out[std::size_t(i)]);
    if (x[3] != src[3] || dist > N) {
      EXPECT_EQ(n2, 0.0) << "site " << x[0] << x[1] << x[2] << x[3];
    } else if (n2 > 0) {
      ++nonzero;
      // Only the source's spin component: the colour matrices act on colour alone.
      for (int s = 0; s < 4; ++s) {
        if (s == 2) continue;
        for (int c = 0; c < 3; ++c) EXPECT_EQ(norm2(out[std::size_t(i)].s[s].c[c]), 0.0);
      }
    }
    total += n2;
  }
  EXPECT_EQ(nonzero, 1 + 6 + 18 + 38);  // the sites within 3 hops of a point in three dimensions
  EXPECT_GT(total, 0.0);
}

TEST_P(GaussianBackendTest, ZeroIterationsOrZeroKappaIsTheIdentity) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  const LexicographicSpinor psi = random_spinor(geom, 4);
  EXPECT_EQ(max_diff(smeared(psi, U, GaussianParams::from_kappa(0.7, 0)), psi), 0.0);
  EXPECT_EQ(max_diff(smeared(psi, U, GaussianParams::from_kappa(0.0, 5)), psi), 0.0);
  EXPECT_GT(max_diff(smeared(psi, U, GaussianParams::from_kappa(0.7, 1)), psi), 0.1);
}

INSTANTIATE_TEST_SUITE_P(Backends, GaussianBackendTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// Chroma's and MILC's (width, steps) form and lqcd's hopping form are one operator where both apply:
// w = 2, N = 5 is kappa_G = -1 (alpha = 1/5), and w^2/(4N) = kappa_G / (1 + 6 kappa_G) in general; on a
// rough APE-smeared field, to rounding.
TEST_P(GaussianBackendTest, WidthFormEqualsHoppingForm) {
  const Geometry geom = Geometry::single_process({6, 4, 4, 4});
  const GaugeField<double> U = ape_smear(rough_gauge(geom, GetParam()), ApeParams{0.5, 2, true});
  const LexicographicSpinor psi = random_spinor(geom, 8);
  const struct {
    double width;
    int steps;
    double kappa_G;
  } cases[] = {{2.0, 5, -1.0}, {1.0, 4, 1.0 / 10}, {3.0, 9, -0.5}, {0.5, 1, 1.0 / 10}};
  for (const auto& c : cases) {
    const LexicographicSpinor w = smeared(psi, U, GaussianParams::from_width(c.width, c.steps));
    const LexicographicSpinor k = smeared(psi, U, GaussianParams::from_kappa(c.kappa_G, c.steps));
    EXPECT_LT(max_diff(w, k), 1e-13 * max_norm(w)) << "w = " << c.width << " N = " << c.steps;
    EXPECT_GT(max_diff(w, psi), 1e-2 * max_norm(psi));  // the smearing did something
  }
}

TEST(GaussianSmearing, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = ape_smear(rough_gauge(geom, Location::Host), ApeParams{0.5, 3, true});
  const GaugeField<double> Ud = Uh.clone(Location::Device);
  const LexicographicSpinor psi = random_spinor(geom, 5);
  const GaussianParams prm = GaussianParams::from_kappa(0.35, 10);
  const LexicographicSpinor h = smeared(psi, Uh, prm), d = smeared(psi, Ud, prm);
  EXPECT_LT(max_diff(h, d), 1e-12 * max_norm(h));
}

TEST(GaussianSmearing, RejectsBadParametersAndFields) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  auto message = [&](SpinorField<double>& psi, const GaugeField<double>& g, const GaussianParams& p) {
    try {
      gaussian_smear(psi, g, p);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SpinorField<double> psi = to_spinor_field(random_spinor(geom, 6), geom, Location::Host);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  // Only what leaves the smearing undefined: 1 + 6 kappa_G = 0, a width that is no length, N < 0.
  for (double kappa : {-1.0 / 6, nan, inf})
    EXPECT_NE(test::error_of([&] { GaussianParams::from_kappa(kappa, 1); }).find("source.smearing_kappa"),
              std::string::npos)
        << kappa;
  for (double width : {-1.0, nan, inf})
    EXPECT_NE(test::error_of([&] { GaussianParams::from_width(width, 3); }).find("source.smearing_width"),
              std::string::npos)
        << width;
  EXPECT_NE(test::error_of([] { GaussianParams::from_width(2.0, 0); }).find("source.smearing_iterations"),
            std::string::npos);
  EXPECT_NE(test::error_of([] { GaussianParams::from_kappa(0.2, -1); }).find("source.smearing_iterations"),
            std::string::npos);
  EXPECT_NE(message(psi, U, GaussianParams{nan, 1}).find("source.smearing_kappa"), std::string::npos);
  for (double kappa : {-0.1, -1.0, -0.2, 5.0}) EXPECT_NO_THROW(GaussianParams::from_kappa(kappa, 2)) << kappa;
  SpinorField<double> half(geom, Location::Host, Subset::Even);
  EXPECT_THROW(gaussian_smear(half, U, GaussianParams::from_kappa(0.2, 1)), Error);
  GaugeField<double> other(Geometry::single_process({4, 4, 4, 6}), Location::Host);
  set_unit_gauge(other);
  EXPECT_THROW(gaussian_smear(psi, other, GaussianParams::from_kappa(0.2, 1)), Error);
  EXPECT_NO_THROW(gaussian_smear(psi, U, GaussianParams::from_kappa(0.2, 1)));
}

}  // namespace
}  // namespace lqcd
