// The Krylov solvers: every method reaches the requested true residual ||b - M x|| / ||b|| (computed
// here, independently of the solver) on Wilson, twisted-mass and clover operators, full-lattice and
// even-odd preconditioned, on a random gauge field and on the MILC 8^4 beta = 6.0 configuration;
// failures (iteration limit, breakdown, NaN) throw SolverError instead of returning a wrong x.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/clover_operator.hpp"
#include "dirac/compressed_clover_even_odd.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "dirac/wilson_operator.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/updates.hpp"
#include "math/gamma.hpp"
#include "measure/configuration.hpp"
#include "solvers/solver.hpp"
#include "field_test_support.hpp"
#include "gamma5_operator.hpp"

namespace lqcd {
namespace {

constexpr SolverType kAllTypes[] = {SolverType::CG, SolverType::BiCGStab, SolverType::GCR};

LexicographicSpinor random_lex(const Geometry& g, std::uint64_t seed) { return test::random_spinor(g, seed, 11); }

SpinorField<double> random_field(const Geometry& g, Location loc, std::uint64_t seed) {
  return to_spinor_field(random_lex(g, seed), g, loc);
}

// Hot start + one heatbath sweep at beta = 5.5: a rough field far from the unit one.
GaugeField<double> rough_gauge(const Geometry& g, Location loc) { return test::rough_gauge(g, loc, 31); }

using test::relative_difference;
using test::relative_residual;

SolverParams params(SolverType type, double tol = 1e-10) {
  SolverParams p;
  p.type = type;
  p.tolerance = tol;
  return p;
}

// Solves M x = b from x = 0 and checks what every successful solve must satisfy. With
// p.precision = Single the corrections are solved by M_single (solve_mixed).
SpinorField<double> solve_and_check(const LinearOperator<double>& M, const SpinorField<double>& b, const SolverParams& p,
                                    SolverResult* out = nullptr, const LinearOperator<float>* M_single = nullptr) {
  SpinorField<double> x = M.make_field();
  set_zero(x);
  const SolverResult res = p.precision == SolverPrecision::Single ? solve_mixed(M, *M_single, x, b, p) : solve(M, x, b, p);
  const double computed = relative_residual(M, x, b);
  const std::string what = res.summary();
  EXPECT_TRUE(res.converged) << what;
  EXPECT_LE(computed, p.tolerance) << what;
  EXPECT_NEAR(res.true_residual, computed, 1e-6 * computed) << what;
  EXPECT_GT(res.iterations, 0) << what;
  EXPECT_EQ(res.residual_history.size(), std::size_t(res.iterations) + 1) << what;
  if (!res.residual_history.empty()) {
    EXPECT_NEAR(res.residual_history.front(), 1.0, 1e-12) << what;  // x = 0: r = b
    EXPECT_LE(res.residual_history.back(), p.tolerance) << what;
  }
  EXPECT_GT(res.seconds, 0) << what;
  EXPECT_GT(res.gflops, 0) << what;
  if (out) *out = res;
  return x;
}

// ---------------------------------------------------------------------------------------------------
// Names, parameters, summary

TEST(SolverNames, RoundTripAndErrors) {
  for (SolverType t : kAllTypes) EXPECT_EQ(solver_type_from_name(solver_type_name(t)), t);
  EXPECT_EQ(solver_type_from_name(solver_type_name(SolverType::Multigrid)), SolverType::Multigrid);
  EXPECT_EQ(solver_type_name(SolverType::BiCGStab), "bicgstab");
  try {
    solver_type_from_name("minres");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "solver.type: expected \"cg\", \"bicgstab\", \"gcr\" or \"multigrid\" (got \"minres\")");
  }
  try {
    solver_type_from_name("CG", "propagator.solver");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "propagator.solver: expected \"cg\", \"bicgstab\", \"gcr\" or \"multigrid\" (got \"CG\")");
  }
}

