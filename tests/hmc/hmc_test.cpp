// HMC (rung 6 of the ladder, dynamics): every force is the derivative of its action along random
// directions (central differences), the integrators are reversible, dH scales with the order of the
// integrator, <exp(-dH)> = 1, and host and device trajectories agree.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "field_test_support.hpp"
#include "force_check.hpp"
#include "hmc/gauge_monomial.hpp"
#include "hmc/chronological_guess.hpp"
#include "hmc/hasenbusch_ratio_monomial.hpp"
#include "hmc/hmc.hpp"
#include "hmc/md_kernels.hpp"
#include "hmc/two_flavour_monomial.hpp"
#include "gauge/observables.hpp"
#include "measure/statistics.hpp"

namespace lqcd {
namespace {

using test::expect_force_is_derivative;

// exp(i X) is unitary with det 1 for small and large Hermitian traceless X, and exp(i X) exp(-i X) = 1.
TEST(MolecularDynamics, ExponentialIsSpecialUnitaryForAnyStep) {
  SiteRandom rng(3, 0, RngPurpose::Test, 9, 0);
  for (double size : {1e-3, 0.3, 2.0, 40.0, 5000.0}) {
    double p[8];
    for (double& c : p) c = rng.gaussian() * size;
    const SU3<double> X = su3_algebra(p);
    SU3<double> minus = X;
    minus *= -1.0;
    const SU3<double> e = exp_i(X);
    EXPECT_LT(su3_deviation(e), 1e-11) << size;  // the squarings of a huge step accumulate rounding
    EXPECT_LT(test::max_abs_diff(e * exp_i(minus), SU3<double>::identity()), 1e-12) << size;
  }
  // X = a sigma_x in the (0, 1) block: exp(i X) = cos a + i sigma_x sin a there; a = 0.5 and 3 (squared).
  for (double a : {0.5, 3.0}) {
    double p[8] = {2 * a, 0, 0, 0, 0, 0, 0, 0};
    const SU3<double> e = exp_i(su3_algebra(p));
    EXPECT_NEAR(e.m[0][1].im, std::sin(a), 1e-14);
    EXPECT_NEAR(e.m[0][0].re, std::cos(a), 1e-14);
    EXPECT_NEAR(e.m[2][2].re, 1.0, 1e-14);
  }
}

class HmcTest : public ::testing::TestWithParam<Location> {};

TEST_P(HmcTest, GaugeForceIsTheDerivativeOfTheAction) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  for (const char* action : {"wilson", "symanzik", "iwasaki", "dbw2"}) {
    GaugeMonomial m(GaugeAction::from_name(action, 5.6));
    expect_force_is_derivative(m, U, 1e-6);
  }
}

TEST_P(HmcTest, FermionForceIsTheDerivativeOfTheAction) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  SolverParams solver;
  solver.tolerance = 1e-13;
  // Wilson, twisted mass, clover (with the log det A_oo term), twisted clover.
  const double cases[4][2] = {{0.0, 0.0}, {0.2, 0.0}, {0.0, 1.769}, {0.1, 1.2}};
  for (const auto& [mu, csw] : cases) {
    WilsonParams w;
    w.kappa = 0.12;
    w.mu = mu;  // default boundary: antiperiodic in t, so the force's boundary phases are exercised
    TwoFlavourMonomial m(w, csw, solver, 0);
    m.refresh(U, 11, 3);
    expect_force_is_derivative(m, U, 1e-6);
  }
}

// f(m, c_sw) for the clover Hasenbusch ratios kappa / kappa2 = 0.12 / 0.10 with c_sw 0 (Wilson) and 1.5,
// where the log det A_oo terms differ.
template <typename F>
void for_each_wilson_and_clover_ratio(const SolverParams& solver, F&& f) {
  EvenOddQuark light, heavy;
  light.params.kappa = 0.12;
  heavy.params.kappa = 0.10;
  for (double csw : {0.0, 1.5}) {
    light.csw = heavy.csw = csw;
    HasenbuschRatioMonomial m(light, heavy, solver, 1);
    f(m, csw);
  }
}

