// Baryon two-point functions (measure/baryon_correlator.hpp, issue 49): the charge-conjugation matrix's
// defining identity, the contraction against the Wick sum written out index by index on arbitrary
// propagators, the free nucleon, and gauge invariance on a rough field.
#include <gtest/gtest.h>

#include <cmath>

#include "core/site_random.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "gauge/updates.hpp"
#include "measure/propagator.hpp"
#include "measure/baryon_correlator.hpp"
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
  const SpinMatrix cg5 = BaryonInterpolator::nucleon().diquark;
  SpinMatrix sum;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) sum.m[i][j] = cg5.m[i][j] + cg5.m[j][i];
  EXPECT_LT(distance(sum, SpinMatrix{}), 1e-15);
}

PointPropagator random_propagator(const Dims& dims, std::uint32_t stream) {
  PointPropagator S;
  S.geometry = Geometry::single_process(dims);
  S.source = {1, 0, 1, 2};
  const std::int64_t v = std::int64_t(dims[0]) * dims[1] * dims[2] * dims[3];
  for (int col = 0; col < 12; ++col) {
    S.column[std::size_t(col)].resize(std::size_t(v));
    for (std::int64_t i = 0; i < v; ++i) {
      SiteRandom rng(5, std::uint64_t(i), RngPurpose::Test, stream * 16 + std::uint32_t(col), 0);
      for (auto& s : S.column[std::size_t(col)][std::size_t(i)].s)
        for (auto& z : s.c) {
          z.re = rng.gaussian();
          z.im = rng.gaussian();
        }
    }
  }
  return S;
}

int epsilon(int a, int b, int c) {
  if (a == b || b == c || a == c) return 0;
  return (a == 0 && b == 1) || (a == 1 && b == 2) || (a == 2 && b == 0) ? 1 : -1;
}

// tr[P <O Obar>] by Wick's theorem index by index: sink quarks (q, r, q) at (a rho), (b sigma), (c gamma),
// source antiquarks at (a' rho'), (b' sigma'), (c' gamma'); `pairings` gives the product of the
// propagators of both pairings that join equal flavours, each with the sign of its permutation of the
// antiquarks, for one set of indices.
template <typename Pairings>
Complex<double> wick_sum(const BaryonInterpolator& op, const SpinMatrix& P, const Pairings& pairings) {
  const SpinMatrix gt = SpinMatrix::gamma(3);
  const SpinMatrix ghat = gt * op.diquark.dagger() * gt.transpose(), ghat2 = gt * op.outer.dagger() * gt;
  Complex<double> tr{};
  for (int al = 0; al < 4; ++al)
    for (int be = 0; be < 4; ++be) {
      if (P.m[be][al].re == 0 && P.m[be][al].im == 0) continue;
      Complex<double> g{};
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          for (int c = 0; c < 3; ++c)
            for (int ap = 0; ap < 3; ++ap)
              for (int bp = 0; bp < 3; ++bp)
                for (int cp = 0; cp < 3; ++cp) {
                  const int e = epsilon(a, b, c) * epsilon(ap, bp, cp);
                  if (e == 0) continue;
                  for (int rho = 0; rho < 4; ++rho)
                    for (int sig = 0; sig < 4; ++sig)
                      for (int gam = 0; gam < 4; ++gam)
                        for (int rp = 0; rp < 4; ++rp)
                          for (int sp = 0; sp < 4; ++sp)
                            for (int gp = 0; gp < 4; ++gp) {
                              const Complex<double> w = op.diquark.m[rho][sig] * op.outer.m[al][gam] *
                                                        ghat.m[sp][rp] * ghat2.m[gp][be];
                              if (w.re == 0 && w.im == 0) continue;
                              g += double(e) * w * pairings(a, b, c, ap, bp, cp, rho, sig, gam, rp, sp, gp);
                            }
                }
      tr += P.m[be][al] * g;
    }
  return tr;
}

