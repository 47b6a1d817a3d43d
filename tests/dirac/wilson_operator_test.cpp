// The Wilson and twisted-mass operators: exact free-field results (plane waves against the
// momentum-space operator), gamma_5-hermiticity, gauge covariance, host/device agreement.
#include <gtest/gtest.h>

#include <cmath>

#include "dirac/wilson_operator.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/update_kernels.hpp"
#include "gauge/updates.hpp"
#include "field_test_support.hpp"

namespace lqcd {
namespace {

using test::max_diff;
using test::random_spinor;
using test::rough_gauge;


// (D_W + m0 + i mu gamma_5) e^{ipx} u = [m0 + sum_mu (1 - cos p_mu) + i sum_mu gamma_mu sin p_mu
//   + i mu gamma_5] e^{ipx} u, with p_mu = (2 pi n_mu + theta_mu) / L_mu for boundary phase e^{i theta_mu}.
TEST(WilsonOperator, FreeFieldPlaneWavesMatchMomentumSpace) {
  const Geometry geom = Geometry::single_process({4, 6, 4, 8});
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  const double theta_sets[3][4] = {{0, 0, 0, M_PI}, {0, 0, 0, 0}, {0.3, -1.1, 0, M_PI}};
  const int momenta[3][4] = {{0, 0, 0, 0}, {1, 2, 0, 3}, {3, 5, 1, 7}};
  for (const auto& theta : theta_sets)
    for (const auto& n : momenta)
      for (double mu_tm : {0.0, 0.37}) {
        WilsonParams prm;
        prm.kappa = WilsonParams::kappa_of_mass(0.2);
        prm.mu = mu_tm;
        for (int d = 0; d < 4; ++d) prm.boundary.phase[d] = Complex<double>(std::cos(theta[d]), std::sin(theta[d]));
        const WilsonOperator<double> M(U, prm);
        double p[4];
        for (int d = 0; d < 4; ++d) p[d] = (2 * M_PI * n[d] + theta[d]) / geom.local[d];
        for (int component = 0; component < 12; ++component) {
          LexicographicSpinor wave(std::size_t(geom.volume()));
          const SiteIndexer idx = SiteIndexer::from(geom);
          for (std::int64_t i = 0; i < geom.volume(); ++i) {
            int x[4];
            idx.coords_lex(i, x);
            const double phase = p[0] * x[0] + p[1] * x[1] + p[2] * x[2] + p[3] * x[3];
            wave[std::size_t(i)].s[component / 3].c[component % 3] = Complex<double>(std::cos(phase), std::sin(phase));
          }
          const SpinorField<double> in = to_spinor_field(wave, geom, Location::Host);
          SpinorField<double> out = in.like();
          M.apply_mass_form(out, in);
          // Expected: the momentum-space matrix applied to each site's spinor.
          LexicographicSpinor expected(wave.size());
          for (std::size_t i = 0; i < wave.size(); ++i) {
            ColorSpinor<double> e = Complex<double>(prm.mass()) * wave[i];
            for (int d = 0; d < 4; ++d) {
              e += Complex<double>(1 - std::cos(p[d])) * wave[i];
              e += Complex<double>(0, std::sin(p[d])) * apply_gamma(d, wave[i]);
            }
            e += Complex<double>(0, mu_tm) * apply_gamma(kGamma5, wave[i]);
            expected[i] = e;
          }
          EXPECT_LT(max_diff(to_lexicographic(out), expected), 1e-12)
              << "component " << component << " n = " << n[0] << n[1] << n[2] << n[3] << " mu = " << mu_tm;
        }
      }
}

class WilsonBackendTest : public ::testing::TestWithParam<Location> {};

TEST_P(WilsonBackendTest, Gamma5HermiticityAndDagger) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  for (double mu_tm : {0.0, 0.25}) {
    WilsonParams prm;
    prm.kappa = 0.13;
    prm.mu = mu_tm;
    WilsonParams minus = prm;
    minus.mu = -mu_tm;
    const WilsonOperator<double> M(U, prm), Mminus(U, minus);
    const SpinorField<double> chi = to_spinor_field(random_spinor(geom, 1), geom, GetParam());
    const SpinorField<double> psi = to_spinor_field(random_spinor(geom, 2), geom, GetParam());
    SpinorField<double> m_psi = psi.like(), mdag_chi = psi.like();
    M.apply(m_psi, psi);
    M.apply_dagger(mdag_chi, chi);
    const Complex<double> lhs = dot(chi, m_psi), rhs = dot(mdag_chi, psi);
    EXPECT_NEAR(lhs.re, rhs.re, 1e-10 * abs(lhs));
    EXPECT_NEAR(lhs.im, rhs.im, 1e-10 * abs(lhs));
    // M^dag = gamma_5 M(-mu) gamma_5, checked site by site.
    LexicographicSpinor g5chi = to_lexicographic(chi);
    for (auto& s : g5chi) s = apply_gamma(kGamma5, s);
    SpinorField<double> t = psi.like();
    Mminus.apply(t, to_spinor_field(g5chi, geom, GetParam()));
    LexicographicSpinor g5mg5 = to_lexicographic(t);
    for (auto& s : g5mg5) s = apply_gamma(kGamma5, s);
    EXPECT_LT(max_diff(g5mg5, to_lexicographic(mdag_chi)), 1e-12);
  }
}

TEST_P(WilsonBackendTest, GaugeCovariance) {
  // M[U^g] (g psi) = g (M[U] psi) with U^g_mu(x) = g(x) U_mu(x) g(x+mu)^dag.
  const Geometry geom = Geometry::single_process({4, 4, 6, 4});
  GaugeField<double> U = rough_gauge(geom, GetParam());
  WilsonParams prm;
  prm.kappa = 0.124;
  prm.mu = 0.1;
  const LexicographicSpinor psi = random_spinor(geom, 3);
  SpinorField<double> out = to_spinor_field(psi, geom, GetParam());
  WilsonOperator<double>(U, prm).apply(out, to_spinor_field(psi, geom, GetParam()));
  LexicographicSpinor g_m_psi = to_lexicographic(out);

  const std::uint64_t seed = 99;
    auto rotate = [&](const LexicographicSpinor& v) { return test::gauge_rotate(v, U, seed); };
  g_m_psi = rotate(g_m_psi);
  random_gauge_transformation(U, seed);
  SpinorField<double> out_g = out.like();
  WilsonOperator<double>(U, prm).apply(out_g, to_spinor_field(rotate(psi), geom, GetParam()));
  EXPECT_LT(max_diff(to_lexicographic(out_g), g_m_psi), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Backends, WilsonBackendTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(WilsonOperator, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = rough_gauge(geom, Location::Host);
  const GaugeField<double> Ud = Uh.clone(Location::Device);
  WilsonParams prm;
  prm.kappa = 0.155;
  prm.mu = 0.05;
  const LexicographicSpinor psi = random_spinor(geom, 4);
  SpinorField<double> oh(geom, Location::Host), od(geom, Location::Device);
  WilsonOperator<double>(Uh, prm).apply(oh, to_spinor_field(psi, geom, Location::Host));
  WilsonOperator<double>(Ud, prm).apply(od, to_spinor_field(psi, geom, Location::Device));
  const LexicographicSpinor h = to_lexicographic(oh), d = to_lexicographic(od);
  double scale = 0;
  for (const auto& s : h) scale = std::max(scale, std::sqrt(norm2(s)));
  EXPECT_LT(max_diff(h, d), 1e-12 * scale);
  EXPECT_NEAR(norm2(oh), norm2(od), 1e-12 * norm2(oh));
}

}  // namespace
}  // namespace lqcd