TEST_P(HmcTest, HasenbuschRatioForceIsTheDerivativeOfTheAction) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  SolverParams solver;
  solver.tolerance = 1e-13;
  // kappa / kappa2 (Wilson and clover) and mu / mu2.
  for_each_wilson_and_clover_ratio(solver, [&](HasenbuschRatioMonomial& m, double) {
    m.refresh(U, 11, 4);
    expect_force_is_derivative(m, U, 1e-6);
  });
  EvenOddQuark tm, tm2;
  tm.params.kappa = tm2.params.kappa = 0.12;
  tm.csw = tm2.csw = 0;
  tm.params.mu = 0.05;
  tm2.params.mu = 0.3;
  HasenbuschRatioMonomial m(tm, tm2, solver, 2);
  m.refresh(U, 11, 5);
  expect_force_is_derivative(m, U, 1e-6);
}

// Right after the heatbath the fermion actions are |eta|^2 (minus the log det A_oo terms) without a solve
// (Monomial::action_after_refresh): equal to the solved action to the solver's tolerance, for the
// two-flavour monomial (Wilson, twisted mass, clover) and the Hasenbusch ratio (Wilson, clover), with no
// solver iteration; once a force has moved on from the refresh, asking for it is an internal error.
TEST_P(HmcTest, ActionAfterRefreshIsTheNoiseNormWithoutASolve) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  SolverParams solver;
  solver.tolerance = 1e-13;
  const auto expect_equal = [&](Monomial& m, const std::string& what) {
    SCOPED_TRACE(what);
    m.refresh(U, 11, 6);
    m.take_solver_stats();
    const double fast = m.action_after_refresh(U);
    EXPECT_EQ(m.take_solver_stats().iterations, 0) << "a solve after the refresh";
    const double solved = m.action(U);
    EXPECT_GT(m.take_solver_stats().iterations, 0);
    EXPECT_NEAR(fast, solved, 1e-10 * std::abs(solved));
    MomentumField F(geom, GetParam());
    set_zero(F);
    m.add_force(U, F);
    EXPECT_THROW(m.action_after_refresh(U), Error);
  };
  const double cases[3][2] = {{0.0, 0.0}, {0.2, 0.0}, {0.0, 1.769}};
  for (const auto& [mu, csw] : cases) {
    WilsonParams w;
    w.kappa = 0.12;
    w.mu = mu;
    TwoFlavourMonomial m(w, csw, solver, 0);
    expect_equal(m, "two-flavour, mu " + std::to_string(mu) + ", c_sw " + std::to_string(csw));
  }
  for_each_wilson_and_clover_ratio(
      solver, [&](HasenbuschRatioMonomial& m, double csw) { expect_equal(m, "ratio, c_sw " + std::to_string(csw)); });
}

std::vector<std::unique_ptr<Monomial>> gauge_and_fermion(double beta, double kappa, double tol, int gauge_level) {
  std::vector<std::unique_ptr<Monomial>> ms;
  ms.push_back(std::make_unique<GaugeMonomial>(GaugeAction::from_name("wilson", beta)));
  ms.back()->level = gauge_level;
  if (kappa > 0) {
    WilsonParams w;
    w.kappa = kappa;
    SolverParams s;
    s.tolerance = tol;
    ms.push_back(std::make_unique<TwoFlavourMonomial>(w, 0.0, s, 0));
  }
  return ms;
}

