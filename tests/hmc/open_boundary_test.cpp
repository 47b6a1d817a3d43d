// openQCD's open boundary conditions in time for the gauge field (gauge/time_boundary.hpp, issue 50):
//   - the action is beta times the weighted sum over the plaquettes in the lattice, from its definition
//     (a host loop over every plaquette with its own link products), with (6 N0 - 3) N1 N2 N3 of them;
//   - the gauge force is the derivative of that action at links on and next to the boundary, and the
//     frozen link U_t(x0 = T) gets none;
//   - pure-gauge HMC is reversible and keeps the frozen links zero;
//   - the quarks (dirac/quark_time_boundary.hpp): the two-flavour Wilson and clover forces (the clover F
//     traceless and, as openQCD's, with its trace) and the Hasenbusch
//     ratio's and the RHMC one-flavour monomial's are the derivatives of their actions at links on and next to
//     the boundary slices (the cut links
//     enter only through the clover leaves at x0 = 1 and T - 1); an HMC with gauge and clover quarks is
//     reversible, and its energy violation falls as dt^2;
//   - the heatbath samples the same weighted action as the HMC: the spatial plaquette on the boundary
//     slice and in the bulk agree between the two chains (c_G = 1.6, so that the boundary weight matters:
//     the boundary plaquette differs from the bulk one by many errors).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <vector>

#include "field_test_support.hpp"
#include "force_check.hpp"
#include "gauge/observables.hpp"
#include "gauge/open_boundary.hpp"
#include "gauge/updates.hpp"
#include "hmc/gauge_monomial.hpp"
#include "hmc/hasenbusch_ratio_monomial.hpp"
#include "hmc/hmc.hpp"
#include "hmc/rational_monomial.hpp"
#include "hmc/two_flavour_monomial.hpp"
#include "measure/statistics.hpp"

namespace lqcd {
namespace {

GaugeAction open_action(double beta, double c_G) {
  GaugeAction a = GaugeAction::from_name("wilson", beta);
  a.boundary = TimeBoundaryType::Open;
  a.c_G = c_G;
  return a;
}

// Lexicographic site of x (x fastest) and its neighbour along mu, periodically.
std::int64_t lex_site(const Dims& d, const int x[4]) {
  return x[0] + std::int64_t(d[0]) * (x[1] + std::int64_t(d[1]) * (x[2] + std::int64_t(d[2]) * x[3]));
}
std::int64_t lex_neighbour(const Dims& d, const int x[4], int mu) {
  int y[4] = {x[0], x[1], x[2], x[3]};
  y[mu] = (y[mu] + 1) % d[mu];
  return lex_site(d, y);
}

// Re tr U_mu(x) U_nu(x+mu) U_mu(x+nu)^dag U_nu(x)^dag / 3.
double plaquette_at(const LexicographicGauge& g, const int x[4], int mu, int nu) {
  const std::int64_t s = lex_site(g.dims, x);
  const SU3<double> p = g(s, mu) * g(lex_neighbour(g.dims, x, mu), nu) * dagger(g(lex_neighbour(g.dims, x, nu), mu)) *
                        dagger(g(s, nu));
  return trace(p).re / 3.0;
}

// The mean spatial plaquette on time slice t.
double spatial_plaquette(const GaugeField<double>& U, int t) {
  const LexicographicGauge g = to_lexicographic(U);
  double sum = 0;
  int n = 0;
  for (int z = 0; z < g.dims[2]; ++z)
    for (int y = 0; y < g.dims[1]; ++y)
      for (int xx = 0; xx < g.dims[0]; ++xx) {
        const int x[4] = {xx, y, z, t};
        for (int mu = 0; mu < 3; ++mu)
          for (int nu = mu + 1; nu < 3; ++nu, ++n) sum += plaquette_at(g, x, mu, nu);
      }
  return sum / n;
}

bool same(const SU3<double>& a, const SU3<double>& b) { return test::max_abs_diff(a, b) == 0.0; }

class OpenBoundaryTest : public ::testing::TestWithParam<Location> {};

TEST_P(OpenBoundaryTest, ActionIsTheWeightedSumOverThePlaquettesInTheLattice) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  GaugeField<double> U = test::rough_gauge(geom, GetParam());
  const GaugeAction a = open_action(5.9, 1.3);
  apply_time_boundary(U, a.time_boundary(6));
  const LexicographicGauge g = to_lexicographic(U);
  double want = 0;
  int plaquettes = 0;
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    const int x[4] = {int(s % 4), int(s / 4 % 4), int(s / 16 % 4), int(s / 64)};
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        if (nu == 3 && x[3] == 5) continue;  // through the frozen link U_t(x0 = T = 5)
        const double w = nu < 3 && (x[3] == 0 || x[3] == 5) ? 0.65 : 1.0;
        want += w * (1 - plaquette_at(g, x, mu, nu));
        ++plaquettes;
      }
  }
  EXPECT_EQ(plaquettes, (6 * 6 - 3) * 64);
  const OpenBoundaryPlaquettes p = open_boundary_plaquettes(U, a.time_boundary(6));
  EXPECT_EQ(p.count, double(plaquettes));
  EXPECT_NEAR(gauge_action_value(U, a), 5.9 * want, 1e-11 * want);
  // Every frozen link is zero, every other one untouched.
  const LexicographicGauge before = to_lexicographic(test::rough_gauge(geom, GetParam()));
  int zero = 0, changed = 0;
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const bool frozen = mu == 3 && s / 64 == 5;
      zero += frozen && same(g(s, mu), SU3<double>::zero());
      changed += !frozen && !same(g(s, mu), before(s, mu));
    }
  EXPECT_EQ(zero, 64);
  EXPECT_EQ(changed, 0);
}

