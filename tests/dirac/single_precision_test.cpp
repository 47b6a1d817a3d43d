// Single precision: field conversion rounds and nothing else; every single-precision operator equals
// its double-precision twin to single-precision rounding on a rough field (host and device); on the
// GPU machine the single-precision operators agree between host and device to 1e-5 (DESIGN.md's
// backend tolerance), and the double-precision even-odd operators to 1e-12. Also the gauge
// covariance of the even-odd (Schur) operators.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "clover_test_support.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/update_kernels.hpp"

namespace lqcd {
namespace {

using clover_test::max_diff;
using clover_test::random_spinor;
using clover_test::rough_gauge;

// ||a - b|| / ||b|| for fields of one shape (any precisions; compared in double).
template <typename A, typename B>
double relative_difference(const SpinorField<A>& a, const SpinorField<B>& b) {
  SpinorField<double> ad(a.geometry(), a.location(), a.subset()), bd(b.geometry(), b.location(), b.subset());
  convert_precision(ad, a);  // a copy where A or B is double
  convert_precision(bd, b);
  const double nb = norm2(bd);
  axpy(Complex<double>(-1.0), bd, ad);
  return std::sqrt(norm2(ad) / nb);
}

SpinorField<float> to_single(const SpinorField<double>& x) {
  SpinorField<float> f(x.geometry(), x.location(), x.subset());
  convert_precision(f, x);
  return f;
}

struct Case {
  const char* name;
  FermionAction action;
  double kappa, mu, csw;
};
constexpr Case kCases[] = {{"wilson", FermionAction::Wilson, 0.13, 0.0, 0.0},
                           {"twisted_mass", FermionAction::TwistedMass, 0.13, 0.1, 0.0},
                           {"clover", FermionAction::Clover, 0.12, 0.0, 1.769},
                           {"twisted_clover", FermionAction::TwistedMass, 0.12, 0.05, 1.769}};

FermionParams fermion(const Case& c) {
  FermionParams f;
  f.action = c.action;
  f.wilson.kappa = c.kappa;
  f.wilson.mu = c.mu;
  f.csw = c.csw;
  return f;
}

class SinglePrecisionTest : public ::testing::TestWithParam<Location> {};

TEST_P(SinglePrecisionTest, ConversionRoundsAndConvertsBackExactly) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  const GaugeField<float> Uf = convert_precision<float>(U);
  const GaugeField<double> back = convert_precision<double>(Uf);
  const LexicographicGauge a = to_lexicographic(U), b = to_lexicographic(back);
  const GaugeField<float> again = convert_precision<float>(back);
  double worst = 0;
  for (std::int64_t i = 0; i < geom.volume(); ++i)
    for (int mu = 0; mu < 4; ++mu)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
          const Complex<double> x = a(i, mu).m[r][c], y = b(i, mu).m[r][c];
          // Round to nearest: at most half a unit in the last place, 2^-24 relative.
          EXPECT_LE(std::abs(x.re - y.re), std::ldexp(std::abs(x.re), -24));
          EXPECT_LE(std::abs(x.im - y.im), std::ldexp(std::abs(x.im), -24));
          worst = std::max(worst, abs(x - y));
        }
  EXPECT_GT(worst, 0.0) << "double -> float must round";
  // float -> double -> float is exact.
  const LexicographicGauge c = to_lexicographic(convert_precision<double>(again));
  for (std::int64_t i = 0; i < geom.volume(); ++i)
    for (int mu = 0; mu < 4; ++mu) EXPECT_EQ(test::max_abs_diff(c(i, mu), b(i, mu)), 0.0);

  for (Subset sub : {Subset::Full, Subset::Even, Subset::Odd}) {
    const SpinorField<double> full = to_spinor_field(random_spinor(geom, 5), geom, GetParam());
    const SpinorField<double> x = sub == Subset::Full ? full.clone(GetParam()) : full.parity_part(sub == Subset::Odd);
    const SpinorField<float> xf = to_single(x);
    SpinorField<double> y = x.like();
    convert_precision(y, xf);
    const double d = relative_difference(y, x);
    EXPECT_GT(d, 0.0);
    EXPECT_LT(d, 1e-7);
    const SpinorField<float> yf = to_single(y);
    EXPECT_EQ(relative_difference(yf, xf), 0.0);
  }
}