// One trajectory of gauge + Wilson (kappa 0.15) + clover Hasenbusch ratio (0.125 / 0.11) on a rough 4^4
// field, solver tolerance 1e-12, with `forecast` kept solutions and CG in `precision`.
struct ForecastRun {
  TrajectoryResult result;
  LexicographicGauge links;
};
std::vector<std::unique_ptr<Monomial>> wilson_and_ratio(int forecast, SolverPrecision precision,
                                                        double force_tolerance = 0) {
  SolverParams solver;
  solver.tolerance = 1e-12;
  solver.precision = precision;
  std::vector<std::unique_ptr<Monomial>> ms;
  ms.push_back(std::make_unique<GaugeMonomial>(GaugeAction::from_name("wilson", 5.6)));
  ms.back()->level = 1;
  WilsonParams w;
  w.kappa = 0.15;
  ms.push_back(std::make_unique<TwoFlavourMonomial>(w, 0.0, solver, 0, forecast));
  EvenOddQuark light(w, 1.2), heavy(w, 1.2);
  light.params.kappa = 0.125;
  heavy.params.kappa = 0.11;
  ms.push_back(std::make_unique<HasenbuschRatioMonomial>(light, heavy, solver, 1, forecast));
  for (auto& m : ms)
    if (auto* f = dynamic_cast<PseudofermionMonomial*>(m.get())) f->set_force_tolerance(force_tolerance);
  return ms;
}
IntegratorParams forecast_integrator() {
  IntegratorParams ip;
  ip.type = IntegratorType::Omelyan2;
  ip.tau = 0.5;
  ip.steps = {4, 2};
  return ip;
}
ForecastRun forecast_run(const GaugeField<double>& U0, int forecast, SolverPrecision precision,
                         double force_tolerance = 0) {
  GaugeField<double> U = U0.clone(U0.location());
  Hmc hmc(wilson_and_ratio(forecast, precision, force_tolerance), forecast_integrator(), 5);
  ForecastRun r{hmc.trajectory(U, 0, false), {}};
  r.links = to_lexicographic(U);
  return r;
}
double max_link_difference(const LexicographicGauge& a, const LexicographicGauge& b, std::int64_t volume) {
  double diff = 0;
  for (std::int64_t i = 0; i < volume; ++i)
    for (int mu = 0; mu < 4; ++mu) diff = std::max(diff, test::max_abs_diff(a(i, mu), b(i, mu)));
  return diff;
}

// Chronological initial guesses (hmc/chronological_guess.hpp) and single- or half-precision CG
// (corrected in double; the clover ratio's inner operator is the compressed one) change only how the solves get to their tolerance: each trajectory ends on the links and dH of
// the plain double-precision one, to the solver tolerance; the guesses save iterations (at least 20% on
// this short trajectory of 9 forces per fermion monomial; 31% measured, most of it in the final action's
// solve, which starts from the last force's solution at the same links); both stay reversible.
TEST_P(HmcTest, ForecastAndSinglePrecisionSolvesKeepTheTrajectory) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U0 = test::rough_gauge(geom, GetParam(), 17, 5.6);
  const ForecastRun plain = forecast_run(U0, 0, SolverPrecision::Double);
  const ForecastRun forecast = forecast_run(U0, 4, SolverPrecision::Double);
  const ForecastRun single = forecast_run(U0, 4, SolverPrecision::Single);
  const ForecastRun half = forecast_run(U0, 4, SolverPrecision::Half);
  const auto& it = [](const ForecastRun& r, int m) { return r.result.solver_iterations[std::size_t(m)]; };
  std::cout << "  [" << to_string(GetParam()) << "] dH " << plain.result.dH << " / " << forecast.result.dH << " / "
            << single.result.dH << " / " << half.result.dH << "; iterations (wilson, ratio): " << it(plain, 1) << ", "
            << it(plain, 2) << " plain; " << it(forecast, 1) << ", " << it(forecast, 2) << " with forecast = 4; "
            << it(single, 1) << ", " << it(single, 2) << " with it and single precision; " << it(half, 1) << ", "
            << it(half, 2) << " half\n";
  for (const ForecastRun* r : {&forecast, &single, &half}) {
    EXPECT_NEAR(r->result.dH, plain.result.dH, 1e-8 * std::abs(plain.result.H0));
    EXPECT_LT(max_link_difference(r->links, plain.links, geom.volume()), 1e-9);
  }
  for (int m = 1; m <= 2; ++m) EXPECT_LT(it(forecast, m), 0.8 * it(plain, m)) << "monomial " << m;
  Hmc hmc(wilson_and_ratio(4, SolverPrecision::Single), forecast_integrator(), 5);  // both at once
  const ReversibilityResult rev = hmc.reversibility(U0, 1);
  EXPECT_LT(std::abs(rev.dH), 1e-9 * rev.H0);
  EXPECT_LT(rev.max_link_diff, 1e-10);
}