// The links the force tests probe on 4^3 x 6: spatial links on both boundary slices and next to them, time
// links into and out of the boundary slices, the frozen U_t(x0 = T), and cut time links whose boundary-slice
// end is an even site (x0 = 0 at site 10; x0 = T from site 64 * 4 + 1): a hopping force wrongly taken from
// the uncut links shows only there, since the quark fields on the odd boundary sites (W, Z) vanish.
const std::vector<test::ForceProbe> kBoundaryProbes = {{5, 0, 2},       {64 * 5 + 7, 1, 4}, {64 * 1 + 3, 2, 6},
                                                        {64 * 4 + 9, 0, 1}, {64 * 4 + 2, 3, 3}, {11, 3, 5},
                                                        {64 * 5 + 13, 3, 7}, {10, 3, 2}, {64 * 4 + 1, 3, 6},
                                                        {0, 0, 1},       {64 * 5 + 2, 2, 4}};

// Omelyan's second-order integrator over tau with `steps` steps on one level.
IntegratorParams omelyan(double tau, int steps) {
  IntegratorParams ip;
  ip.type = IntegratorType::Omelyan2;
  ip.tau = tau;
  ip.steps = {steps};
  return ip;
}

TEST_P(OpenBoundaryTest, GaugeForceIsTheDerivativeOfTheAction) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  GaugeField<double> U = test::rough_gauge(geom, GetParam());
  const GaugeAction a = open_action(5.9, 1.3);
  apply_time_boundary(U, a.time_boundary(6));
  GaugeMonomial m(a);
  test::expect_force_is_derivative(m, U, 1e-6, kBoundaryProbes);
  MomentumField F(geom, GetParam());
  set_zero(F);
  m.add_force(U, F);
  const LexicographicGauge f = to_lexicographic(F);
  for (std::int64_t s = 64 * 5; s < 64 * 6; ++s) EXPECT_TRUE(same(f(s, 3), SU3<double>::zero())) << "frozen link at site " << s;
}

