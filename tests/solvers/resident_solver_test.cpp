// The stream-resident solvers (solvers/krylov/resident_loop.hpp: the scalars on the device, the host queuing
// ahead): CG on a Hermitian operator, CGNR and BiCGStab, each against its host loop
// (LQCD_STREAM_RESIDENT=0). The two do the same arithmetic in the same kernels, so they must agree bit
// for bit: the residual history, the iterations and the solution, in every precision, through both
// ways of computing CG's <p, A p>, inside mixed-precision solves, and in the errors (breakdowns,
// iteration limit). On the host LQCD_STREAM_RESIDENT=1 runs the resident cycles too (without queuing
// ahead), which checks their bookkeeping on every CI run; on a GPU they are the default.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <optional>
#include <string>

#include "dirac/dirac_operator_factory.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/krylov/resident_bicgstab_kernels.hpp"
#include "solvers/solver.hpp"
#include "field_test_support.hpp"
#include "gamma5_operator.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using test::ScopedEnv;

// A Hermitian operator that only forwards apply(): CG then takes <p, A p> as the dot product of p and
// A p (LinearOperator's default apply_for_inner), not as NormalOperator's ||M p||^2.
template <typename Real>
class ForwardingOperator : public LinearOperator<Real> {
 public:
  explicit ForwardingOperator(const LinearOperator<Real>& A, double sign = 1) : A_(A), sign_(sign) {}
  void apply(SpinorField<Real>& out, const SpinorField<Real>& in) const override {
    A_.apply(out, in);
    if (sign_ != 1) scale(Complex<double>(sign_), out);
  }
  void apply_dagger(SpinorField<Real>& out, const SpinorField<Real>& in) const override { apply(out, in); }
  Subset subset() const override { return A_.subset(); }
  const Geometry& geometry() const override { return A_.geometry(); }
  Location location() const override { return A_.location(); }
  double flops_per_site() const override { return A_.flops_per_site(); }

 private:
  const LinearOperator<Real>& A_;
  double sign_;
};

struct Outcome {
  std::optional<SolverResult> result;  // a converged solve
  std::string error;                   // or the SolverError's message
  SolverResult failed;                 // and its result
  SpinorField<double> x;               // the solution (or where it stopped), in double
};

// Solves A x = b from x = 0 with LQCD_STREAM_RESIDENT = setting (nullptr: unset): by CG on A
// (solve_hermitian), or with p.hermitian = false by p.type (solve: CGNR, BiCGStab).
template <typename Real>
Outcome solve_with(const char* setting, const LinearOperator<Real>& A, const SpinorField<Real>& b,
                   const SolverParams& p) {
  std::optional<ScopedEnv> env;
  std::optional<ScopedEnv> unset;
  if (setting) env.emplace("LQCD_STREAM_RESIDENT", setting);
  else unset.emplace("LQCD_STREAM_RESIDENT", "");
  SpinorField<Real> x = A.make_field();
  set_zero(x);
  Outcome o{std::nullopt, "", {}, SpinorField<double>(A.geometry(), A.location(), A.subset())};
  try {
    o.result = p.hermitian ? solve_hermitian(A, x, b, p) : solve(A, x, b, p);
  } catch (const SolverError& e) {
    o.error = e.what();
    o.failed = e.result();
  }
  convert_precision(o.x, x);
  return o;
}

// The resident settings to compare with the host loop where: "1" everywhere, and on the device the
// default (unset) too.
std::vector<const char*> resident_settings(Location loc) {
  if (loc == Location::Device) return {"1", nullptr};
  return {"1"};
}

void expect_same(const Outcome& host_loop, const Outcome& resident) {
  ASSERT_EQ(host_loop.result.has_value(), resident.result.has_value()) << host_loop.error << " | " << resident.error;
  EXPECT_EQ(host_loop.error, resident.error);
  const SolverResult& a = host_loop.result ? *host_loop.result : host_loop.failed;
  const SolverResult& b = resident.result ? *resident.result : resident.failed;
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.residual_history, b.residual_history);  // bit for bit
  EXPECT_EQ(a.true_residual, b.true_residual);
  // The same work counted, where an iteration stops early too (sums of whole numbers: exact).
  EXPECT_GT(a.flops, 0.0);
  EXPECT_EQ(a.flops, b.flops);
  SpinorField<double> d = resident.x.clone(resident.x.location());
  axpy(Complex<double>(-1.0), host_loop.x, d);
  EXPECT_EQ(norm2(d), 0.0);  // x may be 0 (a breakdown at the first iteration)
}