// The force solves to a looser tolerance (solver.force_tolerance) than the action's: fewer iterations,
// the same trajectory to the bound on dH (1e-8 of H), still reversible to that bound. And the
// per-monomial force statistics: Omelyan-2 kicks 3 times per step, but a kick right after another of
// its level with no link move in between reuses that force: [4, 2] computes 1 + 2 x 4 = 9 forces on
// level 0; level 1 runs in 8 calls of 2 steps, the first computing 1 + 2 x 2 = 5, the other 7 starting
// on the links of the previous call's last kick (only a level-0 kick in between): 5 + 7 x 4 = 33.
TEST_P(HmcTest, LooserForceSolvesKeepTheTrajectoryAndTheForcesAreCounted) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U0 = test::rough_gauge(geom, GetParam(), 17, 5.6);
  const ForecastRun tight = forecast_run(U0, 4, SolverPrecision::Single);
  const ForecastRun loose = forecast_run(U0, 4, SolverPrecision::Single, 1e-7);
  const auto& it = [](const ForecastRun& r, int m) { return r.result.solver_iterations[std::size_t(m)]; };
  std::cout << "  [" << to_string(GetParam()) << "] dH " << tight.result.dH << " (force solves to 1e-12) / "
            << loose.result.dH << " (1e-7); iterations (wilson, ratio) " << it(tight, 1) << ", " << it(tight, 2)
            << " / " << it(loose, 1) << ", " << it(loose, 2) << "\n";
  EXPECT_NEAR(loose.result.dH, tight.result.dH, 1e-8 * std::abs(tight.result.H0));
  for (int m = 1; m <= 2; ++m) EXPECT_LT(it(loose, m), 0.8 * it(tight, m)) << "monomial " << m;
  Hmc hmc(wilson_and_ratio(4, SolverPrecision::Single, 1e-7), forecast_integrator(), 5);
  const ReversibilityResult rev = hmc.reversibility(U0, 1);
  EXPECT_LT(std::abs(rev.dH), 1e-8 * rev.H0);
  // The reference run's setting: half-precision CG with reliable updates, force solves to 1e-6.
  Hmc half(wilson_and_ratio(4, SolverPrecision::Half, 1e-6), forecast_integrator(), 5);
  const ReversibilityResult rev_half = half.reversibility(U0, 1);
  std::cout << "  [" << to_string(GetParam()) << "] reversibility, half precision, force solves to 1e-6: |dH| "
            << std::abs(rev_half.dH) << " (H " << rev_half.H0 << "), links " << rev_half.max_link_diff << "\n";
  EXPECT_LT(std::abs(rev_half.dH), 1e-8 * rev_half.H0);
  const TrajectoryResult& r = loose.result;
  ASSERT_EQ(r.force_evaluations.size(), 3u);
  EXPECT_EQ(r.force_evaluations[0], 33) << "gauge, level 1";
  EXPECT_EQ(r.force_evaluations[1], 9) << "wilson, level 0";
  EXPECT_EQ(r.force_evaluations[2], 9) << "ratio, level 0";
  double force_seconds = 0;
  for (std::size_t m = 0; m < 3; ++m) {
    EXPECT_GT(r.force_rms[m], 0.0) << m;
    EXPECT_GE(r.force_max_rms[m], r.force_rms[m]) << m;
    EXPECT_GE(r.force_seconds_by_monomial[m], 0.0) << m;
    force_seconds += r.force_seconds_by_monomial[m];
  }
  EXPECT_NEAR(force_seconds, r.force_seconds, 1e-9 * r.seconds);
  EXPECT_LE(r.force_seconds + r.solver_seconds, r.seconds);
}