TEST_P(OpenBoundaryTest, HmcIsReversibleAndKeepsTheFrozenLinksZero) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  GaugeField<double> U = test::rough_gauge(geom, GetParam(), 17, 5.6);
  const GaugeAction a = open_action(5.6, 1.6);
  apply_time_boundary(U, a.time_boundary(6));
  std::vector<std::unique_ptr<Monomial>> ms;
  ms.push_back(std::make_unique<GaugeMonomial>(a));
  Hmc hmc(std::move(ms), omelyan(0.5, 4), 7);
  const ReversibilityResult r = hmc.reversibility(U, 1);
  EXPECT_LT(std::abs(r.dH), 1e-10 * r.H0);
  EXPECT_LT(r.max_link_diff, 1e-12);
  for (std::uint32_t n = 0; n < 3; ++n) hmc.trajectory(U, n, false);
  const LexicographicGauge g = to_lexicographic(U);
  for (std::int64_t s = 64 * 5; s < 64 * 6; ++s) EXPECT_TRUE(same(g(s, 3), SU3<double>::zero())) << "frozen link at site " << s;
  EXPECT_GT(unitarity(U, 1e-10).violations, 63.0);  // the 64 frozen links, and no other
  EXPECT_LT(unitarity(U, 1e-10).violations, 65.0);
}

// The quark of the tests below: open in time on N0 = 6 slices, c_F = 1.3 with the clover term.
EvenOddQuark open_quark(double kappa, double csw) {
  EvenOddQuark q{WilsonParams{}, csw};
  q.params.kappa = kappa;
  q.time = QuarkTimeBoundary{true, csw != 0 ? 1.3 : 1.0, 5};
  return q;
}

TEST_P(OpenBoundaryTest, QuarkForcesAreTheDerivativesOfTheirActions) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  GaugeField<double> U = test::rough_gauge(geom, GetParam());
  apply_time_boundary(U, open_action(5.9, 1.3).time_boundary(6));
  SolverParams solver;
  solver.tolerance = 1e-13;
  for (double csw : {0.0, 1.7}) {
    TwoFlavourMonomial m(open_quark(0.12, csw), solver, 0);
    m.refresh(U, 11, 3);
    test::expect_force_is_derivative(m, U, 1e-6, kBoundaryProbes);
  }
  // openQCD's clover term: F with its trace kept
  EvenOddQuark q = open_quark(0.12, 1.7);
  q.clover_trace_kept = true;
  TwoFlavourMonomial kept(q, solver, 0);
  kept.refresh(U, 11, 3);
  test::expect_force_is_derivative(kept, U, 1e-6, kBoundaryProbes);
  EvenOddQuark light = open_quark(0.125, 1.7), heavy = open_quark(0.11, 1.7);
  HasenbuschRatioMonomial ratio(light, heavy, solver, 1);
  ratio.refresh(U, 11, 4);
  test::expect_force_is_derivative(ratio, U, 1e-6, kBoundaryProbes);
  // one flavour by the RHMC (openQCD's strange quark with open boundaries): the heatbath's action is |eta|^2
  // and the force its derivative, also with the multi-shift CG in single precision
  for (SolverPrecision precision : {SolverPrecision::Double, SolverPrecision::Single}) {
    SolverParams p = solver;
    p.precision = precision;
    if (precision == SolverPrecision::Single) p.tolerance = 1e-12;
    const EvenOddQuark strange = open_quark(0.118, 1.7);
    RationalMonomial rational(strange, zolotarev_inverse_sqrt(10, 1e-3, 8.0), p, 2);
    rational.refresh(U, 11, 5);
    EXPECT_NEAR(rational.action(U) + strange.log_det_odd(*strange.schur(U)), rational.eta_norm2,
                1e-9 * rational.eta_norm2);
    test::expect_force_is_derivative(rational, U, 1e-6, kBoundaryProbes);
  }
}

