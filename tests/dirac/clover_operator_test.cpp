// The Wilson-clover operator M = A - kappa H: equals the Wilson operator for unit links, is
// gamma_5-Hermitian, gauge covariant, consistent in its even-odd pieces, and the same on host and
// device.
#include <gtest/gtest.h>

#include <cmath>

#include "clover_test_support.hpp"
#include "dirac/clover_operator.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/update_kernels.hpp"

namespace lqcd {
namespace {

using namespace clover_test;

// Unit links: F = 0, so A = 1 + 2 i kappa mu gamma_5 and M is the (twisted) Wilson operator, for
// any c_sw; random spinors and a plane wave, with periodic and twisted boundary phases.
TEST(WilsonCloverOperator, FreeFieldEqualsWilson) {
  const Geometry geom = Geometry::single_process({4, 6, 4, 8});
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  const LexicographicSpinor noise = random_spinor(geom, 5);
  LexicographicSpinor wave(noise.size());
  const SiteIndexer idx = SiteIndexer::from(geom);
  for (std::int64_t i = 0; i < geom.volume(); ++i) {
    int x[4];
    idx.coords_lex(i, x);
    const double ph = 2 * M_PI * (1.0 * x[0] / 4 + 2.0 * x[1] / 6 + 3.0 * x[3] / 8);
    wave[std::size_t(i)].s[1].c[2] = Complex<double>(std::cos(ph), std::sin(ph));
    wave[std::size_t(i)].s[2].c[0] = Complex<double>(0.5 * std::cos(ph), 0.5 * std::sin(ph));
  }
  for (double csw : {0.0, 1.0, 1.769, 3.0})
    for (double mu_tm : {0.0, 0.3})
      for (double theta_x : {0.0, 0.7}) {
        WilsonParams prm;
        prm.kappa = 0.124;
        prm.mu = mu_tm;
        prm.boundary.phase[0] = Complex<double>(std::cos(theta_x), std::sin(theta_x));
        const WilsonOperator<double> W(U, prm);
        const WilsonCloverOperator<double> M(U, prm, csw);
        for (const LexicographicSpinor* v : std::initializer_list<const LexicographicSpinor*>{&noise, &wave}) {
          const SpinorField<double> in = to_spinor_field(*v, geom, Location::Host);
          SpinorField<double> a = in.like(), b = in.like();
          W.apply(a, in);
          M.apply(b, in);
          EXPECT_LT(max_diff(to_lexicographic(a), to_lexicographic(b)), 1e-14) << "csw " << csw << " mu " << mu_tm;
          W.apply_dagger(a, in);
          M.apply_dagger(b, in);
          EXPECT_LT(max_diff(to_lexicographic(a), to_lexicographic(b)), 1e-14) << "csw " << csw << " mu " << mu_tm;
          W.apply_mass_form(a, in);
          M.apply_mass_form(b, in);
          EXPECT_LT(max_diff(to_lexicographic(a), to_lexicographic(b)), 1e-13) << "csw " << csw << " mu " << mu_tm;
        }
      }
}

class CloverBackendTest : public ::testing::TestWithParam<Location> {};

TEST_P(CloverBackendTest, Gamma5HermiticityAndDagger) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  for (double mu_tm : {0.0, 0.1}) {
    WilsonParams prm;
    prm.kappa = 0.133;
    prm.mu = mu_tm;
    WilsonParams minus = prm;
    minus.mu = -mu_tm;
    const WilsonCloverOperator<double> M(U, prm, 1.769), Mminus(U, minus, 1.769);
    const SpinorField<double> chi = to_spinor_field(random_spinor(geom, 1), geom, GetParam());
    const SpinorField<double> psi = to_spinor_field(random_spinor(geom, 2), geom, GetParam());
    SpinorField<double> m_psi = psi.like(), mdag_chi = psi.like();
    M.apply(m_psi, psi);
    M.apply_dagger(mdag_chi, chi);
    const Complex<double> lhs = dot(chi, m_psi), rhs = dot(mdag_chi, psi);
    EXPECT_NEAR(lhs.re, rhs.re, 1e-12 * abs(lhs)) << "mu = " << mu_tm;
    EXPECT_NEAR(lhs.im, rhs.im, 1e-12 * abs(lhs)) << "mu = " << mu_tm;
    // M^dag = gamma_5 M(-mu) gamma_5, site by site.
    SpinorField<double> t = psi.like();
    Mminus.apply(t, to_spinor_field(apply_gamma5(to_lexicographic(chi)), geom, GetParam()));
    const LexicographicSpinor expected = to_lexicographic(mdag_chi);
    EXPECT_LT(max_diff(apply_gamma5(to_lexicographic(t)), expected), 1e-12 * max_norm(expected));
    // The clover term alone: A^dag = gamma_5 A(-mu) gamma_5 (here simply A(-mu)), and <chi, A psi> = <A^dag chi, psi>.
    SpinorField<double> a_psi = psi.like(), adag_chi = psi.like(), aminus_chi = psi.like();
    M.apply_clover(a_psi, psi);
    M.apply_clover(adag_chi, chi, true);
    Mminus.apply_clover(aminus_chi, chi);
    EXPECT_LT(max_diff(to_lexicographic(adag_chi), to_lexicographic(aminus_chi)), 1e-14);
    const Complex<double> l2 = dot(chi, a_psi), r2 = dot(adag_chi, psi);
    EXPECT_NEAR(l2.re, r2.re, 1e-12 * abs(l2));
    EXPECT_NEAR(l2.im, r2.im, 1e-12 * abs(l2));
  }
}

TEST_P(CloverBackendTest, GaugeCovariance) {
  // M[U^g] (g psi) = g (M[U] psi) with U^g_mu(x) = g(x) U_mu(x) g(x+mu)^dag: F_{mu nu}(x) -> g F g^dag.
  const Geometry geom = Geometry::single_process({4, 4, 6, 4});
  GaugeField<double> U = rough_gauge(geom, GetParam());
  WilsonParams prm;
  prm.kappa = 0.133;
  prm.mu = 0.1;
  const double csw = 1.769;
  const LexicographicSpinor psi = random_spinor(geom, 3);
  SpinorField<double> out(geom, GetParam());
  WilsonCloverOperator<double>(U, prm, csw).apply(out, to_spinor_field(psi, geom, GetParam()));
  LexicographicSpinor g_m_psi = to_lexicographic(out);
  SpinorField<double> inv = out.like();
  WilsonCloverOperator<double>(U, prm, csw).apply_clover_inverse(inv, to_spinor_field(psi, geom, GetParam()));
  LexicographicSpinor g_ainv_psi = to_lexicographic(inv);

  const std::uint64_t seed = 99;
    auto rotate = [&](const LexicographicSpinor& v) { return test::gauge_rotate(v, U, seed); };
  g_m_psi = rotate(g_m_psi);
  g_ainv_psi = rotate(g_ainv_psi);
  random_gauge_transformation(U, seed);
  const WilsonCloverOperator<double> Mg(U, prm, csw);
  SpinorField<double> out_g = out.like();
  Mg.apply(out_g, to_spinor_field(rotate(psi), geom, GetParam()));
  EXPECT_LT(max_diff(to_lexicographic(out_g), g_m_psi), 1e-12 * max_norm(g_m_psi));
  Mg.apply_clover_inverse(out_g, to_spinor_field(rotate(psi), geom, GetParam()));
  EXPECT_LT(max_diff(to_lexicographic(out_g), g_ainv_psi), 1e-12 * max_norm(g_ainv_psi));
}

// M = (Wilson operator at mu = 0) + (A - 1): the hopping term is the Wilson one, the site term A.
TEST_P(CloverBackendTest, HoppingPlusCloverTerm) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  WilsonParams prm;
  prm.kappa = 0.133;
  prm.mu = 0.1;
  WilsonParams plain = prm;
  plain.mu = 0;
  const WilsonCloverOperator<double> M(U, prm, 1.769);
  const WilsonOperator<double> W(U, plain);
  const SpinorField<double> psi = to_spinor_field(random_spinor(geom, 8), geom, GetParam());
  for (bool dagger : {false, true}) {
    SpinorField<double> m = psi.like(), w = psi.like(), a = psi.like();
    if (dagger) {
      M.apply_dagger(m, psi);
      W.apply_dagger(w, psi);
    } else {
      M.apply(m, psi);
      W.apply(w, psi);
    }
    M.apply_clover(a, psi, dagger);
    axpy(Complex<double>(1), a, w);
    axpy(Complex<double>(-1), psi, w);  // W psi + A psi - psi
    const LexicographicSpinor expected = to_lexicographic(w);
    EXPECT_LT(max_diff(to_lexicographic(m), expected), 1e-13 * max_norm(expected)) << "dagger " << dagger;
  }
}

