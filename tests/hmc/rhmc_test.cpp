// RHMC: the rational approximation (elliptic functions, Zolotarev optimum with 2n + 2 alternating
// error extrema), the multi-shift CG (every shifted system solved), and the one-flavour monomial
// (heatbath gives S = |eta|^2; force = derivative of the action).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>

#include "field_test_support.hpp"
#include "hmc/md_kernels.hpp"
#include "hmc/rational_monomial.hpp"
#include "solvers/solver.hpp"
#include "solvers/krylov/spectral_bounds.hpp"

namespace lqcd {
namespace {

TEST(EllipticFunctions, KnownValues) {
  EXPECT_NEAR(elliptic_k(0.0), M_PI / 2, 1e-15);
  EXPECT_NEAR(elliptic_k(0.5), 1.8540746773013719, 1e-14);  // K(m = 1/2) = Gamma(1/4)^2 / (4 sqrt(pi))
  for (double u : {0.1, 0.7, 1.3}) {
    double sn, cn;
    jacobi_sn_cn(u, 0.0, sn, cn);
    EXPECT_NEAR(sn, std::sin(u), 1e-15);
    jacobi_sn_cn(u, 1.0 - 1e-16, sn, cn);
    EXPECT_NEAR(sn, std::tanh(u), 1e-7);
    jacobi_sn_cn(u, 0.7, sn, cn);
    EXPECT_NEAR(sn * sn + cn * cn, 1.0, 1e-15);
  }
  // sn(K) = 1 (a quarter period).
  double sn, cn;
  jacobi_sn_cn(elliptic_k(0.9), 0.9, sn, cn);
  EXPECT_NEAR(sn, 1.0, 1e-12);
}

TEST(RationalApproximation, ZolotarevIsTheEquioscillatingOptimum) {
  double previous = 1;
  for (int n : {4, 8, 12, 16}) {
    const RationalApproximation r = zolotarev_inverse_sqrt(n, 1e-4, 4.0);
    SCOPED_TRACE(n);
    // Chebyshev's criterion: sqrt(x) R(x) - 1 reaches +-delta with alternating signs 2n + 2 times.
    EXPECT_EQ(r.error_extrema, 2 * n + 2);
    EXPECT_LT(r.max_relative_error, previous);
    previous = r.max_relative_error;
    // Independent evaluation, product form against partial fractions, at points of the range.
    for (double x : {1e-4, 3e-3, 0.2, 1.0, 4.0}) {
      double prod = r.scale;
      for (int l = 0; l < n; ++l) prod *= (x + r.zeros_shift[std::size_t(l)]) / (x + r.poles_shift[std::size_t(l)]);
      EXPECT_NEAR(r(x), prod, 1e-12 * prod);
      EXPECT_LE(std::abs(std::sqrt(x) * r(x) - 1), r.max_relative_error + 1e-14);
    }
    for (double b : r.poles_shift) EXPECT_GT(b, 0);
    for (double rho : r.residues) EXPECT_GT(rho, 0);
  }
  EXPECT_LT(previous, 1e-6);  // n = 16 on a range of 4e4
  EXPECT_THROW(zolotarev_inverse_sqrt(0, 1e-4, 4.0), Error);
  EXPECT_THROW(zolotarev_inverse_sqrt(8, 4.0, 1e-4), Error);
}

EvenOddQuark clover_quark(double kappa, double csw) {
  EvenOddQuark q;
  q.params.kappa = kappa;
  q.csw = csw;
  return q;
}

// Every x_k solves (A + s_k) x_k = b to `tolerance` on its true residual.
void expect_shifted_solutions(const LinearOperator<double>& A, const std::vector<double>& shifts,
                              const std::vector<SpinorField<double>>& x, const SpinorField<double>& b,
                              double tolerance) {
  ASSERT_EQ(x.size(), shifts.size());
  for (std::size_t k = 0; k < shifts.size(); ++k) {
    SpinorField<double> r = b.like();
    A.apply(r, x[k]);
    axpy(Complex<double>(shifts[k]), x[k], r);
    axpy(Complex<double>(-1.0), b, r);
    EXPECT_LE(std::sqrt(norm2(r) / norm2(b)), tolerance) << "shift " << shifts[k];
  }
}

class RhmcTest : public ::testing::TestWithParam<Location> {};

TEST_P(RhmcTest, MultiShiftCgSolvesEveryShiftedSystem) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  EvenOddQuark q;
  q.params.kappa = 0.12;
  const auto M = q.schur(U);
  const NormalOperator<double> A(*M);
  const SpinorField<double> b = to_spinor_field(test::random_spinor(geom, 3), geom, GetParam()).parity_part(0);
  const std::vector<double> shifts = {0.5, 0.0, 1e-3, 0.05};
  std::vector<SpinorField<double>> x;
  SolverParams p;
  p.tolerance = 1e-10;
  const SolverResult res = solve_multishift(A, shifts, x, b, p);
  ASSERT_EQ(x.size(), shifts.size());
  EXPECT_LE(res.true_residual, 1e-10);
  expect_shifted_solutions(A, shifts, x, b, 1e-10);
  // One Krylov space: no more iterations than the hardest system alone.
  SpinorField<double> x0 = b.like();
  set_zero(x0);
  const SolverResult single = solve_hermitian(A, x0, b, p);
  EXPECT_LE(res.iterations, single.iterations + 2);
  EXPECT_LT(test::relative_difference(x[1], x0), 1e-8);
}

// The multi-shift CG in single precision with each shift refined in double: every shifted system meets
// the tolerance on its true residual, the solutions are the double-precision ones, and the RHMC
// heatbath/action identity S = |eta|^2 holds with it (clover, rough 4^4 field).
TEST_P(RhmcTest, MixedPrecisionMultiShiftCgMeetsTheToleranceOnEveryShift) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  const EvenOddQuark q = clover_quark(0.12, 1.5);
  const auto M = q.schur(U);
  const SloppySchur<float> Ms(q, U, *M);
  const NormalOperator<double> A(*M);
  const NormalOperator<float> As(Ms.op());
  const SpinorField<double> b = to_spinor_field(test::random_spinor(geom, 3), geom, GetParam()).parity_part(0);
  const std::vector<double> shifts = {0.5, 0.0, 1e-3, 0.05};
  std::vector<SpinorField<double>> x, xd;
  SolverParams p;
  p.tolerance = 1e-11;
  const SolverResult res = solve_multishift_mixed(A, As, shifts, x, b, p);
  solve_multishift(A, shifts, xd, b, p);
  ASSERT_EQ(x.size(), shifts.size());
  EXPECT_LE(res.true_residual, 1e-11);
  expect_shifted_solutions(A, shifts, x, b, 1e-11);
  for (std::size_t k = 0; k < shifts.size(); ++k)
    EXPECT_LT(test::relative_difference(x[k], xd[k]), 1e-9) << "shift " << shifts[k];
  SolverParams single;
  single.tolerance = 1e-12;
  single.precision = SolverPrecision::Single;
  RationalMonomial m(q, zolotarev_inverse_sqrt(8, 1e-3, 8.0), single, 3);
  m.refresh(U, 21, 2);
  EXPECT_NEAR(m.action(U) + q.log_det_odd(*M), m.eta_norm2, 1e-9 * m.eta_norm2);
}

