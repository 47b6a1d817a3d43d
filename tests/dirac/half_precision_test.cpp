// Half precision (16-bit fixed point, math/precision.hpp) and compressed links in the even-odd Wilson
// operators: a half-precision spinor keeps each site to 2^-15 of its largest component; the BLAS-1 in
// half precision agree with double to that precision; the even-odd Wilson and twisted-mass operators
// with links stored in 12 and 8 reals equal the 18-real double operator to rounding (double 1e-12,
// single 1e-5, half 1e-3: the tolerances of issue 4), on the host and on the device; and a
// double/half mixed-precision CG reaches a 1e-10 true residual.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <type_traits>

#include "core/error_type.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "field_test_support.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/solver.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// ||a - b|| / ||b||, compared in double.
template <typename A>
double relative_to(const SpinorField<A>& a, const SpinorField<double>& b) {
  SpinorField<double> d = test::converted<double>(a);
  axpy(Complex<double>(-1.0), b, d);
  return std::sqrt(norm2(d) / norm2(b));
}

// Parity of lexicographic site i (x fastest).
int parity_of_lex(const Geometry& g, std::int64_t i) {
  int sum = 0;
  for (int mu = 0; mu < 4; ++mu) {
    sum += int(i % g.global[mu]);
    i /= g.global[mu];
  }
  return sum & 1;
}

class HalfPrecisionTest : public ::testing::TestWithParam<Location> {};

TEST_P(HalfPrecisionTest, SpinorsKeepEverySiteToItsNorm) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  const Location loc = GetParam();
  LexicographicSpinor lex = test::random_spinor(geom, 3);
  // Sites of very different magnitude: a single scale for the field would lose the small ones.
  for (std::size_t i = 0; i < lex.size(); ++i) {
    const double s = std::pow(10.0, double(int(i % 9)) - 4.0);
    for (auto& v : lex[i].s)
      for (auto& z : v.c) z = Complex<double>(s) * z;
  }
  lex[5] = ColorSpinor<double>{};  // a zero site stays zero (norm 0)
  const SpinorField<double> x = to_spinor_field(lex, geom, loc);
  for (Subset sub : {Subset::Full, Subset::Odd}) {
    const SpinorField<double> xs = sub == Subset::Full ? x.clone(loc) : x.parity_part(1);
    const SpinorField<Half> h = test::converted<Half>(xs);
    SpinorField<double> full(geom, loc, Subset::Full);
    set_zero(full);
    if (sub == Subset::Full) full.copy_from(test::converted<double>(h));
    else full.set_parity_part(1, test::converted<double>(h));
    const LexicographicSpinor back = to_lexicographic(full);
    double worst_step = 0;  // the error of each real in units of its site's fixed-point step
    for (std::size_t i = 0; i < lex.size(); ++i) {
      if (sub == Subset::Odd && parity_of_lex(geom, std::int64_t(i)) == 0) continue;
      double m = 0;
      for (const auto& v : lex[i].s)
        for (const auto& z : v.c) m = std::max({m, std::abs(z.re), std::abs(z.im)});
      for (int k = 0; k < 12; ++k) {
        const Complex<double> a = lex[i].s[k / 3].c[k % 3], b = back[i].s[k / 3].c[k % 3];
        if (m == 0) {
          EXPECT_EQ(b.re, 0.0);
          EXPECT_EQ(b.im, 0.0);
          continue;
        }
        worst_step = std::max({worst_step, std::abs(a.re - b.re) / (m / 32767), std::abs(a.im - b.im) / (m / 32767)});
      }
    }
    EXPECT_LE(worst_step, 0.5 + 1e-2);  // round to nearest (the norm itself is a float)
    EXPECT_GT(worst_step, 0.1);
    // The parity part of a half field carries its norms along.
    if (sub == Subset::Full) {
      EXPECT_LT(relative_to(h.parity_part(1), x.parity_part(1)), 3e-5);
    }
  }
}