class ResidentCgTest : public ::testing::TestWithParam<Location> {
 protected:
  // Rough 4^3 x 8 field, Wilson kappa = 0.124: CG on M^dag M takes some 25 iterations to 1e-10.
  Geometry geom = Geometry::single_process({4, 4, 4, 8});
  GaugeField<double> U = test::rough_gauge(geom, GetParam());
  FermionParams f = [] {
    FermionParams q;
    q.wilson.kappa = 0.124;
    return q;
  }();
  SpinorField<double> b = to_spinor_field(test::random_spinor(geom, 21), geom, GetParam()).parity_part(0);

  template <typename Real>
  SpinorField<Real> source() const {
    SpinorField<Real> s(geom, GetParam(), Subset::Even);
    convert_precision(s, b);
    return s;
  }
  // Runs the host loop and every resident setting on A x = source and compares them; returns the
  // host loop's outcome.
  template <typename Real>
  Outcome compare(const LinearOperator<Real>& A, SolverParams p, bool hermitian = true) const {
    p.hermitian = hermitian;
    const SpinorField<Real> src = source<Real>();
    Outcome host_loop = solve_with("0", A, src, p);
    for (const char* setting : resident_settings(GetParam())) {
      SCOPED_TRACE(setting ? setting : "unset");
      expect_same(host_loop, solve_with(setting, A, src, p));
    }
    return host_loop;
  }
};

TEST_P(ResidentCgTest, SameIteratesAsTheHostLoopInEveryPrecision) {
  const DiracOperators single = make_dirac_operators(U, f, SloppyPrecision::Single);
  const DiracOperators half = make_dirac_operators(U, f, SloppyPrecision::Half);
  SolverParams p;
  {
    SCOPED_TRACE("double, <p, A p> = ||M p||^2");
    p.tolerance = 1e-10;
    const NormalOperator<double> A(*single.even_odd);
    const Outcome o = compare(A, p);
    ASSERT_TRUE(o.result);
    EXPECT_GT(o.result->iterations, 20);
    EXPECT_LE(o.result->true_residual, p.tolerance);
    {
      SCOPED_TRACE("double, <p, A p> as a dot product");
      const ForwardingOperator<double> A_dot(A);
      const Outcome d = compare(A_dot, p);
      ASSERT_TRUE(d.result);
      // The other reduction rounds differently, but solves the same system.
      EXPECT_NEAR(d.result->iterations, o.result->iterations, 3);
    }
  }
  {
    SCOPED_TRACE("single");
    p.tolerance = 1e-5;
    const Outcome o = compare(NormalOperator<float>(*single.even_odd_single), p);
    ASSERT_TRUE(o.result);
    EXPECT_GT(o.result->iterations, 10);
  }
  {
    SCOPED_TRACE("half");
    p.tolerance = kHalfInnerTolerance;
    const Outcome o = compare(NormalOperator<Half>(*half.even_odd_half), p);
    ASSERT_TRUE(o.result);
    EXPECT_GT(o.result->iterations, 5);
  }
}

// CGNR on M_hat (solve with solver.type = "cg", the propagators' CG): the same, with the iteration
// limit too.
TEST_P(ResidentCgTest, CgnrSameIteratesAsTheHostLoop) {
  const DiracOperators single = make_dirac_operators(U, f, SloppyPrecision::Single);
  SolverParams p;
  p.tolerance = 1e-10;
  const Outcome o = compare(*single.even_odd, p, false);
  ASSERT_TRUE(o.result);
  EXPECT_GT(o.result->iterations, 20);
  EXPECT_LE(o.result->true_residual, p.tolerance);
  p.tolerance = 1e-5;
  const Outcome f32 = compare(*single.even_odd_single, p, false);
  ASSERT_TRUE(f32.result);
  p.max_iterations = 5;
  const Outcome limited = compare(*single.even_odd, p, false);
  EXPECT_NE(limited.error.find("not converged in 5 iterations"), std::string::npos) << limited.error;
}