// The guess itself: with the exact solution among the kept vectors it is that solution; with none, zero.
TEST_P(HmcTest, ChronologicalGuessIsTheBestInTheSpanOfThePastSolutions) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam(), 17, 5.6);
  WilsonParams w;
  w.kappa = 0.14;
  const auto M = EvenOddQuark(w, 0.0).schur(U);
  const NormalOperator<double> A(*M);
  std::vector<SpinorField<double>> v = test::random_fields<double>(geom, GetParam(), Subset::Even, 3, 3);
  SpinorField<double>& x = v[0];
  SpinorField<double> b = M->make_field(), g = M->make_field();
  A.apply(b, x);  // b = A x: x is the exact solution
  ChronologicalGuess chrono(3);
  chrono.guess(A, g, b);
  EXPECT_EQ(norm2(g), 0.0) << "nothing kept: zero";
  chrono.record(v[1]);  // two unrelated vectors, then x, then x again (parallel to it: left out)
  chrono.record(v[2]);
  chrono.record(x);
  chrono.record(x);
  EXPECT_EQ(chrono.kept(), 3);
  chrono.guess(A, g, b);
  axpy(Complex<double>(-1.0), x, g);
  EXPECT_LT(std::sqrt(norm2(g) / norm2(x)), 1e-10);
  EXPECT_THROW(ChronologicalGuess(17), Error);
}

TEST_P(HmcTest, IntegratorsAreReversible) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam(), 17, 5.6);
  for (IntegratorType t : {IntegratorType::Leapfrog, IntegratorType::Omelyan2, IntegratorType::Omelyan4,
                           IntegratorType::ForceGradient}) {
    IntegratorParams ip;
    ip.type = t;
    ip.tau = 0.5;
    ip.steps = {3, 2};  // fermion on level 0, gauge on level 1
    Hmc hmc(gauge_and_fermion(5.6, 0.12, 1e-14, 1), ip, 7);
    const ReversibilityResult r = hmc.reversibility(U, 1);
    std::cout << "  [" << to_string(GetParam()) << "] " << integrator_type_name(t) << ": H0 " << r.H0
              << ", |dH| after forward + backward " << std::abs(r.dH) << ", max link difference " << r.max_link_diff
              << "\n";
    EXPECT_LT(std::abs(r.dH), 1e-10 * r.H0) << integrator_type_name(t);
    EXPECT_LT(r.max_link_diff, 1e-12) << integrator_type_name(t);
  }
}

// dH of one trajectory (fixed start and momenta) against the step size: |dH| ~ h^2 (leapfrog,
// omelyan2) and h^4 (omelyan4); the slope of log|dH| against log h from a least-squares fit.
TEST_P(HmcTest, EnergyViolationScalesWithTheOrderOfTheIntegrator) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam(), 23, 5.7);
  struct Case {
    IntegratorType type;
    double order;
    std::vector<int> steps;
  };
  const Case cases[] = {{IntegratorType::Leapfrog, 2, {8, 16, 32}},
                        {IntegratorType::Omelyan2, 2, {4, 8, 16}},
                        {IntegratorType::Omelyan4, 4, {3, 6, 12}},
                        {IntegratorType::ForceGradient, 4, {4, 8, 16}}};
  for (const Case& c : cases) {
    std::vector<double> lh, ld;
    std::string line;
    for (int n : c.steps) {
      IntegratorParams ip;
      ip.type = c.type;
      ip.tau = 1.0;
      ip.steps = {n};
      Hmc hmc(gauge_and_fermion(5.7, 0.0, 0, 0), ip, 9);
      GaugeField<double> V = U.clone(GetParam());
      const TrajectoryResult r = hmc.trajectory(V, 4, false);
      lh.push_back(std::log(1.0 / n));
      ld.push_back(std::log(std::abs(r.dH)));
      line += " n=" + std::to_string(n) + ": dH=" + std::to_string(r.dH);
    }
    // least-squares slope
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < lh.size(); ++i) mx += lh[i] / lh.size(), my += ld[i] / ld.size();
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < lh.size(); ++i) sxy += (lh[i] - mx) * (ld[i] - my), sxx += (lh[i] - mx) * (lh[i] - mx);
    const double slope = sxy / sxx;
    std::cout << "  [" << to_string(GetParam()) << "] " << integrator_type_name(c.type) << ":" << line
              << "; fit |dH| ~ h^" << slope << "\n";
    EXPECT_NEAR(slope, c.order, 0.25) << integrator_type_name(c.type);
  }
}