TEST_P(HalfPrecisionTest, VectorOperationsAgreeWithDouble) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const Location loc = GetParam();
  const SpinorField<double> x = to_spinor_field(test::random_spinor(geom, 1), geom, loc);
  const SpinorField<double> y = to_spinor_field(test::random_spinor(geom, 2), geom, loc);
  const SpinorField<Half> xh = test::converted<Half>(x);
  SpinorField<Half> yh = test::converted<Half>(y);
  EXPECT_NEAR(norm2(xh) / norm2(x), 1.0, 1e-4);
  const Complex<double> d = dot(x, y), dh = dot(xh, test::converted<Half>(y));
  EXPECT_LT(abs(dh - d), 1e-4 * std::sqrt(norm2(x) * norm2(y)));
  axpy(Complex<double>(0.5, -2.0), xh, yh);
  SpinorField<double> want = y.clone(loc);
  axpy(Complex<double>(0.5, -2.0), x, want);
  EXPECT_LT(relative_to(yh, want), 1e-4);
  xpay(xh, Complex<double>(-0.25), yh);
  xpay(x, Complex<double>(-0.25), want);
  EXPECT_LT(relative_to(yh, want), 1e-4);
  set_zero(yh);
  EXPECT_EQ(norm2(yh), 0.0);
}

struct Action {
  const char* name;
  double mu;
};

template <typename Real, int LC>
void expect_operator_matches_double(const GaugeField<double>& U, const WilsonParams& prm, const SpinorField<double>& in,
                                    double tolerance) {
  const WilsonEvenOddOperator<double> reference(U, prm);
  const GaugeField<Real, LC> Uc = convert_links<Real, LC>(U);
  const WilsonEvenOddOperator<Real, LC> M(Uc, prm);
  const SpinorField<Real> in_r = test::converted<Real>(in);
  for (int dagger = 0; dagger < 2; ++dagger) {
    SpinorField<double> want = in.like();
    SpinorField<Real> got = in_r.like();
    if (dagger) {
      reference.apply_dagger(want, in);
      M.apply_dagger(got, in_r);
    } else {
      reference.apply(want, in);
      M.apply(got, in_r);
    }
    const double d = relative_to(got, want);
    EXPECT_LT(d, tolerance) << precision_name<Real>() << ", " << 2 * LC << " reals, dagger " << dagger;
    if (!std::is_same_v<Real, double>) {
      EXPECT_GT(d, 0.0) << "rounding must show";
    }
  }
}

TEST_P(HalfPrecisionTest, CompressedAndHalfOperatorsEqualTheDoubleOperator) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  const Location loc = GetParam();
  const GaugeField<double> U = test::rough_gauge(geom, loc);
  const SpinorField<double> in = to_spinor_field(test::random_spinor(geom, 8), geom, loc).parity_part(0);
  for (const Action& a : {Action{"wilson", 0.0}, Action{"twisted_mass", 0.1}}) {
    SCOPED_TRACE(a.name);
    WilsonParams prm;
    prm.kappa = 0.13;
    prm.mu = a.mu;
    expect_operator_matches_double<double, 6>(U, prm, in, 1e-12);
    expect_operator_matches_double<double, 4>(U, prm, in, 1e-12);
    expect_operator_matches_double<float, 6>(U, prm, in, 1e-5);
    expect_operator_matches_double<float, 4>(U, prm, in, 1e-5);
    expect_operator_matches_double<Half, 6>(U, prm, in, 1e-3);
    expect_operator_matches_double<Half, 4>(U, prm, in, 1e-3);
  }
}

// The solver tests' problem: Wilson quarks at kappa = 0.124 on a rough 4^3 x 8 field, and random even
// sources.
struct RoughWilsonProblem {
  Geometry geom = Geometry::single_process({4, 4, 4, 8});
  Location loc;
  GaugeField<double> U;
  FermionParams f;
  explicit RoughWilsonProblem(Location where) : loc(where), U(test::rough_gauge(geom, where)) { f.wilson.kappa = 0.124; }
  DiracOperators operators(SloppyPrecision sloppy) const { return make_dirac_operators(U, f, sloppy); }
  SpinorField<double> even_source(std::uint64_t seed) const {
    return to_spinor_field(test::random_spinor(geom, seed), geom, loc).parity_part(0);
  }
};

TEST_P(HalfPrecisionTest, MixedDoubleHalfSolveReachesTheDoubleTolerance) {
  const RoughWilsonProblem problem(GetParam());
  const DiracOperators ops = problem.operators(SloppyPrecision::Half);
  ASSERT_TRUE(ops.even_odd_half && ops.links_half);
  EXPECT_FALSE(ops.even_odd_single);
  const SpinorField<double> b = problem.even_source(4);
  SpinorField<double> x = b.like();
  set_zero(x);
  SolverParams p;
  p.tolerance = 1e-10;
  p.precision = SolverPrecision::Half;
  const SolverResult r = solve_mixed(*ops.even_odd, *ops.even_odd_half, x, b, p);
  EXPECT_TRUE(r.converged);
  EXPECT_GE(r.corrections, 3) << "each half-precision correction gains at most ~1e-3..1e-4";
  // The true residual, recomputed here in double.
  EXPECT_LE(test::relative_residual(*ops.even_odd, x, b), 1e-10);
  EXPECT_NE(r.summary().find("double/half"), std::string::npos) << r.summary();
}