TEST(SolverResult, SummaryIsOneLine) {
  SolverResult r;
  r.type = SolverType::CG;
  r.converged = true;
  r.iterations = 123;
  r.true_residual = 8.1e-11;
  r.seconds = 0.42;
  r.gflops = 12.3;
  EXPECT_EQ(r.summary(), "cg: converged in 123 iterations, true residual 8.1e-11, 0.42 s, 12.3 GFLOPS");
  r.type = SolverType::GCR;
  r.converged = false;
  EXPECT_EQ(r.summary().find("gcr: not converged after 123 iterations"), 0u) << r.summary();
}

TEST(Solver, InvalidParametersAreInputErrors) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, Location::Host);
  const WilsonOperator<double> M(U, WilsonParams{});
  const SpinorField<double> b = random_field(geom, Location::Host, 1);
  SpinorField<double> x = M.make_field();
  set_zero(x);
  auto error_of = [&](const SolverParams& p) -> std::string {
    try {
      solve(M, x, b, p);
    } catch (const SolverError& e) {
      return std::string("SolverError: ") + e.what();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  SolverParams p;
  p.tolerance = 0;
  EXPECT_NE(error_of(p).find("solver.tolerance: expected a positive number"), std::string::npos) << error_of(p);
  p = SolverParams{};
  p.tolerance = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(error_of(p).find("solver.tolerance"), std::string::npos);
  p = SolverParams{};
  p.type = SolverType::GCR;
  p.gcr_restart = 0;
  EXPECT_NE(error_of(p).find("solver.gcr_restart"), std::string::npos);
  p = SolverParams{};
  p.max_iterations = -1;
  EXPECT_NE(error_of(p).find("solver.max_iterations"), std::string::npos);
  // A field of another subset than the operator's.
  SpinorField<double> even(geom, Location::Host, Subset::Even);
  EXPECT_THROW(solve(M, even, b, SolverParams{}), Error);
}

// ---------------------------------------------------------------------------------------------------
// Random 4^4 gauge field, every solver on every location

class SolverTest : public ::testing::TestWithParam<std::tuple<Location, SolverType>> {
 protected:
  Location loc() const { return std::get<0>(GetParam()); }
  SolverType type() const { return std::get<1>(GetParam()); }
};

TEST_P(SolverTest, WilsonTwistedAndCloverReachTheTrueResidual) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, loc());
  const SpinorField<double> b = random_field(geom, loc(), 2);
  WilsonParams wilson;
  wilson.kappa = 0.12;
  WilsonParams twisted = wilson;
  twisted.mu = 0.1;
  const WilsonOperator<double> Mw(U, wilson), Mtm(U, twisted);
  const WilsonCloverOperator<double> Mc(U, wilson, 1.0);
  SolverResult res;
  for (const LinearOperator<double>* M : {static_cast<const LinearOperator<double>*>(&Mw), static_cast<const LinearOperator<double>*>(&Mtm),
                                  static_cast<const LinearOperator<double>*>(&Mc)}) {
    solve_and_check(*M, b, params(type()), &res);
    EXPECT_EQ(res.type, type());
    EXPECT_EQ(res.summary().find(solver_type_name(type()) + ": converged in "), 0u) << res.summary();
  }
}

TEST_P(SolverTest, EvenOddSolutionEqualsTheFullLatticeSolution) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, loc());
  const SpinorField<double> b = random_field(geom, loc(), 3);
  for (double mu : {0.0, 0.1}) {
    WilsonParams prm;
    prm.kappa = 0.12;
    prm.mu = mu;
    const WilsonOperator<double> M(U, prm);
    const WilsonEvenOddOperator<double> Mhat(U, prm);
    const SpinorField<double> x_full = solve_and_check(M, b, params(type(), 1e-12));
    const SpinorField<double> b_even = Mhat.prepare_source(b);
    const SpinorField<double> x_even = solve_and_check(Mhat, b_even, params(type(), 1e-12));
    const SpinorField<double> x = Mhat.reconstruct(x_even, b);
    EXPECT_LT(relative_difference(x, x_full), 1e-8) << "mu = " << mu;
    EXPECT_LT(relative_residual(M, x, b), 1e-10) << "mu = " << mu;
  }
}