// The even-odd pieces on parity fields: A^{-1} A = 1, and out_p = A x_p - kappa H in_{1-p} is the
// parity-p part of M psi (and of M^dag psi with dagger); apply_clover on a parity field is that
// part of apply_clover on the full field.
TEST_P(CloverBackendTest, ParityPiecesMatchFullOperator) {
  const Geometry geom = Geometry::single_process({4, 4, 6, 4});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  for (double mu_tm : {0.0, 0.1}) {
    WilsonParams prm;
    prm.kappa = 0.133;
    prm.mu = mu_tm;
    const WilsonCloverOperator<double> M(U, prm, 1.769);
    const SpinorField<double> psi = to_spinor_field(random_spinor(geom, 9), geom, GetParam());
    const LexicographicSpinor psi_lex = to_lexicographic(psi);
    const double scale = max_norm(psi_lex);
    for (bool dagger : {false, true}) {
      SpinorField<double> full = psi.like(), a_full = psi.like();
      if (dagger) M.apply_dagger(full, psi);
      else M.apply(full, psi);
      M.apply_clover(a_full, psi, dagger);
      for (int p = 0; p < 2; ++p) {
        const SpinorField<double> x = psi.parity_part(p), in = psi.parity_part(1 - p);
        SpinorField<double> out = x.like(), a = x.like(), back = x.like();
        M.hop(out, in, &x, -prm.kappa, dagger);
        SpinorField<double> check = psi.like();
        check.copy_from(full);
        check.set_parity_part(p, out);  // replaces the parity-p part of M psi by the piecewise result
        EXPECT_LT(max_diff(to_lexicographic(check), to_lexicographic(full)), 1e-13 * scale);
        // the whole-field input for the hopping term gives the same
        M.hop(back, psi, &x, -prm.kappa, dagger);
        axpy(Complex<double>(-1), out, back);
        EXPECT_LT(std::sqrt(norm2(back)), 1e-13 * scale);
        // A on a parity field, its inverse, in place
        M.apply_clover(a, x, dagger);
        check.copy_from(a_full);
        check.set_parity_part(p, a);
        EXPECT_LT(max_diff(to_lexicographic(check), to_lexicographic(a_full)), 1e-14 * scale);
        M.apply_clover_inverse(a, a, dagger);
        axpy(Complex<double>(-1), x, a);
        EXPECT_LT(std::sqrt(norm2(a)), 1e-12 * std::sqrt(norm2(x))) << "parity " << p << " dagger " << dagger;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, CloverBackendTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(WilsonCloverOperator, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = rough_gauge(geom, Location::Host);
  const GaugeField<double> Ud = Uh.clone(Location::Device);
  WilsonParams prm;
  prm.kappa = 0.133;
  prm.mu = 0.05;
  const WilsonCloverOperator<double> Mh(Uh, prm, 1.769), Md(Ud, prm, 1.769);
  const LexicographicSpinor psi = random_spinor(geom, 4);
  const SpinorField<double> ih = to_spinor_field(psi, geom, Location::Host), id = to_spinor_field(psi, geom, Location::Device);
  SpinorField<double> oh(geom, Location::Host), od(geom, Location::Device);
  for (int what = 0; what < 4; ++what) {
    switch (what) {
      case 0: Mh.apply(oh, ih); Md.apply(od, id); break;
      case 1: Mh.apply_dagger(oh, ih); Md.apply_dagger(od, id); break;
      case 2: Mh.apply_clover(oh, ih); Md.apply_clover(od, id); break;
      default: Mh.apply_clover_inverse(oh, ih, true); Md.apply_clover_inverse(od, id, true); break;
    }
    const LexicographicSpinor h = to_lexicographic(oh), d = to_lexicographic(od);
    EXPECT_LT(max_diff(h, d), 1e-12 * max_norm(h)) << "case " << what;
  }
  const CloverStats sh = Mh.clover().stats(), sd = Md.clover().stats();
  EXPECT_NEAR(sh.log_det, sd.log_det, 1e-12 * std::abs(sh.log_det));
  EXPECT_NEAR(sh.min_pivot, sd.min_pivot, 1e-12);
  EXPECT_EQ(sh.bad_blocks, sd.bad_blocks);
}

}  // namespace
}  // namespace lqcd