TEST_P(OpenBoundaryTest, HmcWithCloverQuarksIsReversibleAndItsEnergyViolationFallsAsDtSquared) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  GaugeField<double> U = test::rough_gauge(geom, GetParam(), 17, 5.6);
  const GaugeAction a = open_action(5.6, 1.3);
  apply_time_boundary(U, a.time_boundary(6));
  SolverParams solver;
  solver.tolerance = 1e-13;
  const auto make = [&](int steps) {
    std::vector<std::unique_ptr<Monomial>> ms;
    ms.push_back(std::make_unique<GaugeMonomial>(a));
    ms.push_back(std::make_unique<TwoFlavourMonomial>(open_quark(0.12, 1.7), solver, 0));
    return Hmc(std::move(ms), omelyan(0.5, steps), 7);
  };
  const ReversibilityResult r = make(4).reversibility(U, 1);
  EXPECT_LT(std::abs(r.dH), 1e-8 * r.H0);
  EXPECT_LT(r.max_link_diff, 1e-10);
  double dH[2];
  for (int k = 0; k < 2; ++k) {
    GaugeField<double> V = U.clone(U.location());
    dH[k] = make(4 << k).trajectory(V, 1, false).dH;
  }
  std::printf("    dH with 4 and 8 steps: %.4e, %.4e (ratio %.2f; dt^2 gives 4)\n", dH[0], dH[1], dH[0] / dH[1]);
  EXPECT_GT(dH[0] / dH[1], 3.0);
  EXPECT_LT(dH[0] / dH[1], 5.5);
}

TEST_P(OpenBoundaryTest, HeatbathAndHmcSampleTheSameBoundary) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  const GaugeAction a = open_action(5.8, 1.6);
  const TimeBoundary b = a.time_boundary(6);
  GaugeField<double> U(geom, GetParam());
  set_hot_gauge(U, 51);
  apply_time_boundary(U, b);
  std::vector<double> hb_edge, hb_bulk, md_edge, md_bulk;
  for (std::uint32_t s = 0; s < 1020; ++s) {
    heatbath_sweep(U, a, 51, s);
    overrelaxation_sweep(U, a);
    if (s >= 20) {
      hb_edge.push_back(0.5 * (spatial_plaquette(U, 0) + spatial_plaquette(U, 5)));
      hb_bulk.push_back(spatial_plaquette(U, 2));
    }
  }
  IntegratorParams ip;
  ip.type = IntegratorType::Omelyan2;
  ip.steps = {6};
  std::vector<std::unique_ptr<Monomial>> ms;
  ms.push_back(std::make_unique<GaugeMonomial>(a));
  Hmc hmc(std::move(ms), ip, 53);
  int accepted = 0;
  for (std::uint32_t n = 0; n < 1020; ++n) {  // from the heatbath's equilibrium
    accepted += hmc.trajectory(U, n).accepted;
    if (n >= 20) {
      md_edge.push_back(0.5 * (spatial_plaquette(U, 0) + spatial_plaquette(U, 5)));
      md_bulk.push_back(spatial_plaquette(U, 2));
    }
  }
  const Estimate he = binned_jackknife(hb_edge, 50), hbk = binned_jackknife(hb_bulk, 50),
                 me = binned_jackknife(md_edge, 50), mbk = binned_jackknife(md_bulk, 50);
  std::cout << "  [" << to_string(GetParam()) << "] beta 5.8, c_G 1.6, 4^3 x 6: boundary spatial plaquette heatbath "
            << he.mean << " +- " << he.error << ", HMC " << me.mean << " +- " << me.error << "; bulk (x0 = 2) "
            << hbk.mean << " +- " << hbk.error << ", HMC " << mbk.mean << " +- " << mbk.error << " (acceptance "
            << accepted / 1020.0 << ")\n";
  EXPECT_NEAR(he.mean, me.mean, 3 * std::hypot(he.error, me.error));
  EXPECT_NEAR(hbk.mean, mbk.mean, 3 * std::hypot(hbk.error, mbk.error));
  EXPECT_GT(std::abs(he.mean - hbk.mean), 5 * std::hypot(he.error, hbk.error)) << "the boundary weight has no effect";
  EXPECT_GT(accepted, 500);
}

INSTANTIATE_TEST_SUITE_P(Locations, OpenBoundaryTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