TEST_P(SolverTest, IterationLimitThrows) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, loc());
  WilsonParams prm;
  prm.kappa = 0.12;
  const WilsonOperator<double> M(U, prm);
  const SpinorField<double> b = random_field(geom, loc(), 4);
  SpinorField<double> x = M.make_field();
  set_zero(x);
  SolverParams p = params(type());
  p.max_iterations = 3;
  try {
    solve(M, x, b, p);
    FAIL() << "no SolverError";
  } catch (const SolverError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find(solver_type_name(type()) + ": not converged in 3 iterations"), 0u) << what;
    EXPECT_NE(what.find("raise solver.max_iterations"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_FALSE(e.result().converged);
    EXPECT_EQ(e.result().iterations, 3);
    EXPECT_GT(e.result().true_residual, p.tolerance);
    EXPECT_NEAR(e.result().true_residual, relative_residual(M, x, b), 1e-6 * e.result().true_residual);
  }
  // max_iterations = 0 and a zero guess: nothing can be done.
  p.max_iterations = 0;
  set_zero(x);
  EXPECT_THROW(solve(M, x, b, p), SolverError);
}

TEST_P(SolverTest, ZeroSourceGivesZeroSolution) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, loc());
  const WilsonOperator<double> M(U, WilsonParams{});
  SpinorField<double> b = M.make_field();
  set_zero(b);
  SpinorField<double> x = random_field(geom, loc(), 5);  // a non-zero guess
  const SolverResult res = solve(M, x, b, params(type()));
  EXPECT_TRUE(res.converged);
  EXPECT_EQ(res.iterations, 0);
  EXPECT_EQ(res.true_residual, 0.0);
  EXPECT_EQ(norm2(x), 0.0);
}

TEST_P(SolverTest, InitialGuessIsUsed) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, loc());
  WilsonParams prm;
  prm.kappa = 0.12;
  prm.mu = 0.1;
  const WilsonOperator<double> M(U, prm);
  const SpinorField<double> b = random_field(geom, loc(), 6);
  SolverResult first;
  SpinorField<double> x = solve_and_check(M, b, params(type()), &first);
  // The solution as the guess: converged at once.
  const SolverResult again = solve(M, x, b, params(type()));
  EXPECT_TRUE(again.converged);
  EXPECT_EQ(again.iterations, 0);
  EXPECT_EQ(again.residual_history.size(), 1u);
  // A slightly perturbed solution: fewer iterations than from zero.
  axpy(Complex<double>(1e-6), random_field(geom, loc(), 7), x);
  const SolverResult near = solve(M, x, b, params(type()));
  EXPECT_TRUE(near.converged);
  EXPECT_LT(near.iterations, first.iterations);
  EXPECT_LE(relative_residual(M, x, b), 1e-10);
}

TEST_P(SolverTest, NaNInTheSourceThrows) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, loc());
  const WilsonOperator<double> M(U, WilsonParams{});
  LexicographicSpinor lex = random_lex(geom, 8);
  lex[37].s[2].c[1].im = std::numeric_limits<double>::quiet_NaN();
  const SpinorField<double> b = to_spinor_field(lex, geom, loc());
  SpinorField<double> x = M.make_field();
  set_zero(x);
  try {
    solve(M, x, b, params(type()));
    FAIL() << "no SolverError";
  } catch (const SolverError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find(solver_type_name(type()) + ": NaN/Inf in the residual at iteration 0"), 0u) << what;
    EXPECT_NE(what.find("check the input fields"), std::string::npos) << what;
    EXPECT_TRUE(std::isnan(e.result().true_residual));
  }
  // A NaN in the initial guess likewise.
  const SpinorField<double> good = random_field(geom, loc(), 9);
  SpinorField<double> bad_guess = to_spinor_field(lex, geom, loc());
  EXPECT_THROW(solve(M, bad_guess, good, params(type())), SolverError);
}