// The Wick sum at box site x of two propagators.
Complex<double> wick_trace(const PointPropagator& Q, const PointPropagator& R, const BaryonInterpolator& op,
                           const SpinMatrix& P, std::size_t x) {
  const auto S = [&](const PointPropagator& F, int c, int s, int cp, int sp) {
    return F.column[std::size_t(sp * 3 + cp)][x].s[s].c[c];
  };
  return wick_sum(op, P, [&](int a, int b, int c, int ap, int bp, int cp, int rho, int sig, int gam, int rp, int sp,
                             int gp) {
    return S(R, b, sig, bp, sp) *
           (S(Q, a, rho, ap, rp) * S(Q, c, gam, cp, gp) - S(Q, a, rho, cp, gp) * S(Q, c, gam, ap, rp));
  });
}

TEST(BaryonCorrelator, EqualsTheWickSumOnAnyPropagators) {
  const Dims dims{2, 2, 2, 4};
  const PointPropagator Q = random_propagator(dims, 1), R = random_propagator(dims, 2);
  const std::vector<std::array<int, 3>> momenta = {{0, 0, 0}, {1, 0, 0}, {0, 1, 1}};
  const SpinMatrix gt = SpinMatrix::gamma(3);
  for (const SpinMatrix& P : {parity_projector(+1), parity_projector(-1), SpinMatrix::gamma(kGamma5) * gt}) {
    const auto got = baryon_correlator(Q, R, BaryonInterpolator::nucleon(), P, momenta, Complex<double>(1));
    const int T = dims[3];
    std::vector<std::vector<Complex<double>>> want(momenta.size(), std::vector<Complex<double>>(std::size_t(T)));
    const SiteIndexer idx = SiteIndexer::from(Q.geometry);
    for (std::int64_t i = 0; i < Q.geometry.volume(); ++i) {
      int x[4];
      idx.coords_lex(i, x);
      const Complex<double> site = wick_trace(Q, R, BaryonInterpolator::nucleon(), P, std::size_t(i));
      for (std::size_t k = 0; k < momenta.size(); ++k) {
        double phase = 0;
        for (int d = 0; d < 3; ++d) phase -= 2 * M_PI * momenta[k][std::size_t(d)] * (x[d] - Q.source[std::size_t(d)]) / dims[d];
        want[k][std::size_t(((x[3] - Q.source[3]) % T + T) % T)] += Complex<double>(std::cos(phase), std::sin(phase)) * site;
      }
    }
    for (std::size_t k = 0; k < momenta.size(); ++k)
      for (int t = 0; t < T; ++t) {
        const Complex<double> a = got[k][std::size_t(t)], b = want[k][std::size_t(t)];
        EXPECT_NEAR(a.re, b.re, 1e-11 * (1 + std::abs(b.re))) << "momentum " << k << " t " << t;
        EXPECT_NEAR(a.im, b.im, 1e-11 * (1 + std::abs(b.im))) << "momentum " << k << " t " << t;
      }
  }
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
  const auto plus = baryon_correlator(S, S, BaryonInterpolator::nucleon(), parity_projector(+1), {{0, 0, 0}}, Complex<double>(-1))[0];
  const auto minus = baryon_correlator(S, S, BaryonInterpolator::nucleon(), parity_projector(-1), {{0, 0, 0}}, Complex<double>(-1))[0];
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
// other than through eps_abc eps_a'b'c' would differ by O(1).
TEST(BaryonCorrelator, UnchangedByARandomGaugeTransformation) {
  const Dims dims{4, 4, 4, 8};
  const Geometry geom = Geometry::single_process(dims);
  GaugeField<double> U = test::rough_gauge(geom, Location::Host);
  GaugeField<double> Ug = U.clone(Location::Host);
  random_gauge_transformation(Ug, 99);
  FermionParams f;
  f.wilson.kappa = 0.11;
  PropagatorOptions o;
  o.solver.tolerance = 1e-13;
  SourceSpec point;
  point.position = {2, 1, 0, 3};
  const PointPropagator S = compute_propagator(make_dirac_operators(U, f), true, point, o);
  const PointPropagator Sg = compute_propagator(make_dirac_operators(Ug, f), true, point, o);
  const std::vector<std::array<int, 3>> momenta = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}};
  for (int sign : {+1, -1}) {
    const auto a = baryon_correlator(S, S, BaryonInterpolator::nucleon(), parity_projector(sign), momenta, Complex<double>(-1));
    const auto b = baryon_correlator(Sg, Sg, BaryonInterpolator::nucleon(), parity_projector(sign), momenta, Complex<double>(-1));
    for (std::size_t k = 0; k < momenta.size(); ++k)
      for (std::size_t t = 0; t < a[k].size(); ++t) {
        const double scale = std::abs(a[0][t].re);
        EXPECT_NEAR(a[k][t].re, b[k][t].re, 1e-10 * scale) << "parity " << sign << " momentum " << k << " t " << t;
        EXPECT_NEAR(a[k][t].im, b[k][t].im, 1e-10 * scale) << "parity " << sign << " momentum " << k << " t " << t;
      }
  }
}

