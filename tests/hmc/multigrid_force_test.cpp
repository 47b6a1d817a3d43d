// The multigrid in the HMC force solves (hmc/multigrid_force_solver.hpp): its X is the CG solution of
// the normal equations, the force built on it is the derivative of the action, a trajectory with it is
// the trajectory with CG (to the solver tolerance) and reversible, the setup runs once and is refreshed
// once per later trajectory, and quarks it cannot serve are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "field_test_support.hpp"
#include "force_check.hpp"
#include "hmc/gauge_monomial.hpp"
#include "hmc/hasenbusch_ratio_monomial.hpp"
#include "hmc/hmc.hpp"
#include "hmc/multigrid_force_solver.hpp"
#include "hmc/two_flavour_monomial.hpp"
#include "solvers/solver.hpp"

namespace lqcd {
namespace {

// A small multigrid for 4^4: 2^4 blocks (a 2^4 coarse lattice), 6 test vectors, MR smoothing.
HmcMultigridParams small_multigrid() {
  HmcMultigridParams p;
  p.multigrid.block = {2, 2, 2, 2};
  p.multigrid.test_vectors = 6;
  p.multigrid.setup_iterations = 5;
  p.multigrid.adaptive_cycles = 1;
  p.multigrid.smoother = MultigridSmoother::MR;
  p.multigrid.post_smoothing = 4;
  p.refresh_iterations = 2;
  p.refresh_growth = 0;  // refreshed at trajectory starts only (the tests count the setups)
  return p;
}

class MultigridForceTest : public ::testing::TestWithParam<Location> {};

// X = (M_hat^dag M_hat)^{-1} b from the two multigrid solves equals CG on the normal equations, for
// Wilson and clover quarks; with a forecast the second solve of nearby links starts from the first's X.
TEST_P(MultigridForceTest, SolutionIsTheNormalEquationsSolution) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam(), 17, 5.6);
  for (const double csw : {0.0, 1.2}) {
    SCOPED_TRACE(csw);
    WilsonParams w;
    w.kappa = 0.124;
    const EvenOddQuark q(w, csw);
    const auto M = q.schur(U);
    std::vector<SpinorField<double>> sources = test::random_fields<double>(geom, GetParam(), Subset::Even, 1, 7);
    const SpinorField<double>& b = sources[0];
    SolverParams p;
    p.tolerance = 1e-11;
    MultigridForceSolver mg(q, small_multigrid());
    Monomial::SolverStats stats;
    ChronologicalGuess forecast(2);
    const SpinorField<double> X = mg.solve(U, *M, b, p, stats, "test", &forecast);
    SpinorField<double> X_cg = M->make_field();
    set_zero(X_cg);
    SolverParams cg = p;
    cg.tolerance = 1e-13;
    (void)solve_hermitian(NormalOperator<double>(*M), X_cg, b, cg);
    SpinorField<double> d = X.clone(X.location());
    axpy(Complex<double>(-1.0), X_cg, d);
    // Each solve to 1e-11: X to about the condition number of M_hat times that.
    EXPECT_LT(std::sqrt(norm2(d) / norm2(X_cg)), 1e-8);
    EXPECT_GT(stats.iterations, 0);
    EXPECT_EQ(mg.setups(), 1);
    const long first = stats.iterations;
    // The same b again with the first X kept: the guess is the solution, (almost) no iterations.
    Monomial::SolverStats again;
    (void)mg.solve(U, *M, b, p, again, "test", &forecast);
    std::cout << "  [" << to_string(GetParam()) << "] csw " << csw << ": outer iterations " << first
              << " from zero, " << again.iterations << " from the forecast\n";
    EXPECT_LT(again.iterations, first / 2 + 1);
    EXPECT_EQ(mg.setups(), 1) << "no new trajectory: no refresh";
    mg.new_trajectory();
    (void)mg.solve(U, *M, b, p, again, "test", nullptr);
    EXPECT_EQ(mg.setups(), 2) << "a new trajectory refreshes the setup";
  }
}