// An operator with an error: M in + delta ||in|| n, with n a fresh random unit field at every call.
// Its residual cannot go below ~delta, although a solver's iterated residual can: the solver must
// throw rather than report convergence at 1e-10.
class NoisyOperator : public LinearOperator<double> {
 public:
  NoisyOperator(const LinearOperator<double>& M, double delta) : M_(M), delta_(delta) {}
  void apply(SpinorField<double>& out, const SpinorField<double>& in) const override {
    M_.apply(out, in);
    add_noise(out, in);
  }
  void apply_dagger(SpinorField<double>& out, const SpinorField<double>& in) const override {
    M_.apply_dagger(out, in);
    add_noise(out, in);
  }
  Subset subset() const override { return M_.subset(); }
  const Geometry& geometry() const override { return M_.geometry(); }
  Location location() const override { return M_.location(); }
  double flops_per_site() const override { return M_.flops_per_site(); }

 private:
  void add_noise(SpinorField<double>& out, const SpinorField<double>& in) const {
    const SpinorField<double> n = random_field(geometry(), location(), 1000 + calls_++);
    axpy(Complex<double>(delta_ * std::sqrt(norm2(in) / norm2(n))), n, out);
  }
  const LinearOperator<double>& M_;
  double delta_;
  mutable std::uint64_t calls_ = 0;
};

TEST_P(SolverTest, InaccurateOperatorIsNotReportedConverged) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, loc());
  WilsonParams prm;
  prm.kappa = 0.12;
  const WilsonOperator<double> M(U, prm);
  const NoisyOperator noisy(M, 1e-7);
  const SpinorField<double> b = random_field(geom, loc(), 11);
  SpinorField<double> x = M.make_field();
  set_zero(x);
  SolverParams p = params(type());
  p.max_iterations = 2000;
  try {
    const SolverResult res = solve(noisy, x, b, p);
    FAIL() << "returned " << res.summary();
  } catch (const SolverError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find(solver_type_name(type()) + ": the true residual stagnates"), 0u) << what;
    EXPECT_NE(what.find("raise solver.tolerance"), std::string::npos) << what;
    EXPECT_FALSE(e.result().converged);
    EXPECT_GT(e.result().true_residual, p.tolerance);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, SolverTest,
                         ::testing::Combine(::testing::ValuesIn(test::locations()), ::testing::ValuesIn(kAllTypes)),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_" +
                                  solver_type_name(std::get<1>(info.param));
                         });

class GcrTest : public ::testing::TestWithParam<Location> {};

TEST_P(GcrTest, ShortRestartsStillConverge) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  WilsonParams prm;
  prm.kappa = 0.12;
  const WilsonOperator<double> M(U, prm);
  const SpinorField<double> b = random_field(geom, GetParam(), 10);
  SolverResult gcr1, gcr3, gcr16;
  SolverParams p = params(SolverType::GCR);
  p.gcr_restart = 1;  // minimal residual (Orthomin(1)): converges since M's field of values has Re > 0 here
  solve_and_check(M, b, p, &gcr1);
  p.gcr_restart = 3;
  solve_and_check(M, b, p, &gcr3);
  p.gcr_restart = 16;
  solve_and_check(M, b, p, &gcr16);
  // Longer memory, fewer iterations.
  EXPECT_GT(gcr1.iterations, gcr3.iterations);
  EXPECT_GT(gcr3.iterations, gcr16.iterations);
}

INSTANTIATE_TEST_SUITE_P(Backends, GcrTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// ---------------------------------------------------------------------------------------------------
// An indefinite operator: gamma_5 (host fields). With a source of equal chirality weights,
// <b, gamma_5 b> = 0: BiCGStab and GCR break down (and must say so), CG on gamma_5^2 = 1 does not.

TEST(Solver, IndefiniteOperatorBreakdownIsReported) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const test::Gamma5Operator G(geom);
  const SpinorField<double> b = test::chirally_balanced_source(geom, 12);
  for (SolverType t : {SolverType::BiCGStab, SolverType::GCR}) {
    SpinorField<double> x = G.make_field();
    set_zero(x);
    try {
      solve(G, x, b, params(t));
      FAIL() << solver_type_name(t) << ": no SolverError";
    } catch (const SolverError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find(solver_type_name(t) + ": breakdown at iteration"), 0u) << what;
      EXPECT_NE(what.find("try solver.type = \"cg\""), std::string::npos) << what;
      EXPECT_FALSE(e.result().converged);
    }
  }
  SolverResult res;
  solve_and_check(G, b, params(SolverType::CG), &res);
  EXPECT_EQ(res.iterations, 1);  // M^dag M = 1
}