// solve_mixed's inner solves are the same CG: the corrections, and so the whole solve, agree too.
TEST_P(ResidentCgTest, MixedPrecisionSolvesAgreeWithTheHostLoop) {
  const DiracOperators single = make_dirac_operators(U, f, SloppyPrecision::Single);
  const NormalOperator<double> A(*single.even_odd);
  const NormalOperator<float> A_single(*single.even_odd_single);
  SolverParams p;
  p.tolerance = 1e-10;
  p.hermitian = true;
  p.precision = SolverPrecision::Single;
  p.reliable_delta = 0;  // defect correction: its inner solves are the resident CG (reliable updates are not)
  // hermitian: CG on A = M_hat^dag M_hat; else CGNR on M_hat.
  const auto mixed = [&](const char* setting, bool hermitian) {
    std::optional<ScopedEnv> env;
    if (setting) env.emplace("LQCD_STREAM_RESIDENT", setting);
    SpinorField<double> x = A.make_field();
    set_zero(x);
    p.hermitian = hermitian;
    const SolverResult r = hermitian ? solve_mixed(A, A_single, x, b, p)
                                     : solve_mixed(*single.even_odd, *single.even_odd_single, x, b, p);
    return std::make_pair(r, std::move(x));
  };
  for (bool hermitian : {true, false}) {
    SCOPED_TRACE(hermitian ? "CG on M^dag M" : "CGNR");
    const auto [r0, x0] = mixed("0", hermitian);
    EXPECT_LE(r0.true_residual, p.tolerance);
    EXPECT_GE(r0.corrections, 2);
    for (const char* setting : resident_settings(GetParam())) {
      SCOPED_TRACE(setting ? setting : "unset");
      const auto [r1, x1] = mixed(setting, hermitian);
      EXPECT_EQ(r1.corrections, r0.corrections);
      EXPECT_EQ(r1.iterations, r0.iterations);
      EXPECT_EQ(r1.residual_history, r0.residual_history);
      EXPECT_EQ(r1.flops, r0.flops);
      EXPECT_EQ(test::relative_difference(x1, x0), 0.0);
    }
  }
}

// -A (negative definite): <p, A p> < 0 at the first iteration, a breakdown each cycle, and the error
// after the restarts; and an iteration limit that cuts a solve short. Same messages, same state.
TEST_P(ResidentCgTest, BreakdownAndIterationLimitAsTheHostLoop) {
  const DiracOperators ops = make_dirac_operators(U, f);
  const NormalOperator<double> A(*ops.even_odd);
  SolverParams p;
  {
    SCOPED_TRACE("breakdown");
    const Outcome o = compare(ForwardingOperator<double>(A, -1), p);
    EXPECT_FALSE(o.result);
    EXPECT_EQ(o.error.find("cg: breakdown at iteration 0 (<p, A p> <= 0)"), 0u) << o.error;
  }
  {
    SCOPED_TRACE("iteration limit");
    p.max_iterations = 7;
    const Outcome o = compare(A, p);
    EXPECT_FALSE(o.result);
    EXPECT_NE(o.error.find("not converged in 7 iterations"), std::string::npos) << o.error;
    EXPECT_EQ(o.failed.residual_history.size(), 8u);
  }
}

// BiCGStab on M_hat (solve with solver.type = "bicgstab"): the same in every precision, inside
// mixed-precision solves, and at the iteration limit.
class ResidentBiCgStabTest : public ResidentCgTest {};

TEST_P(ResidentBiCgStabTest, SameIteratesAsTheHostLoopInEveryPrecision) {
  const DiracOperators single = make_dirac_operators(U, f, SloppyPrecision::Single);
  const DiracOperators half = make_dirac_operators(U, f, SloppyPrecision::Half);
  SolverParams p;
  p.type = SolverType::BiCGStab;
  {
    SCOPED_TRACE("double");
    p.tolerance = 1e-10;
    const Outcome o = compare(*single.even_odd, p, false);
    ASSERT_TRUE(o.result);
    EXPECT_GT(o.result->iterations, 10);
    EXPECT_LE(o.result->true_residual, p.tolerance);
  }
  {
    SCOPED_TRACE("single");
    p.tolerance = 1e-5;
    const Outcome o = compare(*single.even_odd_single, p, false);
    ASSERT_TRUE(o.result);
    EXPECT_GT(o.result->iterations, 3);
  }
  {
    SCOPED_TRACE("half");
    p.tolerance = kHalfInnerTolerance;
    const Outcome o = compare(*half.even_odd_half, p, false);
    ASSERT_TRUE(o.result);
    EXPECT_GT(o.result->iterations, 2);
  }
  {
    SCOPED_TRACE("iteration limit");
    p.tolerance = 1e-10;
    p.max_iterations = 4;
    const Outcome o = compare(*single.even_odd, p, false);
    EXPECT_NE(o.error.find("bicgstab: not converged in 4 iterations"), std::string::npos) << o.error;
    EXPECT_EQ(o.failed.residual_history.size(), 5u);
  }
}

