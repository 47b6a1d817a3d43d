// Monomials on stout-smearing links (hmc/smeared_fermion_monomial.hpp): the force is the derivative of
// the action for the plaquette action of the smeared links (a nonlinear function of V with a known
// force, no solver), the two-flavour clover monomial and a Hasenbusch ratio; the decorator forwards the
// solver statistics and names the smearing; an HMC trajectory with smeared fermions is reversible and
// its energy violation falls with the step size as a second-order integrator's must.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <vector>

#include "field_test_support.hpp"
#include "force_check.hpp"
#include "hmc/gauge_monomial.hpp"
#include "hmc/hasenbusch_ratio_monomial.hpp"
#include "hmc/hmc.hpp"
#include "hmc/smeared_fermion_monomial.hpp"
#include "hmc/two_flavour_monomial.hpp"

namespace lqcd {
namespace {

using test::expect_force_is_derivative;

class SmearedMonomialTest : public ::testing::TestWithParam<Location> {};

// S = Wilson plaquette action of V = stout^n(U): the decorator takes any monomial; the gauge monomial's
// own force (checked in hmc_test.cpp) is F_V.
TEST_P(SmearedMonomialTest, PlaquetteActionOfSmearedLinksIsDifferentiatedExactly) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  for (const StoutParams prm : {StoutParams{0.1, 1, false}, StoutParams{0.15, 3, false}, StoutParams{0.12, 2, true}}) {
    SmearedFermionMonomial m(std::make_unique<GaugeMonomial>(GaugeAction::from_name("symanzik", 5.6)), prm);
    expect_force_is_derivative(m, U, 1e-6);
  }
}

TEST_P(SmearedMonomialTest, CloverForceIsTheDerivativeOfTheAction) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  SolverParams solver;
  solver.tolerance = 1e-13;
  WilsonParams w;
  w.kappa = 0.12;
  SmearedFermionMonomial m(std::make_unique<TwoFlavourMonomial>(w, 1.769, solver, 0), {0.1, 2, false});
  m.refresh(U, 11, 3);
  // The action after the refresh without a solve, its log det A_oo at the smeared links as the solved one's.
  const double solved = m.action(U);
  EXPECT_NEAR(m.action_after_refresh(U), solved, 1e-10 * std::abs(solved));
  expect_force_is_derivative(m, U, 1e-6);
  const Monomial::SolverStats s = m.take_solver_stats();  // the inner monomial's solves, forwarded
  EXPECT_GT(s.iterations, 0);
  EXPECT_EQ(m.take_solver_stats().iterations, 0);
}

TEST_P(SmearedMonomialTest, HasenbuschRatioForceIsTheDerivativeOfTheAction) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  SolverParams solver;
  solver.tolerance = 1e-13;
  EvenOddQuark light, heavy;
  light.params.kappa = 0.12;
  heavy.params.kappa = 0.10;
  light.csw = heavy.csw = 1.5;
  SmearedFermionMonomial m(std::make_unique<HasenbuschRatioMonomial>(light, heavy, solver, 1), {0.1, 2, false});
  m.refresh(U, 11, 4);
  expect_force_is_derivative(m, U, 1e-6);
}

// The pseudofermion heatbath runs at V, so the action right after it is eta^dag eta, as for the unsmeared
// monomial at U with the same noise (the noise does not depend on the links); had the decorator drawn
// phi at U, its action at V would differ by as much as the thin monomial's action at V does.
TEST_P(SmearedMonomialTest, HeatbathAtTheSmearedLinks) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam());
  SolverParams solver;
  solver.tolerance = 1e-13;
  WilsonParams w;
  w.kappa = 0.12;
  TwoFlavourMonomial thin(w, 0.0, solver, 0);
  SmearedFermionMonomial smeared(std::make_unique<TwoFlavourMonomial>(w, 0.0, solver, 0), {0.1, 2, false});
  thin.refresh(U, 5, 1);
  smeared.refresh(U, 5, 1);
  const double s_thin = thin.action(U), s_smeared = smeared.action(U);
  EXPECT_NEAR(s_smeared, s_thin, 1e-9 * s_thin);
  const GaugeField<double> V = stout_smear(U, {0.1, 2, false});
  EXPECT_GT(std::abs(thin.action(V) - s_thin), 1e-3 * s_thin);
}

TEST(SmearedMonomial, NameStatesTheSmearingAndBadParametersAreRefused) {
  SolverParams solver;
  WilsonParams w;
  w.kappa = 0.125;
  SmearedFermionMonomial m(std::make_unique<TwoFlavourMonomial>(w, 0.0, solver, 0), {0.125, 2, false});
  const std::string inner = TwoFlavourMonomial(w, 0.0, solver, 0).name();
  EXPECT_EQ(m.name(), inner + " on 2 stout steps (rho 0.125)");
  EXPECT_EQ(&innermost(m), &m.inner());
  EXPECT_THROW(SmearedFermionMonomial(std::make_unique<TwoFlavourMonomial>(w, 0.0, solver, 0), {-0.1, 1, false}),
               Error);
}

std::vector<std::unique_ptr<Monomial>> gauge_and_smeared_wilson(const StoutParams& prm) {
  std::vector<std::unique_ptr<Monomial>> ms;
  ms.push_back(std::make_unique<GaugeMonomial>(GaugeAction::from_name("wilson", 5.6)));
  ms.back()->level = 1;
  WilsonParams w;
  w.kappa = 0.12;
  SolverParams s;
  s.tolerance = 1e-14;
  ms.push_back(std::make_unique<SmearedFermionMonomial>(std::make_unique<TwoFlavourMonomial>(w, 0.0, s, 0), prm));
  ms.back()->level = 0;
  return ms;
}

TEST_P(SmearedMonomialTest, TrajectoryIsReversible) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = test::rough_gauge(geom, GetParam(), 17, 5.6);
  IntegratorParams ip;
  ip.tau = 0.5;
  ip.steps = {3, 2};
  Hmc hmc(gauge_and_smeared_wilson({0.1, 2, false}), ip, 7);
  const ReversibilityResult r = hmc.reversibility(U, 1);
  std::cout << "  [" << to_string(GetParam()) << "] smeared Wilson fermions: H0 " << r.H0 << ", |dH| "
            << std::abs(r.dH) << ", max link difference " << r.max_link_diff << "\n";
  EXPECT_LT(std::abs(r.dH), 1e-10 * r.H0);
  EXPECT_LT(r.max_link_diff, 1e-12);
}

// A wrong force would leave dH of order tau times the error whatever the step; with the right one
// dH falls as h^2 (Omelyan-2): 4 -> 8 steps divides it by about 4.
TEST(SmearedMonomial, EnergyViolationFallsAsTheSquareOfTheStep) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U0 = test::rough_gauge(geom, Location::Host, 19, 5.6);
  double dh[2];
  for (int k = 0; k < 2; ++k) {
    IntegratorParams ip;
    ip.tau = 1.0;
    ip.steps = {4 << k, 2};
    Hmc hmc(gauge_and_smeared_wilson({0.125, 2, false}), ip, 9);
    GaugeField<double> U = U0.clone(Location::Host);
    dh[k] = hmc.trajectory(U, 1, false).dH;
  }
  std::cout << "  |dH| with 4 and 8 outer steps: " << std::abs(dh[0]) << ", " << std::abs(dh[1]) << "\n";
  EXPECT_GT(std::abs(dh[0] / dh[1]), 2.5);
  EXPECT_LT(std::abs(dh[0] / dh[1]), 6.5);
}

INSTANTIATE_TEST_SUITE_P(Backends, SmearedMonomialTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