// ---------------------------------------------------------------------------------------------------
// Mixed precision on a rough field: every solver and action, full-lattice and even-odd.

class MixedPrecisionTest : public ::testing::TestWithParam<Location> {};

TEST_P(MixedPrecisionTest, EverySolverAndActionReachesTheDoubleTolerance) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  const SpinorField<double> b = random_field(geom, GetParam(), 16);
  FermionParams f[3];
  f[1].action = FermionAction::TwistedMass;
  f[1].wilson.mu = 0.1;
  f[2].action = FermionAction::Clover;
  f[2].csw = 1.0;
  for (FermionParams& fp : f) {
    fp.wilson.kappa = 0.12;
    const DiracOperators ops = make_dirac_operators(U, fp, SloppyPrecision::Single);
    for (SolverType t : kAllTypes) {
      SCOPED_TRACE(std::string(fermion_action_name(fp.action)) + " " + solver_type_name(t));
      SolverParams p = params(t);
      const SpinorField<double> x_double = solve_and_check(*ops.full, b, p);
      p.precision = SolverPrecision::Single;
      SolverResult res;
      const SpinorField<double> x = solve_and_check(*ops.full, b, p, &res, ops.full_single.get());
      EXPECT_GE(res.corrections, 2);
      EXPECT_LT(relative_difference(x, x_double), 1e-8);
      const SpinorField<double> b_even = ops.even_odd->prepare_source(b);
      const SpinorField<double> x_even = solve_and_check(*ops.even_odd, b_even, p, &res, ops.even_odd_single.get());
      EXPECT_LT(relative_difference(ops.even_odd->reconstruct(x_even, b), x_double), 1e-8);
    }
  }
}