// <exp(-dH)> = 1 (Creutz's equality) over a short pure-gauge chain, within three standard errors.
TEST_P(HmcTest, ExpMinusDeltaHAveragesToOne) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U = test::rough_gauge(geom, GetParam(), 29, 5.7);
  IntegratorParams ip;
  ip.type = IntegratorType::Omelyan2;
  ip.steps = {4};
  Hmc hmc(gauge_and_fermion(5.7, 0.0, 0, 0), ip, 13);
  std::vector<double> e;
  int accepted = 0;
  for (std::uint32_t n = 0; n < 120; ++n) {
    const TrajectoryResult r = hmc.trajectory(U, n);
    if (n >= 20) e.push_back(std::exp(-r.dH));
    accepted += r.accepted;
  }
  double mean = 0, var = 0;
  for (double x : e) mean += x / double(e.size());
  for (double x : e) var += (x - mean) * (x - mean) / double(e.size() - 1);
  const double err = std::sqrt(var / double(e.size()));
  std::cout << "  [" << to_string(GetParam()) << "] <exp(-dH)> = " << mean << " +- " << err << ", acceptance "
            << accepted / 120.0 << "\n";
  EXPECT_NEAR(mean, 1.0, 3 * err + 1e-3);
  EXPECT_GT(accepted, 60);
}

// Pure-gauge HMC samples the same distribution as the heatbath: the average plaquette of both chains
// at beta = 6.0 on 4^4 agrees within three combined standard errors (binned jackknife).
TEST_P(HmcTest, PureGaugeHmcReproducesTheHeatbathPlaquette) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeAction action = GaugeAction::from_name("wilson", 6.0);
  GaugeField<double> U(geom, GetParam());
  set_hot_gauge(U, 41);
  std::vector<double> hb, md;
  for (std::uint32_t s = 0; s < 630; ++s) {
    heatbath_sweep(U, action, 41, s);
    overrelaxation_sweep(U, action);
    if (s >= 30) hb.push_back(plaquette(U));
  }
  set_hot_gauge(U, 43);
  for (std::uint32_t s = 0; s < 20; ++s) heatbath_sweep(U, action, 43, s);  // start near equilibrium
  IntegratorParams ip;
  ip.type = IntegratorType::Omelyan2;
  ip.steps = {5};
  std::vector<std::unique_ptr<Monomial>> ms;
  ms.push_back(std::make_unique<GaugeMonomial>(action));
  Hmc hmc(std::move(ms), ip, 45);
  int accepted = 0;
  for (std::uint32_t n = 0; n < 620; ++n) {
    accepted += hmc.trajectory(U, n).accepted;
    if (n >= 20) md.push_back(plaquette(U));
  }
  const Estimate a = binned_jackknife(hb, 20), b = binned_jackknife(md, 20);
  std::cout << "  [" << to_string(GetParam()) << "] beta 6.0, 4^4: heatbath <P> = " << a.mean << " +- " << a.error
            << ", HMC <P> = " << b.mean << " +- " << b.error << " (acceptance " << accepted / 620.0 << ")\n";
  EXPECT_NEAR(a.mean, b.mean, 3 * std::sqrt(a.error * a.error + b.error * b.error));
  EXPECT_GT(a.error, 0);
  EXPECT_GT(b.error, 0);
}

// Leapfrog and Omelyan-2 chains (pure gauge, beta 5.8, 4^4), and on the GPU machine host and device
// chains, give the same average plaquette within three combined errors.
double chain_plaquette(Location loc, IntegratorType t, int steps, std::uint64_t seed, double* error) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeAction action = GaugeAction::from_name("wilson", 5.8);
  GaugeField<double> U(geom, loc);
  set_hot_gauge(U, seed);
  for (std::uint32_t s = 0; s < 20; ++s) heatbath_sweep(U, action, seed, s);
  IntegratorParams ip;
  ip.type = t;
  ip.steps = {steps};
  std::vector<std::unique_ptr<Monomial>> ms;
  ms.push_back(std::make_unique<GaugeMonomial>(action));
  Hmc hmc(std::move(ms), ip, seed);
  std::vector<double> p;
  for (std::uint32_t n = 0; n < 420; ++n) {
    hmc.trajectory(U, n);
    if (n >= 20) p.push_back(plaquette(U));
  }
  const Estimate e = binned_jackknife(p, 20);
  *error = e.error;
  return e.mean;
}

