// Even-odd preconditioning: the Schur complement, the prepared source and the reconstruction are
// exact rewritings of M x = b (checked without a solver), and M_hat^dag is the adjoint of M_hat.
#include <gtest/gtest.h>

#include "dirac/wilson_even_odd.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/updates.hpp"
#include "field_test_support.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

SpinorField<double> random_field(const Geometry& g, Location loc, Subset subset, std::uint64_t seed) {
  const SpinorField<double> full = to_spinor_field(test::random_spinor(g, seed, 2), g, loc);
  if (subset == Subset::Full) return full.clone(loc);
  return full.parity_part(subset == Subset::Even ? 0 : 1);
}

using test::relative_difference;

class EvenOddTest : public ::testing::TestWithParam<Location> {};

TEST_P(EvenOddTest, SchurComplementSourceAndReconstructionAreExact) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  GaugeField<double> U(geom, GetParam());
  set_hot_gauge(U, 21);
  heatbath_sweep(U, GaugeAction::from_name("wilson", 5.6), 21, 0);
  for (double mu : {0.0, 0.2}) {
    WilsonParams prm;
    prm.kappa = 0.14;
    prm.mu = mu;
    const WilsonOperator<double> M(U, prm);
    const WilsonEvenOddOperator<double> Mhat(U, prm);
    // b = M x for a random x; then M_hat x_e must equal the prepared source, and the
    // reconstruction from x_e must give back x.
    const SpinorField<double> x = random_field(geom, GetParam(), Subset::Full, 5);
    SpinorField<double> b = x.like();
    M.apply(b, x);
    const SpinorField<double> x_even = x.parity_part(0);
    SpinorField<double> lhs = Mhat.make_field();
    Mhat.apply(lhs, x_even);
    EXPECT_LT(relative_difference(Mhat.prepare_source(b), lhs), 1e-13) << "mu = " << mu;
    EXPECT_LT(relative_difference(Mhat.reconstruct(x_even, b), x), 1e-13) << "mu = " << mu;
  }
}

TEST_P(EvenOddTest, DaggerIsTheAdjoint) {
  const Geometry geom = Geometry::single_process({4, 4, 6, 4});
  GaugeField<double> U(geom, GetParam());
  set_hot_gauge(U, 22);
  for (double mu : {0.0, 0.3}) {
    WilsonParams prm;
    prm.kappa = 0.12;
    prm.mu = mu;
    const WilsonEvenOddOperator<double> Mhat(U, prm);
    const SpinorField<double> chi = random_field(geom, GetParam(), Subset::Even, 6);
    const SpinorField<double> psi = random_field(geom, GetParam(), Subset::Even, 7);
    SpinorField<double> a = chi.like(), b = chi.like();
    Mhat.apply(a, psi);
    Mhat.apply_dagger(b, chi);
    const Complex<double> lhs = dot(chi, a), rhs = dot(b, psi);
    EXPECT_NEAR(lhs.re, rhs.re, 1e-11 * abs(lhs));
    EXPECT_NEAR(lhs.im, rhs.im, 1e-11 * abs(lhs));
  }
}

// The hopping kernel's t-tiled visiting order (dirac/visiting_order.hpp) changes which thread takes
// which site, nothing else: M_hat (twisted, dagger too) is the same to the bit for every tile, in double
// and in single precision with 12-real links (16-byte pairs).
template <typename Real, int LC>
void expect_every_tile_gives_the_same_bits(const GaugeField<double>& U, Location loc) {
  const Geometry& g = U.geometry();
  const GaugeField<Real, LC> Uc = convert_links<Real, LC>(U);
  SpinorField<Real> in(g, loc, Subset::Even);
  convert_precision(in, random_field(g, loc, Subset::Even, 31));
  WilsonParams prm;
  prm.kappa = 0.13;
  prm.mu = 0.05;
  std::vector<SpinorField<Real>> results;
  for (const char* tile : {"1", "2", "4", "8"}) {
    const test::ScopedEnv forced("LQCD_HOPPING_T_TILE", tile);
    const WilsonEvenOddOperator<Real, LC> M(Uc, prm);
    SpinorField<Real> out(g, loc, Subset::Even), back(g, loc, Subset::Even);
    M.apply(out, in);
    M.apply_dagger(back, out);
    results.push_back(std::move(back));
  }
  for (std::size_t t = 1; t < results.size(); ++t) {
    SpinorField<double> a(g, loc, Subset::Even), b(g, loc, Subset::Even);
    convert_precision(a, results[t]);
    convert_precision(b, results[0]);
    EXPECT_GT(norm2(b), 0.0);
    axpy(Complex<double>(-1.0), b, a);
    EXPECT_EQ(norm2(a), 0.0) << precision_name<Real>() << ", tile index " << t;
  }
  const test::ScopedEnv wrong("LQCD_HOPPING_T_TILE", "3");  // not a divisor of T = 8
  EXPECT_NE(test::error_of([&] { WilsonEvenOddOperator<Real, LC> M(Uc, prm); }).find("LQCD_HOPPING_T_TILE=3"),
            std::string::npos);
}

TEST_P(EvenOddTest, EveryVisitingOrderGivesTheSameBits) {
  const Geometry g = Geometry::single_process({4, 6, 4, 8});
  GaugeField<double> U(g, GetParam());
  set_hot_gauge(U, 23);
  expect_every_tile_gives_the_same_bits<double, 9>(U, GetParam());
  expect_every_tile_gives_the_same_bits<float, 6>(U, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Backends, EvenOddTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