// refresh_growth: a solve that takes more than g times the fewest iterations since the last refresh makes
// the next solve refresh, inside a trajectory; 0 never does.
TEST_P(MultigridForceTest, RefreshGrowthRefreshesInsideATrajectory) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam(), 17, 5.6);
  WilsonParams w;
  w.kappa = 0.124;
  const EvenOddQuark q(w, 1.2);
  const auto M = q.schur(U);
  const std::vector<SpinorField<double>> b = test::random_fields<double>(geom, GetParam(), Subset::Even, 1, 7);
  SolverParams p;
  p.tolerance = 1e-11;
  for (const double growth : {0.0, 1.0}) {
    SCOPED_TRACE(growth);
    HmcMultigridParams mp = small_multigrid();
    mp.refresh_growth = growth;
    MultigridForceSolver mg(q, mp);
    Monomial::SolverStats stats;
    ChronologicalGuess forecast(2);
    (void)mg.solve(U, *M, b[0], p, stats, "test", &forecast);  // setup; from zero
    (void)mg.solve(U, *M, b[0], p, stats, "test", &forecast);  // from the solution: the fewest so far
    EXPECT_EQ(mg.setups(), 1);
    (void)mg.solve(U, *M, b[0], p, stats, "test", nullptr);  // from zero again: more than the fewest
    EXPECT_EQ(mg.setups(), 1) << "the refresh comes before the next solve";
    (void)mg.solve(U, *M, b[0], p, stats, "test", nullptr);
    EXPECT_EQ(mg.setups(), growth > 0 ? 2 : 1);
  }
}

TEST_P(MultigridForceTest, ForceIsTheDerivativeOfTheAction) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  SolverParams solver;
  solver.tolerance = 1e-13;
  for (const double csw : {0.0, 1.769}) {
    WilsonParams w;
    w.kappa = 0.12;
    TwoFlavourMonomial m(w, csw, solver, 0);
    m.use_multigrid(small_multigrid());
    m.refresh(U, 11, 3);
    test::expect_force_is_derivative(m, U, 1e-6);
    ASSERT_NE(m.multigrid(), nullptr);
    EXPECT_EQ(m.multigrid()->setups(), 1);
  }
  EvenOddQuark light, heavy;
  light.params.kappa = 0.12;
  heavy.params.kappa = 0.10;
  light.csw = heavy.csw = 1.5;
  HasenbuschRatioMonomial ratio(light, heavy, solver, 1);
  ratio.use_multigrid(small_multigrid());
  ratio.refresh(U, 11, 4);
  test::expect_force_is_derivative(ratio, U, 1e-6);
}

// Gauge + a clover Hasenbusch pair: the heavy quark (kappa 0.11) and the ratio light / heavy (0.125 /
// 0.11), both with force solves to 1e-10 from a forecast of 3, by the multigrid or by CG in single
// precision (the action at the trajectory's end by the same solver): the same trajectory to the solver
// tolerance; with the multigrid, reversible to 1e-8 of H.
std::vector<std::unique_ptr<Monomial>> clover_pair(bool multigrid) {
  SolverParams solver;
  solver.tolerance = 1e-12;
  solver.precision = SolverPrecision::Single;
  std::vector<std::unique_ptr<Monomial>> ms;
  ms.push_back(std::make_unique<GaugeMonomial>(GaugeAction::from_name("wilson", 5.6)));
  ms.back()->level = 1;
  WilsonParams w;
  w.kappa = 0.11;
  auto heavy = std::make_unique<TwoFlavourMonomial>(w, 1.2, solver, 0, 3);
  EvenOddQuark light(w, 1.2), heavy_quark(w, 1.2);
  light.params.kappa = 0.125;
  auto ratio = std::make_unique<HasenbuschRatioMonomial>(light, heavy_quark, solver, 1, 3);
  for (PseudofermionMonomial* f : {static_cast<PseudofermionMonomial*>(heavy.get()),
                                   static_cast<PseudofermionMonomial*>(ratio.get())}) {
    f->set_force_tolerance(1e-10);
    if (multigrid) f->use_multigrid(small_multigrid());
  }
  ms.push_back(std::move(heavy));
  ms.push_back(std::move(ratio));
  return ms;
}