TEST_P(MixedPrecisionTest, BadParametersAndFailuresAreErrors) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, GetParam());
  FermionParams fp;
  fp.wilson.kappa = 0.12;
  const DiracOperators ops = make_dirac_operators(U, fp, SloppyPrecision::Single);
  const SpinorField<double> b = random_field(geom, GetParam(), 17);
  SpinorField<double> x = ops.full->make_field();
  set_zero(x);
  SolverParams p = params(SolverType::CG);
  p.precision = SolverPrecision::Single;
  // solve() works in the operator's own precision only.
  EXPECT_THROW(solve(*ops.full, x, b, p), Error);
  p.inner_tolerance = 1.5;
  try {
    solve_mixed(*ops.full, *ops.full_single, x, b, p);
    ADD_FAILURE() << "inner tolerance 1.5 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("solver.inner_tolerance"), std::string::npos) << e.what();
  }
  // The iteration limit counts the iterations of all corrections.
  p.inner_tolerance = 1e-4;
  p.max_iterations = 5;
  try {
    solve_mixed(*ops.full, *ops.full_single, x, b, p);
    ADD_FAILURE() << "converged in 5 iterations";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("solver.max_iterations"), std::string::npos) << e.what();
    EXPECT_FALSE(e.result().converged);
    EXPECT_GT(e.result().true_residual, p.tolerance);
  }
  // The operators must have one shape.
  SpinorField<double> x_even = ops.even_odd->make_field();
  EXPECT_THROW(solve_mixed(*ops.even_odd, *ops.full_single, x_even, ops.even_odd->prepare_source(b), params(SolverType::CG)),
               Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, MixedPrecisionTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// ---------------------------------------------------------------------------------------------------
// The MILC 8^4 quenched beta = 6.0 configuration (../shared/testdata), antiperiodic in time.

class MilcSolverTest : public ::testing::TestWithParam<Location> {
 protected:
  static GaugeField<double> load(Location loc) {
    LoadPolicy policy;
    policy.location = loc;
    return std::move(load_configuration(test::testdata("milc_l8888_b6.0.milc"), policy).field);
  }
};

TEST_P(MilcSolverTest, WilsonKappa0155EvenOddAllSolversAgree) {
  const GaugeField<double> U = load(GetParam());
  const Geometry& geom = U.geometry();
  WilsonParams prm;
  prm.kappa = 0.155;  // default boundary: antiperiodic in t
  const WilsonOperator<double> M(U, prm);
  const WilsonEvenOddOperator<double> Mhat(U, prm);
  const SpinorField<double> b = random_field(geom, GetParam(), 13);
  const SpinorField<double> b_even = Mhat.prepare_source(b);
  std::unique_ptr<SpinorField<double>> reference;
  for (SolverType t : kAllTypes) {
    SolverResult res;
    const SpinorField<double> x_even = solve_and_check(Mhat, b_even, params(t), &res);
    std::cout << "  [" << to_string(GetParam()) << "] MILC 8^4 Wilson kappa 0.155, even-odd: " << res.summary()
              << "\n";
    const SpinorField<double> x = Mhat.reconstruct(x_even, b);
    // Full-lattice residual = even-odd residual * ||b_e'|| / ||b|| (the odd equations hold exactly).
    EXPECT_LT(relative_residual(M, x, b), 1.01e-10 * std::sqrt(norm2(b_even) / norm2(b)))
        << solver_type_name(t);
    if (!reference)
      reference = std::make_unique<SpinorField<double>>(x.clone(x.location()));
    else
      EXPECT_LT(relative_difference(x, *reference), 1e-7) << solver_type_name(t);
  }
}

TEST_P(MilcSolverTest, CloverKappa0133CgFullLattice) {
  const GaugeField<double> U = load(GetParam());
  WilsonParams prm;
  prm.kappa = 0.1330;
  const WilsonCloverOperator<double> M(U, prm, 1.769);
  const SpinorField<double> b = random_field(U.geometry(), GetParam(), 14);
  SolverResult res;
  solve_and_check(M, b, params(SolverType::CG), &res);
  std::cout << "  [" << to_string(GetParam()) << "] MILC 8^4 clover kappa 0.1330 csw 1.769, full lattice: "
            << res.summary() << "\n";
}

// Mixed precision (double residual, single-precision corrections) reaches 1e-10 on the same problems,
// and the even-odd clover solution equals the full-lattice one.
TEST_P(MilcSolverTest, MixedPrecisionReachesTheDoubleTolerance) {
  const GaugeField<double> U = load(GetParam());
  const Geometry& geom = U.geometry();
  FermionParams wilson, clover;
  wilson.wilson.kappa = 0.155;
  clover.action = FermionAction::Clover;
  clover.wilson.kappa = 0.1330;
  clover.csw = 1.769;
  const SpinorField<double> b = random_field(geom, GetParam(), 15);
  for (const FermionParams* f : {&wilson, &clover}) {
    const DiracOperators ops = make_dirac_operators(U, *f, SloppyPrecision::Single);
    const SpinorField<double> b_even = ops.even_odd->prepare_source(b);
    SolverParams p = params(SolverType::CG);
    const SpinorField<double> x_double = ops.even_odd->reconstruct(solve_and_check(*ops.even_odd, b_even, p), b);
    p.precision = SolverPrecision::Single;
    SolverResult res;
    const SpinorField<double> x_even = solve_and_check(*ops.even_odd, b_even, p, &res, ops.even_odd_single.get());
    std::cout << "  [" << to_string(GetParam()) << "] MILC 8^4 " << fermion_action_name(f->action)
              << " kappa " << f->wilson.kappa << ", even-odd, mixed: " << res.summary() << "\n";
    EXPECT_EQ(res.precision, SolverPrecision::Single);
    EXPECT_GE(res.corrections, 2) << "each correction gains at most 1e-5 (inner tolerance)";
    EXPECT_NE(res.summary().find("double/single"), std::string::npos) << res.summary();
    const SpinorField<double> x = ops.even_odd->reconstruct(x_even, b);
    EXPECT_LT(relative_residual(*ops.full, x, b), 1.01e-10 * std::sqrt(norm2(b_even) / norm2(b)));
    EXPECT_LT(relative_difference(x, x_double), 1e-7) << fermion_action_name(f->action);
    if (f == &clover) {  // the even-odd clover solution is the full-lattice one
      const SpinorField<double> x_full = solve_and_check(*ops.full, b, params(SolverType::CG));
      EXPECT_LT(relative_difference(x_double, x_full), 1e-7);
    }
  }
}

// CG on the clover normal operator M_hat^dag M_hat (what the HMC forces invert) with the iterations in
// single or half precision: with reliable updates (solve_cg_reliable) the Krylov space is kept and the
// iterations stay within 10% (single) and 25% (half) of double precision's; defect correction, which
// restarts it at every correction, takes more in half precision (each correction gains at most 1e-3).
// All reach the double-precision tolerance.
TEST_P(MilcSolverTest, ReliableUpdatesKeepTheIterationsOfDoublePrecision) {
  const GaugeField<double> U = load(GetParam());
  const Geometry& geom = U.geometry();
  FermionParams clover;
  clover.action = FermionAction::Clover;
  clover.wilson.kappa = 0.1330;
  clover.csw = 1.769;
  const DiracOperators ops = make_dirac_operators(U, clover, SloppyPrecision::Single);
  const auto& M = dynamic_cast<const WilsonCloverEvenOddOperator<double>&>(*ops.even_odd);
  const CompressedCloverEvenOddOperator<float, 6> Ms(M);
  const CompressedCloverEvenOddOperator<Half, 6> Mh(M);
  const NormalOperator<double> A(M);
  const NormalOperator<float> As(Ms);
  const NormalOperator<Half> Ah(Mh);
  const SpinorField<double> b = ops.even_odd->prepare_source(random_field(geom, GetParam(), 19));
  SolverParams p = params(SolverType::CG);
  p.hermitian = true;
  const auto run = [&](SolverPrecision precision, double delta) {
    SpinorField<double> x = A.make_field();
    set_zero(x);
    SolverParams q = p;
    q.precision = precision;
    q.reliable_delta = delta;
    const SolverResult r = precision == SolverPrecision::Double ? solve_hermitian(A, x, b, q)
                           : precision == SolverPrecision::Single ? solve_mixed(A, As, x, b, q)
                                                                  : solve_mixed(A, Ah, x, b, q);
    EXPECT_TRUE(r.converged) << r.summary();
    EXPECT_LE(relative_residual(A, x, b), p.tolerance) << r.summary();
    return r;
  };
  const SolverResult dbl = run(SolverPrecision::Double, 0);
  const SolverResult single_dc = run(SolverPrecision::Single, 0), single_ru = run(SolverPrecision::Single, 0.1);
  const SolverResult half_dc = run(SolverPrecision::Half, 0), half_ru = run(SolverPrecision::Half, 0.1);
  std::cout << "  [" << to_string(GetParam()) << "] MILC 8^4 clover kappa 0.1330, CG on M_hat^dag M_hat to 1e-10: "
            << dbl.iterations << " iterations in double; single " << single_dc.iterations << " (defect correction, "
            << single_dc.corrections << " corrections) / " << single_ru.iterations << " (reliable, "
            << single_ru.corrections << " updates); half " << half_dc.iterations << " / " << half_ru.iterations << " ("
            << half_ru.corrections << " updates)\n";
  EXPECT_LE(single_ru.iterations, 1.1 * dbl.iterations);
  EXPECT_LE(half_ru.iterations, 1.25 * dbl.iterations);
  EXPECT_LT(half_ru.iterations, half_dc.iterations);
  EXPECT_GE(half_ru.corrections, 5);  // 1e-10 in steps of at most 0.1
}

INSTANTIATE_TEST_SUITE_P(Backends, MilcSolverTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