// With reliable updates (solver.reliable_delta > 0, the default) the single-precision multi-shift CG
// leaves the shifts at the tolerance itself (solver.cpp, multishift_reliable_iterations): at most one
// refining iteration per shift on top of the double-precision multi-shift's count, for a force's
// tolerance and for an action's. Without them (delta = 0) every shift is refined from 1e-5.
TEST_P(RhmcTest, ReliableMultiShiftCgNeedsNoRefinementBeyondTheDoubleCount) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  const EvenOddQuark q = clover_quark(0.125, 1.5);
  const auto M = q.schur(U);
  const SloppySchur<float> Ms(q, U, *M);
  const NormalOperator<double> A(*M);
  const NormalOperator<float> As(Ms.op());
  const SpinorField<double> b = to_spinor_field(test::random_spinor(geom, 5), geom, GetParam()).parity_part(0);
  const std::vector<double> shifts = {1e-4, 6e-4, 3e-3, 1.5e-2, 0.07, 0.3, 1.5, 9.0};
  for (double tolerance : {1e-7, 1e-10}) {
    SCOPED_TRACE(tolerance);
    SolverParams p;
    p.tolerance = tolerance;
    std::vector<SpinorField<double>> x, xd;
    const SolverResult mixed = solve_multishift_mixed(A, As, shifts, x, b, p);
    const SolverResult plain = solve_multishift(A, shifts, xd, b, p);
    expect_shifted_solutions(A, shifts, x, b, tolerance);
    EXPECT_LE(mixed.iterations, plain.iterations + int(shifts.size())) << "double: " << plain.iterations;
    EXPECT_GT(mixed.corrections, 0);
    p.reliable_delta = 0;  // the sloppy multi-shift to 1e-5, then each shift refined
    std::vector<SpinorField<double>> xr;
    const SolverResult refined = solve_multishift_mixed(A, As, shifts, xr, b, p);
    expect_shifted_solutions(A, shifts, xr, b, tolerance);
    EXPECT_GT(refined.iterations, mixed.iterations);
  }
}