TEST_P(ResidentBiCgStabTest, MixedPrecisionSolvesAgreeWithTheHostLoop) {
  const DiracOperators single = make_dirac_operators(U, f, SloppyPrecision::Single);
  SolverParams p;
  p.type = SolverType::BiCGStab;
  p.tolerance = 1e-10;
  p.precision = SolverPrecision::Single;
  const auto mixed = [&](const char* setting) {
    std::optional<ScopedEnv> env;
    if (setting) env.emplace("LQCD_STREAM_RESIDENT", setting);
    SpinorField<double> x = single.even_odd->make_field();
    set_zero(x);
    const SolverResult r = solve_mixed(*single.even_odd, *single.even_odd_single, x, b, p);
    return std::make_pair(r, std::move(x));
  };
  const auto [r0, x0] = mixed("0");
  EXPECT_LE(r0.true_residual, p.tolerance);
  EXPECT_GE(r0.corrections, 2);
  for (const char* setting : resident_settings(GetParam())) {
    SCOPED_TRACE(setting ? setting : "unset");
    const auto [r1, x1] = mixed(setting);
    EXPECT_EQ(r1.corrections, r0.corrections);
    EXPECT_EQ(r1.iterations, r0.iterations);
    EXPECT_EQ(r1.residual_history, r0.residual_history);
    EXPECT_EQ(r1.flops, r0.flops);
    EXPECT_EQ(test::relative_difference(x1, x0), 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ResidentBiCgStabTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// gamma_5 on a chirally balanced source: <r0, M p> = 0 at the first iteration of every cycle (the
// breakdown before the iteration counts), the same error after the restarts.
TEST(ResidentBiCgStab, BreakdownOfR0vAsTheHostLoop) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const test::Gamma5Operator G(geom);
  const SpinorField<double> b = test::chirally_balanced_source(geom, 12);
  SolverParams p;
  p.type = SolverType::BiCGStab;
  const Outcome host_loop = solve_with("0", G, b, p);
  const Outcome resident = solve_with("1", G, b, p);
  EXPECT_EQ(host_loop.error.find("bicgstab: breakdown at iteration 0 (<r0, M p> ~ 0)"), 0u) << host_loop.error;
  expect_same(host_loop, resident);
}

// The finishers' decisions, which the solves above do not all reach (an omega or a rho that vanishes,
// a NaN): each stops the cycle where the host loop would, and the iteration's report says how.
TEST(ResidentBiCgStab, FinishersStopTheCycleWhereTheHostLoopWould) {
  using namespace solver_detail;
  BiCgStabScalars s{};
  ResidentProgress progress{};
  const double threshold = 1e-20;
  const auto start = [&] {
    BiCgStabStart{&s, Complex<double>(2.0, 1.0), 4.0}(0);
    publish_count(&progress.completed, 0);
  };
  const auto sums = [](double a, double b, double c) {
    Sums<3> x;
    x[0] = a;
    x[1] = b;
    x[2] = c;
    return x;
  };
  Sums<1> s2;
  s2[0] = 0.5;
  {
    SCOPED_TRACE("alpha = rho / <r0, v>, <r0, v> = conj <v, r0>; then a vanishing <t, s>");
    start();
    FinishAlpha{&s, 0}(sums(1.0, 0.5, 3.0));
    EXPECT_EQ(s.alpha.re, divide_rn(Complex<double>(2.0, 1.0), Complex<double>(1.0, -0.5)).re);
    EXPECT_EQ(s.alpha.im, divide_rn(Complex<double>(2.0, 1.0), Complex<double>(1.0, -0.5)).im);
    FinishHalfStep{&s, 0, threshold}(s2);
    EXPECT_EQ(s.stop_iteration, INT_MAX);
    FinishOmega{&s, 0}(sums(0.0, 0.0, 2.0));
    EXPECT_EQ(s.stop_iteration, 0);
    FinishIteration{&s, &progress, 0, threshold}(sums(7.0, 1.0, 1.0));  // not the residual of this iteration
    EXPECT_EQ(progress.completed, 1);
    EXPECT_EQ(progress.status[0], kOmegaBreakdown);
    EXPECT_EQ(progress.r2[0], 0.5);  // ||s||^2: the half step is the iteration's result
    FinishAlpha{&s, 1}(sums(0.0, 0.0, 1.0));  // queued past the stop: no effect, no report
    FinishIteration{&s, &progress, 1, threshold}(sums(1.0, 1.0, 1.0));
    EXPECT_EQ(progress.completed, 1);
    EXPECT_EQ(s.stop_iteration, 0);
  }
  {
    SCOPED_TRACE("a full iteration, then a vanishing rho");
    start();
    FinishAlpha{&s, 0}(sums(1.0, 0.5, 3.0));
    FinishHalfStep{&s, 0, threshold}(s2);
    FinishOmega{&s, 0}(sums(0.5, 0.25, 2.0));
    EXPECT_EQ(s.omega.re, 0.25);
    EXPECT_EQ(s.omega.im, 0.125);
    FinishIteration{&s, &progress, 0, threshold}(sums(0.25, 3.0, -1.0));
    EXPECT_EQ(progress.status[0], kResidentRunning);
    EXPECT_EQ(progress.r2[0], 0.25);
    EXPECT_EQ(s.rho[1].re, 3.0);
    const Complex<double> beta = bicgstab_beta({3.0, -1.0}, {2.0, 1.0}, s.alpha, s.omega);
    EXPECT_EQ(s.beta.re, beta.re);
    EXPECT_EQ(s.beta.im, beta.im);
    FinishAlpha{&s, 1}(sums(1.0, 0.0, 1.0));
    FinishHalfStep{&s, 1, threshold}(s2);
    FinishOmega{&s, 1}(sums(0.5, 0.0, 2.0));
    FinishIteration{&s, &progress, 1, threshold}(sums(0.125, 1e-30, 0.0));
    EXPECT_EQ(progress.completed, 2);
    EXPECT_EQ(progress.status[1], kRhoBreakdown);
    EXPECT_EQ(progress.r2[1], 0.125);
    EXPECT_EQ(s.stop_iteration, 1);
  }
  {
    SCOPED_TRACE("||s|| meets the threshold; a NaN residual");
    start();
    FinishAlpha{&s, 0}(sums(1.0, 0.5, 3.0));
    Sums<1> small;
    small[0] = threshold;
    FinishHalfStep{&s, 0, threshold}(small);
    FinishIteration{&s, &progress, 0, threshold}(sums(1.0, 1.0, 1.0));
    EXPECT_EQ(progress.status[0], kHalfStepConverged);  // less work than a whole iteration
    EXPECT_EQ(progress.r2[0], threshold);
    start();
    FinishAlpha{&s, 0}(sums(1.0, 0.5, 3.0));
    FinishHalfStep{&s, 0, threshold}(s2);
    FinishOmega{&s, 0}(sums(0.5, 0.25, 2.0));
    FinishIteration{&s, &progress, 0, threshold}(sums(std::nan(""), 1.0, 1.0));
    EXPECT_EQ(progress.status[0], kResidentNotFinite);
    EXPECT_EQ(s.stop_iteration, 0);
  }
}

TEST(ResidentCg, SettingIsOnOrOffOrAnError) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, Location::Host);
  FermionParams f;
  f.wilson.kappa = 0.12;
  const DiracOperators ops = make_dirac_operators(U, f);
  const NormalOperator<double> A(*ops.even_odd);
  SpinorField<double> b = to_spinor_field(test::random_spinor(geom, 3), geom, Location::Host).parity_part(0);
  SpinorField<double> x = A.make_field();
  set_zero(x);
  const ScopedEnv env("LQCD_STREAM_RESIDENT", "yes");
  try {
    solve_hermitian(A, x, b, SolverParams{});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "LQCD_STREAM_RESIDENT=yes: expected 0 (off) or 1 (on)");
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ResidentCgTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
