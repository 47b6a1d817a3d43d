// Baryon two-point functions (measure/baryon_correlator.hpp, issue 49): the charge-conjugation matrix's
// defining identity, the contraction against the Wick sum written out index by index on arbitrary
// propagators, the free nucleon, and gauge invariance on a rough field.
#include <gtest/gtest.h>

#include <cmath>

#include "core/site_random.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "gauge/updates.hpp"
#include "measure/propagator.hpp"
#include "measure/baryon_interpolators.hpp"
#include "baryon_test_support.hpp"
#include "field_test_support.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

double distance(const SpinMatrix& a, const SpinMatrix& b) {
  double d = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) d = std::max(d, std::abs(a.m[i][j].re - b.m[i][j].re) + std::abs(a.m[i][j].im - b.m[i][j].im));
  return d;
}

TEST(BaryonCorrelator, ChargeConjugationTransposesTheGammas) {
  const SpinMatrix C = charge_conjugation(), Cinv = C.dagger();
  EXPECT_LT(distance(C * Cinv, SpinMatrix::identity()), 1e-15);
  for (int mu = 0; mu < 4; ++mu) {
    SpinMatrix minus_transpose = SpinMatrix::gamma(mu).transpose();
    for (auto& row : minus_transpose.m)
      for (auto& z : row) z = -z;
    EXPECT_LT(distance(C * SpinMatrix::gamma(mu) * Cinv, minus_transpose), 1e-15) << "mu = " << mu;
  }
  // C gamma_5 is antisymmetric (the scalar diquark u^T C gamma_5 d).
  const SpinMatrix cg5 = proton().components[0][0].diquark;
  SpinMatrix sum;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) sum.m[i][j] = cg5.m[i][j] + cg5.m[j][i];
  EXPECT_LT(distance(sum, SpinMatrix{}), 1e-15);
  // C gamma_k is symmetric (the vector diquark u^T C gamma_k u of the Delta; an antisymmetric one would
  // vanish with three equal flavours).
  for (int k = 0; k < 3; ++k) {
    const SpinMatrix cgk = delta_plus_plus().components[std::size_t(k)][0].diquark;
    EXPECT_LT(distance(cgk, cgk.transpose()), 1e-15) << "k = " << k;
    EXPECT_GT(distance(cgk, SpinMatrix{}), 0.5) << "k = " << k;
  }
}

PointPropagator random_propagator(const Dims& dims, std::uint32_t stream) { return test::random_propagator(dims, stream); }