// The free Wilson quark in the time-momentum representation, from momentum space alone (no solver):
// M = 2 kappa D, D(p) = m0 + sum(1 - cos p) + i sum gamma_mu sin p_mu, D(p)^-1 = [A - i sum gamma sin p] /
// (A^2 + sum sin^2 p), S(t, p_vec) = (1/T) sum_{p4} e^{i p4 t} M(p)^-1 with p4 = (2 pi n + pi) / T
// (antiperiodic in time), colour diagonal.
SpinMatrix free_quark(const Dims& n, double m0, const std::array<int, 3>& k, int t) {
  const double kappa = 1 / (2 * (4 + m0));
  SpinMatrix s{};
  for (int k3 = 0; k3 < n[3]; ++k3) {
    double p[4];
    for (int mu = 0; mu < 3; ++mu) p[mu] = 2 * M_PI * k[std::size_t(mu)] / n[mu];
    p[3] = (2 * M_PI * k3 + M_PI) / n[3];
    double A = m0, s2 = 0;
    for (int mu = 0; mu < 4; ++mu) A += 1 - std::cos(p[mu]), s2 += std::sin(p[mu]) * std::sin(p[mu]);
    const double den = (A * A + s2) * 2 * kappa * n[3];
    const Complex<double> phase(std::cos(p[3] * t), std::sin(p[3] * t));
    for (int mu = 0; mu < 4; ++mu) {
      const SpinMatrix g = SpinMatrix::gamma(mu);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) s.m[i][j] -= phase * Complex<double>(0, std::sin(p[mu]) / den) * g.m[i][j];
    }
    for (int i = 0; i < 4; ++i) s.m[i][i] += phase * (A / den);
  }
  return s;
}

// The Wick sum for colour-diagonal quarks with their own spin matrices: sa for the quark at the sink's
// (a rho), sb at (b sigma), sc at (c gamma), whichever antiquark each joins (the momenta are attached to
// the sink's quarks).
Complex<double> free_wick_trace(const SpinMatrix& sa, const SpinMatrix& sb, const SpinMatrix& sc,
                                const BaryonInterpolator& op, const SpinMatrix& P) {
  return wick_sum(op, P, [&](int a, int b, int c, int ap, int bp, int cp, int rho, int sig, int gam, int rp, int sp,
                             int gp) {
    Complex<double> pairings{};
    if (b != bp) return pairings;
    if (a == ap && c == cp) pairings += sa.m[rho][rp] * sc.m[gam][gp];
    if (a == cp && c == ap) pairings -= sa.m[rho][gp] * sc.m[gam][rp];
    return sb.m[sig][sp] * pairings;
  });
}