TEST_P(SinglePrecisionTest, OperatorsEqualTheirDoubleTwinsToRounding) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  const SpinorField<double> psi = to_spinor_field(random_spinor(geom, 8), geom, GetParam());
  const SpinorField<double> psi_even = psi.parity_part(0);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const DiracOperators ops = make_dirac_operators(U, fermion(c), SloppyPrecision::Single);
    ASSERT_TRUE(ops.full_single && ops.even_odd_single && ops.links_single);
    EXPECT_EQ(ops.full_single->subset(), Subset::Full);
    EXPECT_EQ(ops.even_odd_single->subset(), Subset::Even);
    // Double-precision results against single-precision ones on the rounded input: a few units of
    // 2^-24 per term; 1e-6 relative leaves room for the sums, a wrong term would give O(1).
    for (int dagger = 0; dagger < 2; ++dagger) {
      SpinorField<double> out = psi.like();
      SpinorField<float> out_f(geom, GetParam(), Subset::Full);
      if (dagger) {
        ops.full->apply_dagger(out, psi);
        ops.full_single->apply_dagger(out_f, to_single(psi));
      } else {
        ops.full->apply(out, psi);
        ops.full_single->apply(out_f, to_single(psi));
      }
      EXPECT_LT(relative_difference(out_f, out), 1e-6) << "full, dagger " << dagger;
      SpinorField<double> eo = psi_even.like();
      SpinorField<float> eo_f(geom, GetParam(), Subset::Even);
      if (dagger) {
        ops.even_odd->apply_dagger(eo, psi_even);
        ops.even_odd_single->apply_dagger(eo_f, to_single(psi_even));
      } else {
        ops.even_odd->apply(eo, psi_even);
        ops.even_odd_single->apply(eo_f, to_single(psi_even));
      }
      EXPECT_LT(relative_difference(eo_f, eo), 1e-6) << "even-odd, dagger " << dagger;
    }
    EXPECT_LT(relative_difference(ops.even_odd_single->prepare_source(to_single(psi)), ops.even_odd->prepare_source(psi)),
              1e-6);
    EXPECT_LT(relative_difference(ops.even_odd_single->reconstruct(to_single(psi_even), to_single(psi)),
                                  ops.even_odd->reconstruct(psi_even, psi)),
              1e-6);
  }
}

// M_hat[U^g] (g psi_e) = g (M_hat[U] psi_e), U^g_mu(x) = g(x) U_mu(x) g(x+mu)^dag, for the Wilson,
// twisted-mass, clover and twisted-clover Schur operators and their adjoints.
TEST_P(SinglePrecisionTest, EvenOddOperatorsAreGaugeCovariant) {
  const Geometry geom = Geometry::single_process({4, 4, 6, 4});
  const std::uint64_t seed = 123;
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  GaugeField<double> Ug = U.clone(GetParam());
  random_gauge_transformation(Ug, seed);
    auto rotate = [&](const LexicographicSpinor& v) { return test::gauge_rotate(v, U, seed); };
  // Even-site fields through the lexicographic form (odd sites zero).
  auto even_field = [&](const LexicographicSpinor& v) { return to_spinor_field(v, geom, GetParam()).parity_part(0); };
  auto lex_of_even = [&](const SpinorField<double>& e) {
    SpinorField<double> full(geom, GetParam(), Subset::Full);
    set_zero(full);
    full.set_parity_part(0, e);
    return to_lexicographic(full);
  };
  const LexicographicSpinor psi = random_spinor(geom, 21);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const DiracOperators ops = make_dirac_operators(U, fermion(c)), ops_g = make_dirac_operators(Ug, fermion(c));
    for (int dagger = 0; dagger < 2; ++dagger) {
      const SpinorField<double> in = even_field(psi), in_g = even_field(rotate(psi));
      SpinorField<double> out = in.like(), out_g = in.like();
      if (dagger) {
        ops.even_odd->apply_dagger(out, in);
        ops_g.even_odd->apply_dagger(out_g, in_g);
      } else {
        ops.even_odd->apply(out, in);
        ops_g.even_odd->apply(out_g, in_g);
      }
      const LexicographicSpinor want = rotate(lex_of_even(out)), got = lex_of_even(out_g);
      EXPECT_LT(max_diff(got, want), 1e-12 * clover_test::max_norm(want)) << "dagger " << dagger;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, SinglePrecisionTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// The same random fields through the host and the device operators: single precision to 1e-5
// relative, double precision to 1e-12 (the even-odd operators; the full-lattice ones are compared in
// wilson_operator_test.cpp and clover_operator_test.cpp).
TEST(SinglePrecision, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = rough_gauge(geom, Location::Host);
  const GaugeField<double> Ud = Uh.clone(Location::Device);
  const LexicographicSpinor psi = random_spinor(geom, 4);
  const SpinorField<double> ph = to_spinor_field(psi, geom, Location::Host), pd = to_spinor_field(psi, geom, Location::Device);
  const SpinorField<double> eh = ph.parity_part(0), ed = pd.parity_part(0);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const DiracOperators oh = make_dirac_operators(Uh, fermion(c), SloppyPrecision::Single), od = make_dirac_operators(Ud, fermion(c), SloppyPrecision::Single);
    for (int dagger = 0; dagger < 2; ++dagger) {
      auto run = [dagger](const auto& M, auto& out, const auto& in) {
        if (dagger) M.apply_dagger(out, in); else M.apply(out, in);
      };
      SpinorField<float> fh(geom, Location::Host, Subset::Full), fd(geom, Location::Device, Subset::Full);
      run(*oh.full_single, fh, to_single(ph));
      run(*od.full_single, fd, to_single(pd));
      EXPECT_LT(relative_difference(fd.clone(Location::Host), fh), 1e-5) << "single full, dagger " << dagger;
      SpinorField<float> gh(geom, Location::Host, Subset::Even), gd(geom, Location::Device, Subset::Even);
      run(*oh.even_odd_single, gh, to_single(eh));
      run(*od.even_odd_single, gd, to_single(ed));
      EXPECT_LT(relative_difference(gd.clone(Location::Host), gh), 1e-5) << "single even-odd, dagger " << dagger;
      SpinorField<double> dh = eh.like(), dd = ed.like();
      run(*oh.even_odd, dh, eh);
      run(*od.even_odd, dd, ed);
      EXPECT_LT(relative_difference(dd.clone(Location::Host), dh), 1e-12) << "double even-odd, dagger " << dagger;
    }
  }
}

}  // namespace
}  // namespace lqcd