// The spectrum's channels, the neutron, and a nucleon with another projection (gamma_5 gamma_t) and
// another outer matrix (gamma_t), each against the index-by-index Wick sum on three unrelated random
// propagators for u, d and s (so that a pairing with the wrong flavour, sign or index order shows),
// at three momenta.
TEST(BaryonCorrelator, EveryChannelEqualsTheWickSumOnAnyPropagators) {
  const Dims dims{2, 2, 2, 4};
  const PointPropagator U = random_propagator(dims, 1), D = random_propagator(dims, 2), S = random_propagator(dims, 3);
  const PointPropagator* by_flavour[3] = {&U, &D, &S};
  const std::vector<std::array<int, 3>> momenta = {{0, 0, 0}, {1, 0, 0}, {0, 1, 1}};
  struct Case {
    std::string name;
    BaryonInterpolator op;
    BaryonProjection W;
  };
  std::vector<Case> cases;
  for (const BaryonChannel& c : baryon_channels())
    for (int sign : {+1, -1})
      cases.push_back({c.name, c.interpolator(),
                       c.spin_three_halves ? spin_three_halves_projection(parity_projector(sign))
                                           : spin_half_projection(parity_projector(sign))});
  cases.push_back({"neutron", neutron(), spin_half_projection(parity_projector(+1))});
  const SpinMatrix gt = SpinMatrix::gamma(3), cg5 = charge_conjugation() * SpinMatrix::gamma(kGamma5);
  cases.push_back({"nucleon g5 gt", proton(), spin_half_projection(SpinMatrix::gamma(kGamma5) * gt)});
  cases.push_back({"nucleon outer gt", spin_half_interpolator({Quark::Up, Quark::Down, Quark::Up}, cg5, gt),
                   spin_half_projection(parity_projector(+1))});
  for (const Case& c : cases) {
    const auto got = baryon_correlator({&U, &D, &S}, c.op, c.W, momenta, Complex<double>(1), "test");
    const int T = dims[3];
    std::vector<std::vector<Complex<double>>> want(momenta.size(), std::vector<Complex<double>>(std::size_t(T)));
    const SiteIndexer idx = SiteIndexer::from(U.geometry);
    for (std::int64_t i = 0; i < U.geometry.volume(); ++i) {
      int x[4];
      idx.coords_lex(i, x);
      const auto G = test::wick_reference(c.op, [&](int, Quark f, int col, int s, int cp, int sp) {
        return by_flavour[int(f)]->column[std::size_t(sp * 3 + cp)][std::size_t(i)].s[s].c[col];
      });
      const Complex<double> site = test::project(c.W, G);
      for (std::size_t k = 0; k < momenta.size(); ++k) {
        double phase = 0;
        for (int d = 0; d < 3; ++d) phase -= 2 * M_PI * momenta[k][std::size_t(d)] * (x[d] - U.source[std::size_t(d)]) / dims[d];
        want[k][std::size_t(((x[3] - U.source[3]) % T + T) % T)] += Complex<double>(std::cos(phase), std::sin(phase)) * site;
      }
    }
    for (std::size_t k = 0; k < momenta.size(); ++k)
      for (int t = 0; t < T; ++t) {
        const Complex<double> a = got[k][std::size_t(t)], b = want[k][std::size_t(t)];
        EXPECT_NEAR(a.re, b.re, 1e-11 * (1 + std::abs(b.re))) << c.name << " momentum " << k << " t " << t;
        EXPECT_NEAR(a.im, b.im, 1e-11 * (1 + std::abs(b.im))) << c.name << " momentum " << k << " t " << t;
      }
  }
}

// The nucleon with u = d = S at the given momenta.
std::vector<std::vector<Complex<double>>> nucleon(const PointPropagator& S, int parity,
                                                  const std::vector<std::array<int, 3>>& momenta) {
  return baryon_correlator({&S, &S, nullptr}, proton(), spin_half_projection(parity_projector(parity)), momenta,
                           Complex<double>(-1), "nucleon");
}

// The free nucleon (unit links, Wilson quarks of bare mass m0 = 0.5, antiperiodic in time, T = 48 so
// that the backward-running partner is negligible): the positive-parity correlator is positive and falls
// as three quarks at rest, E = 3 log(1 + m0) (the free Wilson quark's energy at p = 0), once the states
// with moving quarks have died out. Measured: m_eff(t) - 3E = 2.1e-2, 4.8e-3, 1.2e-3, ... falling by ~4
// per step, 4.7e-6 at t = 10; the negative-parity projection is ~1e-5 of it there. A wrong projector
// (negative), a wrong quark count or a quark of another mass fails, and so does the parity relation below
// without the boundary phase.
TEST(BaryonCorrelator, FreeNucleonIsThreeQuarksAtRest) {
  const Dims dims{4, 4, 4, 48};
  const Geometry geom = Geometry::single_process(dims);
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  FermionParams f;
  const double m0 = 0.5;
  f.wilson.kappa = 1 / (2 * (4 + m0));
  const DiracOperators D = make_dirac_operators(U, f);
  PropagatorOptions o;
  o.solver.tolerance = 1e-13;
  SourceSpec point;
  point.position = {1, 2, 3, 4};
  const PointPropagator S = compute_propagator(D, true, point, o);
  const auto plus = nucleon(S, +1, {{0, 0, 0}})[0], minus = nucleon(S, -1, {{0, 0, 0}})[0];
  const double E = 3 * std::log(1 + m0);
  for (int t = 1; t <= 12; ++t) {
    const double c = plus[std::size_t(t)].re, next = plus[std::size_t(t) + 1].re;
    std::printf("    t %2d: C+ = %.10e, C- = %.3e, m_eff - 3E = %.2e\n", t, c, minus[std::size_t(t)].re,
                std::log(c / next) - E);
    EXPECT_GT(c, 0) << "t = " << t;
    EXPECT_LT(std::abs(plus[std::size_t(t)].im), 1e-12 * c) << "t = " << t;
  }
  EXPECT_NEAR(std::log(plus[10].re / plus[11].re), E, 1e-5);
  // Time reflection exchanges the parity projections: C+(t) = -C-(T - t) on a time-symmetric field (the
  // free one), with the boundary phase on the slices before the source (measured: equal to 1e-16 relative).
  for (int t = 1; t < dims[3]; ++t)
    EXPECT_NEAR(plus[std::size_t(t)].re, -minus[std::size_t(dims[3] - t)].re, 1e-12 * plus[1].re) << "t = " << t;
}