TEST_P(RhmcTest, HeatbathGivesTheGaussianActionAndTheForceIsItsDerivative) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  SolverParams solver;
  solver.tolerance = 1e-13;
  for (double csw : {0.0, 1.5}) {
    SCOPED_TRACE(csw);
    EvenOddQuark q;
    q.params.kappa = 0.12;
    q.csw = csw;
    RationalMonomial m(q, zolotarev_inverse_sqrt(8, 1e-3, 8.0), solver, 3);
    m.refresh(U, 21, 2);
    const double log_det = q.log_det_odd(*q.schur(U));
    // phi^dag R phi = eta^dag eta exactly (B B^dag = R^{-1}), up to the solver tolerance.
    EXPECT_NEAR(m.action(U) + log_det, m.eta_norm2, 1e-9 * m.eta_norm2);
    // The force: central differences of S along e^{i w T^a} at a few links.
    MomentumField F(geom, GetParam());
    set_zero(F);
    m.add_force(U, F);
    const LexicographicGauge lex = to_lexicographic(U), f = to_lexicographic(F);
    SiteRandom pick(8, 0, RngPurpose::Test, 4, 0);
    const double eps = 1e-5;
    for (int n = 0; n < 5; ++n) {
      const std::int64_t site = std::int64_t(pick.uniform() * double(geom.volume()));
      const int mu = int(pick.uniform() * 4), a = int(pick.uniform() * 8);
      double pe[8] = {};
      pe[a] = 1;
      const SU3<double> T = su3_algebra(pe);
      double s[2];
      for (int sign = 0; sign < 2; ++sign) {
        LexicographicGauge v = lex;
        SU3<double> t = T;
        t *= sign ? -eps : eps;
        v(site, mu) = exp_i(t) * v(site, mu);
        s[sign] = m.action(to_gauge_field(v, geom, GetParam()));
      }
      const double numeric = (s[0] - s[1]) / (2 * eps), analytic = 2 * re_trace_mul(T, f(site, mu));
      EXPECT_NEAR(analytic, numeric, 1e-6 * std::max(1.0, std::abs(numeric)));
    }
  }
}

// The Lanczos estimate of the extreme eigenvalues of M_hat^dag M_hat (clover, rough 4^4 field) against
// the power method, an independent algorithm: on A for the largest, on sigma - A for the smallest (both
// Rayleigh quotients, converging to the extremes; many more steps). And the spectral check of the rational
// monomial: no warning while [lambda_min, lambda_max] holds the estimate, one naming the bound it leaves.
TEST_P(RhmcTest, LanczosFindsTheExtremeEigenvaluesAndTheRationalMonomialWarnsOutsideItsRange) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  const EvenOddQuark q = clover_quark(0.11, 1.2);
  const auto M = q.schur(U);
  const NormalOperator<double> A(*M);
  const SpinorField<double> start = to_spinor_field(test::random_spinor(geom, 5), geom, GetParam()).parity_part(0);
  const SpectralBounds s = lanczos_extremes(A, start, 120);
  ASSERT_GT(s.lambda_min, 0.0);
  ASSERT_LT(s.lambda_min, s.lambda_max);
  // Power method: x <- B x / |B x| with B = A, then B = sigma - A (sigma above the spectrum).
  const auto power = [&](double sigma, double sign) {
    SpinorField<double> x = start.clone(start.location()), y = start.like();
    double rq = 0;
    for (int it = 0; it < 4000; ++it) {
      scale(Complex<double>(1 / std::sqrt(norm2(x))), x);
      A.apply(y, x);  // y = A x;  B x = sigma x + sign A x
      rq = dot(x, y).re;
      scale(Complex<double>(sign), y);
      axpy(Complex<double>(sigma), x, y);
      std::swap(x, y);
    }
    return rq;
  };
  const double largest = power(0.0, 1.0), smallest = power(1.1 * s.lambda_max, -1.0);
  std::cout << "  [" << to_string(GetParam()) << "] Lanczos (" << s.iterations << " steps) [" << s.lambda_min << ", "
            << s.lambda_max << "], power method (4000 steps) [" << smallest << ", " << largest << "]\n";
  EXPECT_NEAR(s.lambda_max, largest, 1e-6 * largest);
  EXPECT_GE(s.lambda_max, largest - 1e-9 * largest);  // both from below; Lanczos is the better one
  EXPECT_NEAR(s.lambda_min, smallest, 1e-3 * smallest);
  EXPECT_THROW(lanczos_extremes(A, start, 0), Error);

  SolverParams solver;
  solver.tolerance = 1e-10;
  const auto warnings_for = [&](double lambda_min, double lambda_max) {
    RationalMonomial m(q, zolotarev_inverse_sqrt(8, lambda_min, lambda_max), solver, 3);
    m.check_spectrum(120);
    m.refresh(U, 21, 2);
    std::string all;
    for (const std::string& w : m.take_warnings()) all += w + "\n";
    EXPECT_TRUE(m.take_warnings().empty()) << "taken";
    return all;
  };
  EXPECT_EQ(warnings_for(0.5 * s.lambda_min, 2 * s.lambda_max), "");
  const std::string low = warnings_for(2 * s.lambda_min, 2 * s.lambda_max);
  EXPECT_NE(low.find("below lambda_min"), std::string::npos) << low;
  EXPECT_EQ(low.find("above lambda_max"), std::string::npos) << low;
  const std::string high = warnings_for(0.5 * s.lambda_min, 0.5 * s.lambda_max);
  EXPECT_NE(high.find("above lambda_max"), std::string::npos) << high;
  EXPECT_EQ(high.find("below lambda_min"), std::string::npos) << high;
}

INSTANTIATE_TEST_SUITE_P(Backends, RhmcTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