TEST(Hmc, IntegratorsAndBackendsSampleTheSameEnsemble) {
  double e1, e2;
  const double a = chain_plaquette(Location::Host, IntegratorType::Leapfrog, 8, 51, &e1);
  const double b = chain_plaquette(Location::Host, IntegratorType::Omelyan2, 4, 52, &e2);
  std::cout << "  leapfrog <P> = " << a << " +- " << e1 << ", omelyan2 <P> = " << b << " +- " << e2 << "\n";
  EXPECT_NEAR(a, b, 3 * std::hypot(e1, e2));
  if (device_available()) {
    double e3;
    const double c = chain_plaquette(Location::Device, IntegratorType::Omelyan2, 4, 53, &e3);
    std::cout << "  device omelyan2 <P> = " << c << " +- " << e3 << "\n";
    EXPECT_NEAR(b, c, 3 * std::hypot(e2, e3));
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, HmcTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// The same trajectory on host and device: dH and the links agree to rounding (gauge + Wilson; gauge +
// clover + clover Hasenbusch ratio).
// precision Half: the production setting of the reference run (half-precision inner CG with reliable
// updates on the compressed clover operator, forecasts of 4 solutions).
std::vector<std::unique_ptr<Monomial>> gauge_clover_ratio(SolverPrecision precision = SolverPrecision::Double) {
  std::vector<std::unique_ptr<Monomial>> ms;
  ms.push_back(std::make_unique<GaugeMonomial>(GaugeAction::from_name("wilson", 5.6)));
  ms.back()->level = 1;
  SolverParams s;
  s.tolerance = 1e-12;
  s.precision = precision;
  const int forecast = precision == SolverPrecision::Double ? 0 : 4;
  EvenOddQuark light{WilsonParams{}, 1.5}, heavy{WilsonParams{}, 1.5};
  light.params.kappa = 0.12;
  heavy.params.kappa = 0.10;
  ms.push_back(std::make_unique<TwoFlavourMonomial>(heavy.params, heavy.csw, s, 0, forecast));
  ms.push_back(std::make_unique<HasenbuschRatioMonomial>(light, heavy, s, 1, forecast));
  return ms;
}

TEST(Hmc, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  for (int set = 0; set < 3; ++set) {
    SCOPED_TRACE(set == 0 ? "gauge + wilson" : set == 1 ? "gauge + clover + hasenbusch ratio" : "the same, half precision");
    GaugeField<double> Uh = test::rough_gauge(geom, Location::Host, 17, 5.6);
    GaugeField<double> Ud = Uh.clone(Location::Device);
    IntegratorParams ip;
    ip.steps = {4, 2};
    auto monomials = [&] {
      return set == 0 ? gauge_and_fermion(5.6, 0.12, 1e-12, 1)
                      : gauge_clover_ratio(set == 1 ? SolverPrecision::Double : SolverPrecision::Half);
    };
    Hmc h(monomials(), ip, 3), d(monomials(), ip, 3);
    const TrajectoryResult rh = h.trajectory(Uh, 0, false), rd = d.trajectory(Ud, 0, false);
    std::cout << "  host dH " << rh.dH << ", device dH " << rd.dH << " (H0 " << rh.H0 << ")\n";
    EXPECT_NEAR(rh.H0, rd.H0, 1e-10 * std::abs(rh.H0));
    EXPECT_NEAR(rh.dH, rd.dH, 1e-7 * std::abs(rh.H0));
    const LexicographicGauge a = to_lexicographic(Uh), b = to_lexicographic(Ud);
    double diff = 0;
    for (std::int64_t i = 0; i < geom.volume(); ++i)
      for (int mu = 0; mu < 4; ++mu) diff = std::max(diff, test::max_abs_diff(a(i, mu), b(i, mu)));
    EXPECT_LT(diff, 1e-9);
  }
}

}  // namespace
}  // namespace lqcd
