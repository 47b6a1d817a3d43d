// Even-odd preconditioning: the Schur complement, the prepared source and the reconstruction are
// exact rewritings of M x = b (checked without a solver), and M_hat^dag is the adjoint of M_hat.
#include <gtest/gtest.h>

#include "dirac/wilson_even_odd.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/updates.hpp"
#include "field_test_support.hpp"

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

INSTANTIATE_TEST_SUITE_P(Backends, EvenOddTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