TEST_P(MultigridForceTest, TrajectoryIsTheCgTrajectoryAndReversible) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U0 = test::rough_gauge(geom, GetParam(), 17, 5.6);
  IntegratorParams ip;
  ip.type = IntegratorType::Omelyan2;
  ip.tau = 0.5;
  ip.steps = {4, 2};
  GaugeField<double> U_cg = U0.clone(U0.location()), U_mg = U0.clone(U0.location());
  Hmc cg(clover_pair(false), ip, 5), mg(clover_pair(true), ip, 5);
  const TrajectoryResult a = cg.trajectory(U_cg, 0, false);
  const TrajectoryResult b = mg.trajectory(U_mg, 0, false);
  std::cout << "  [" << to_string(GetParam()) << "] dH " << a.dH << " (CG) / " << b.dH
            << " (multigrid); iterations (heavy, ratio) " << a.solver_iterations[1] << ", " << a.solver_iterations[2]
            << " / " << b.solver_iterations[1] << ", " << b.solver_iterations[2]
            << " (outer GCR, and the ratio's heatbath CG)\n";
  EXPECT_NEAR(b.dH, a.dH, 1e-8 * std::abs(a.H0));
  // Two multigrid solves per force and two for the action at the trajectory's end (the start's needs
  // none); none with CG.
  for (std::size_t k = 1; k <= 2; ++k) {
    EXPECT_EQ(b.multigrid_solves[k], 2 * b.force_evaluations[k] + 2) << k;
    EXPECT_GT(b.multigrid_iterations[k], 0) << k;
    EXPECT_EQ(a.multigrid_solves[k], 0) << k;
  }
  const LexicographicGauge la = to_lexicographic(U_cg), lb = to_lexicographic(U_mg);
  double diff = 0;
  for (std::int64_t i = 0; i < geom.volume(); ++i)
    for (int mu = 0; mu < 4; ++mu) diff = std::max(diff, test::max_abs_diff(la(i, mu), lb(i, mu)));
  EXPECT_LT(diff, 1e-8);
  const ReversibilityResult rev = mg.reversibility(U0, 1);
  EXPECT_LT(std::abs(rev.dH), 1e-8 * rev.H0);
  EXPECT_LT(rev.max_link_diff, 1e-9);
}

TEST(MultigridForce, RefusesWhatItCannotServe) {
  WilsonParams tm;
  tm.kappa = 0.12;
  tm.mu = 0.05;
  SolverParams solver;
  TwoFlavourMonomial twisted(tm, 0.0, solver, 0);
  try {
    twisted.use_multigrid(small_multigrid());
    ADD_FAILURE() << "twisted mass accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mu = 0"), std::string::npos) << e.what();
  }
  HmcMultigridParams bad = small_multigrid();
  bad.refresh_iterations = -1;
  WilsonParams w;
  w.kappa = 0.12;
  TwoFlavourMonomial wilson(w, 0.0, solver, 0);
  EXPECT_THROW(wilson.use_multigrid(bad), Error);
  bad = small_multigrid();
  bad.refresh_growth = 0.5;
  EXPECT_THROW(wilson.use_multigrid(bad), Error);
  bad = small_multigrid();
  bad.multigrid.test_vectors = 0;
  EXPECT_THROW(wilson.use_multigrid(bad), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, MultigridForceTest, ::testing::ValuesIn(test::locations()),
                         [](const ::testing::TestParamInfo<Location>& info) { return to_string(info.param); });

}  // namespace
}  // namespace lqcd