// Gauge invariance on a rough field: the propagators on U and on a random gauge transform of it differ by
// the transformation at the sink and the source, which the colour epsilons (det g = 1) remove from every
// baryon correlator, at every momentum and for either projector. A contraction that paired colours
// other than through eps_abc eps_a'b'c' would differ by O(1). Every channel of lqcd spectrum, with a
// strange quark of another mass.
TEST(BaryonCorrelator, EveryChannelUnchangedByARandomGaugeTransformation) {
  const Dims dims{4, 4, 4, 8};
  const Geometry geom = Geometry::single_process(dims);
  GaugeField<double> U = test::rough_gauge(geom, Location::Host);
  GaugeField<double> Ug = U.clone(Location::Host);
  random_gauge_transformation(Ug, 99);
  PropagatorOptions o;
  o.solver.tolerance = 1e-13;
  SourceSpec point;
  point.position = {2, 1, 0, 3};
  const auto solve = [&](const GaugeField<double>& V, double kappa) {
    FermionParams f;
    f.wilson.kappa = kappa;
    return compute_propagator(make_dirac_operators(V, f), true, point, o);
  };
  const PointPropagator L = solve(U, 0.11), Lg = solve(Ug, 0.11), S = solve(U, 0.1), Sg = solve(Ug, 0.1);
  const std::vector<std::array<int, 3>> momenta = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}};
  for (const BaryonChannel& c : baryon_channels())
    for (int sign : {+1, -1}) {
      const BaryonProjection W = c.spin_three_halves ? spin_three_halves_projection(parity_projector(sign))
                                                     : spin_half_projection(parity_projector(sign));
      const auto a = baryon_correlator({&L, &L, &S}, c.interpolator(), W, momenta, Complex<double>(-1), "a");
      const auto b = baryon_correlator({&Lg, &Lg, &Sg}, c.interpolator(), W, momenta, Complex<double>(-1), "b");
      for (std::size_t k = 0; k < momenta.size(); ++k)
        for (std::size_t t = 0; t < a[k].size(); ++t) {
          double scale = 0;  // the slice's largest entry
          for (const auto& ak : a) scale = std::max({scale, std::abs(ak[t].re), std::abs(ak[t].im)});
          ASSERT_GT(scale, 0) << c.name;
          EXPECT_NEAR(a[k][t].re, b[k][t].re, 1e-10 * scale) << c.name << " parity " << sign << " p " << k << " t " << t;
          EXPECT_NEAR(a[k][t].im, b[k][t].im, 1e-10 * scale) << c.name << " parity " << sign << " p " << k << " t " << t;
        }
    }
}