// Acceptance of issue 49: the free nucleon from momentum-space sums. With S(x) = (1/V_s) sum_k
// e^{i k.(x - x0)} S(t, k), the projection sum_x e^{-i p.(x - x0)} keeps k_a + k_b + k_c = p:
//   C(t, p) = (1 / V_s^2) sum_{k_a, k_b} W(S(t, k_a), S(t, k_b), S(t, p - k_a - k_b)),
// W the Wick sum above. Both parities, at rest and moving, and on the time slices before the source's,
// reached across the antiperiodic boundary (the reference's S(t) is the propagator from a source at
// t = 0: baryon_correlator's boundary phase). The solver's propagator (tolerance 1e-14) and the
// contraction reproduce it to 1e-12 of C(0); without the boundary phase the wrapped slices have the
// wrong sign.
TEST(BaryonCorrelator, FreeNucleonEqualsItsMomentumSpaceSum) {
  const Dims dims{2, 4, 2, 6};  // small in space: the reference sums over V_s^2 momentum pairs
  const double m0 = 0.3;
  const Geometry geom = Geometry::single_process(dims);
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  FermionParams f;
  f.wilson.kappa = 1 / (2 * (4 + m0));
  PropagatorOptions o;
  o.solver.tolerance = 1e-14;
  SourceSpec point;
  point.position = {1, 2, 1, 2};
  const PointPropagator S = compute_propagator(make_dirac_operators(U, f), true, point, o);
  const std::vector<std::array<int, 3>> momenta = {{0, 0, 0}, {0, 1, 0}, {1, 3, 1}};
  const double vs = double(dims[0]) * dims[1] * dims[2];
  for (int sign : {+1, -1}) {
    const SpinMatrix P = parity_projector(sign);
    const auto got = baryon_correlator(S, S, BaryonInterpolator::nucleon(), P, momenta, Complex<double>(-1));
    for (std::size_t m = 0; m < momenta.size(); ++m)
      for (int t = 0; t < dims[3]; ++t) {
        // The free quarks at time t for every spatial momentum, once.
        std::vector<SpinMatrix> q;
        for (int k2 = 0; k2 < dims[2]; ++k2)
          for (int k1 = 0; k1 < dims[1]; ++k1)
            for (int k0 = 0; k0 < dims[0]; ++k0) q.push_back(free_quark(dims, m0, {k0, k1, k2}, t));
        const auto at = [&](int k0, int k1, int k2) {
          const auto wrap = [](int k, int L) { return ((k % L) + L) % L; };
          return q[std::size_t(wrap(k0, dims[0]) + dims[0] * (wrap(k1, dims[1]) + dims[1] * wrap(k2, dims[2])))];
        };
        Complex<double> want{};
        for (int a2 = 0; a2 < dims[2]; ++a2)
          for (int a1 = 0; a1 < dims[1]; ++a1)
            for (int a0 = 0; a0 < dims[0]; ++a0)
              for (int b2 = 0; b2 < dims[2]; ++b2)
                for (int b1 = 0; b1 < dims[1]; ++b1)
                  for (int b0 = 0; b0 < dims[0]; ++b0) {
                    const auto& p = momenta[m];
                    want += free_wick_trace(at(a0, a1, a2), at(b0, b1, b2),
                                            at(p[0] - a0 - b0, p[1] - a1 - b1, p[2] - a2 - b2),
                                            BaryonInterpolator::nucleon(), P);
                  }
        want = want * (1 / (vs * vs));
        const double scale = std::abs(got[0][0].re);
        EXPECT_NEAR(got[m][std::size_t(t)].re, want.re, 1e-12 * scale) << "parity " << sign << " p " << m << " t " << t;
        EXPECT_NEAR(got[m][std::size_t(t)].im, want.im, 1e-12 * scale) << "parity " << sign << " p " << m << " t " << t;
      }
  }
}

}  // namespace
}  // namespace lqcd