// The normal equations A x = M^dag b, A = M^dag M, solved by CG on A itself (SolverParams::hermitian,
// as lqcd bench solver --system normal): in double and with single and half corrections, each must meet
// the tolerance on A's residual (recomputed here) and give M x = b's solution.
TEST_P(HalfPrecisionTest, NormalEquationsByCgOnTheNormalOperatorInEveryPrecision) {
  const RoughWilsonProblem problem(GetParam());
  const DiracOperators ops_half = problem.operators(SloppyPrecision::Half);
  const DiracOperators ops_single = problem.operators(SloppyPrecision::Single);
  const NormalOperator<double> A(*ops_half.even_odd);
  const SpinorField<double> b = problem.even_source(5);
  SpinorField<double> b_normal = b.like();
  ops_half.even_odd->apply_dagger(b_normal, b);
  SolverParams p;
  p.tolerance = 1e-10;
  // The reference: CGNR on M x = b, to well below the tolerance checked below.
  SpinorField<double> x_ref = b.like();
  set_zero(x_ref);
  SolverParams p_ref = p;
  p_ref.tolerance = 1e-12;
  solve(*ops_half.even_odd, x_ref, b, p_ref);
  for (SolverPrecision precision : {SolverPrecision::Double, SolverPrecision::Single, SolverPrecision::Half}) {
    SCOPED_TRACE(solver_precision_name(precision));
    p.precision = precision;
    p.hermitian = true;
    SpinorField<double> x = b.like();
    set_zero(x);
    SolverResult r;
    if (precision == SolverPrecision::Double) {
      r = solve(A, x, b_normal, p);
    } else if (precision == SolverPrecision::Single) {
      r = solve_mixed(A, NormalOperator<float>(*ops_single.even_odd_single), x, b_normal, p);
    } else {
      r = solve_mixed(A, NormalOperator<Half>(*ops_half.even_odd_half), x, b_normal, p);
    }
    EXPECT_TRUE(r.converged);
    EXPECT_LE(test::relative_residual(A, x, b_normal), 1e-10);
    EXPECT_LT(test::relative_difference(x, x_ref), 1e-6) << "the solution of M x = b";
    // One application of A (two of M) per iteration, as CGNR: comparable iteration counts.
    EXPECT_GT(r.iterations, 10);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, HalfPrecisionTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(HalfPrecision, CloverQuarksHaveNoHalfPrecisionOperator) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, Location::Host);
  FermionParams f;
  f.action = FermionAction::Clover;
  f.wilson.kappa = 0.12;
  f.csw = 1.0;
  const std::string e = test::error_of([&] { make_dirac_operators(U, f, SloppyPrecision::Half); });
  EXPECT_NE(e.find("solver.precision"), std::string::npos) << e;
  EXPECT_EQ(solver_precision_from_name("half"), SolverPrecision::Half);
  EXPECT_EQ(solver_precision_name(SolverPrecision::Half), "half");
}

// The same half-precision operator on the host and the device: 1e-5 relative (both compute in float
// from the same 16-bit numbers; only the order of the float sums may differ).
TEST(HalfPrecision, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = test::rough_gauge(geom, Location::Host);
  const GaugeField<double> Ud = Uh.clone(Location::Device);
  const LexicographicSpinor psi = test::random_spinor(geom, 4);
  const SpinorField<double> eh = to_spinor_field(psi, geom, Location::Host).parity_part(0);
  const SpinorField<double> ed = to_spinor_field(psi, geom, Location::Device).parity_part(0);
  WilsonParams prm;
  prm.kappa = 0.13;
  const GaugeField<Half, 6> Lh = convert_links<Half, 6>(Uh), Ld = convert_links<Half, 6>(Ud);
  const WilsonEvenOddOperator<Half, 6> Mh(Lh, prm), Md(Ld, prm);
  SpinorField<Half> oh(geom, Location::Host, Subset::Even), od(geom, Location::Device, Subset::Even);
  Mh.apply(oh, test::converted<Half>(eh));
  Md.apply(od, test::converted<Half>(ed));
  const SpinorField<double> host = test::converted<double>(oh);
  EXPECT_LT(relative_to(test::converted<double>(od).clone(Location::Host), host), 1e-5);
}

}  // namespace
}  // namespace lqcd