// Acceptance of issue 49: the free nucleon and Delta from momentum-space sums. With S(x) = (1/V_s)
// sum_k e^{i k.(x - x0)} S(t, k), the projection sum_x e^{-i p.(x - x0)} keeps k_a + k_b + k_c = p:
//   C(t, p) = (1 / V_s^2) sum_{k_a, k_b} W(S(t, k_a), S(t, k_b), S(t, p - k_a - k_b)),
// W the index-by-index Wick sum with the momenta attached to the sink's three quarks. Both parities, at
// rest and moving, and on the time slices before the source's, reached across the antiperiodic boundary
// (the reference's S(t) is the propagator from a source at t = 0: baryon_correlator's boundary phase).
// The solver's propagator (tolerance 1e-14) and the contraction reproduce it to 1e-12 of C(0); without
// the boundary phase the wrapped slices have the wrong sign.
void expect_free_momentum_sum(const Dims& dims, const BaryonChannel& channel,
                              const std::vector<std::array<int, 3>>& momenta) {
  const double m0 = 0.3;
  const Geometry geom = Geometry::single_process(dims);
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  FermionParams f;
  f.wilson.kappa = 1 / (2 * (4 + m0));
  PropagatorOptions o;
  o.solver.tolerance = 1e-14;
  SourceSpec point;
  point.position = {1, 1, 1, 2};
  const PointPropagator S = compute_propagator(make_dirac_operators(U, f), true, point, o);
  const double vs = double(dims[0]) * dims[1] * dims[2];
  const BaryonInterpolator op = channel.interpolator();
  std::array<std::vector<std::vector<Complex<double>>>, 2> got;
  std::array<BaryonProjection, 2> W;
  for (int k = 0; k < 2; ++k) {
    const SpinMatrix P = parity_projector(k == 0 ? +1 : -1);
    W[std::size_t(k)] = channel.spin_three_halves ? spin_three_halves_projection(P) : spin_half_projection(P);
    got[std::size_t(k)] = baryon_correlator({&S, &S, &S}, op, W[std::size_t(k)], momenta, Complex<double>(-1), "free");
  }
  for (int t = 0; t < dims[3]; ++t) {
    // The free quarks at time t for every spatial momentum, once.
    std::vector<SpinMatrix> q;
    for (int k2 = 0; k2 < dims[2]; ++k2)
      for (int k1 = 0; k1 < dims[1]; ++k1)
        for (int k0 = 0; k0 < dims[0]; ++k0) q.push_back(test::free_quark(dims, m0, {k0, k1, k2}, t));
    const auto at = [&](int k0, int k1, int k2) {
      const auto wrap = [](int k, int L) { return ((k % L) + L) % L; };
      return q[std::size_t(wrap(k0, dims[0]) + dims[0] * (wrap(k1, dims[1]) + dims[1] * wrap(k2, dims[2])))];
    };
    for (std::size_t m = 0; m < momenta.size(); ++m) {
      std::array<Complex<double>, 2> want{};
      for (int a2 = 0; a2 < dims[2]; ++a2)
        for (int a1 = 0; a1 < dims[1]; ++a1)
          for (int a0 = 0; a0 < dims[0]; ++a0)
            for (int b2 = 0; b2 < dims[2]; ++b2)
              for (int b1 = 0; b1 < dims[1]; ++b1)
                for (int b0 = 0; b0 < dims[0]; ++b0) {
                  const auto& p = momenta[m];
                  const SpinMatrix slot[3] = {at(a0, a1, a2), at(b0, b1, b2), at(p[0] - a0 - b0, p[1] - a1 - b1, p[2] - a2 - b2)};
                  const auto G = test::wick_reference(op, [&](int k, Quark, int c, int s, int cp, int sp) {
                    return c == cp ? slot[k].m[s][sp] : Complex<double>{};
                  });
                  for (std::size_t par = 0; par < 2; ++par) want[par] += test::project(W[par], G);
                }
      for (std::size_t par = 0; par < 2; ++par) {
        const Complex<double> w = want[par] * (1 / (vs * vs)), g = got[par][m][std::size_t(t)];
        const double scale = std::abs(got[0][0][0].re);
        EXPECT_NEAR(g.re, w.re, 1e-12 * scale) << channel.name << " parity " << par << " p " << m << " t " << t;
        EXPECT_NEAR(g.im, w.im, 1e-12 * scale) << channel.name << " parity " << par << " p " << m << " t " << t;
      }
    }
  }
}

const BaryonChannel& channel(const std::string& name) {
  for (const BaryonChannel& c : baryon_channels())
    if (c.name == name) return c;
  throw Error("no channel " + name);
}

TEST(BaryonCorrelator, FreeNucleonEqualsItsMomentumSpaceSum) {
  expect_free_momentum_sum({2, 4, 2, 6}, channel("nucleon"), {{0, 0, 0}, {0, 1, 0}, {1, 3, 1}});
}

TEST(BaryonCorrelator, FreeDeltaEqualsItsMomentumSpaceSum) {
  expect_free_momentum_sum({2, 2, 2, 6}, channel("delta"), {{0, 0, 0}, {1, 0, 1}});
}

}  // namespace
}  // namespace lqcd
