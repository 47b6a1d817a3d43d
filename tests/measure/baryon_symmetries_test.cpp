// Baryon two-point functions (measure/baryon_interpolators.hpp, issue 49) under the symmetries that hold
// configuration by configuration: the spin-3/2 projector's algebra, isospin (proton = neutron), SU(3)
// flavour with a degenerate strange quark (Lambda, Sigma, Xi -> nucleon; Omega -> Delta), and parity, time
// reflection and charge conjugation of the gauge field on a rough clover configuration.
#include <gtest/gtest.h>

#include <cmath>

#include "dirac/dirac_operator_factory.hpp"
#include "measure/baryon_interpolators.hpp"
#include "measure/propagator.hpp"
#include "baryon_test_support.hpp"
#include "field_test_support.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using Correlator = std::vector<std::vector<Complex<double>>>;

// max |a - b| over all entries, relative to the largest |a| on the same time slice (baryon correlators
// fall by orders of magnitude across the lattice).
double relative_difference(const Correlator& a, const Correlator& b) {
  double worst = 0;
  for (std::size_t t = 0; t < a[0].size(); ++t) {
    double scale = 0, diff = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      scale = std::max({scale, std::abs(a[k][t].re), std::abs(a[k][t].im)});
      diff = std::max({diff, std::abs(a[k][t].re - b[k][t].re), std::abs(a[k][t].im - b[k][t].im)});
    }
    worst = std::max(worst, diff / scale);
  }
  return worst;
}

BaryonProjection projection(const BaryonChannel& c, int parity) {
  return c.spin_three_halves ? spin_three_halves_projection(parity_projector(parity))
                             : spin_half_projection(parity_projector(parity));
}

// P^{3/2}_{kl} = delta_kl - gamma_k gamma_l / 3 (read back from the projection with P = 1) is a projector
// onto spin 3/2: sum_l P_kl P_lm = P_km, and sum_k gamma_k P_kl = 0 = sum_l P_kl gamma_l.
TEST(BaryonSymmetries, SpinThreeHalvesProjectorProjects) {
  const BaryonProjection W = spin_three_halves_projection(SpinMatrix::identity());
  SpinMatrix P[3][3];
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) P[k][l].m[i][j] = W[std::size_t(l)][std::size_t(k)].m[i][j] * 3.0;
  const auto add = [](SpinMatrix& s, const SpinMatrix& x) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) s.m[i][j] += x.m[i][j];
  };
  const auto norm = [](const SpinMatrix& s) {
    double n = 0;
    for (const auto& row : s.m)
      for (const auto& z : row) n = std::max({n, std::abs(z.re), std::abs(z.im)});
    return n;
  };
  for (int k = 0; k < 3; ++k) {
    SpinMatrix left, right;
    for (int l = 0; l < 3; ++l) {
      add(left, SpinMatrix::gamma(l) * P[l][k]);
      add(right, P[k][l] * SpinMatrix::gamma(l));
    }
    EXPECT_LT(norm(left), 1e-15) << k;
    EXPECT_LT(norm(right), 1e-15) << k;
    for (int m = 0; m < 3; ++m) {
      SpinMatrix square;
      for (int l = 0; l < 3; ++l) add(square, P[k][l] * P[l][m]);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) square.m[i][j] -= P[k][m].m[i][j];
      EXPECT_LT(norm(square), 1e-15) << k << m;
    }
  }
  EXPECT_GT(std::abs(P[0][0].m[0][0].re - 1), 0.1);  // not the identity
}

struct RoughClover {
  Dims dims{4, 4, 4, 8};
  std::array<int, 4> source{1, 2, 3, 2};
  LexicographicGauge U;
  RoughClover() : U(to_lexicographic(test::rough_gauge(Geometry::single_process(dims), Location::Host))) {}
  PointPropagator propagator(const LexicographicGauge& V, double kappa, std::array<int, 4> x) const {
    const GaugeField<double> field = to_gauge_field(V, Geometry::single_process(dims), Location::Host);
    FermionParams f;
    f.action = FermionAction::Clover;
    f.wilson.kappa = kappa;
    f.csw = 1.2;
    PropagatorOptions o;
    o.solver.tolerance = 1e-13;
    SourceSpec point;
    point.position = x;
    return compute_propagator(make_dirac_operators(field, f), true, point, o);
  }
};

const std::vector<std::array<int, 3>> kMomenta = {{0, 0, 0}, {1, 0, 0}, {0, 1, 1}, {-1, 2, 0}};

// With degenerate u, d and s (one propagator for all three), SU(3) flavour symmetry makes every octet
// correlator the nucleon's and the Omega's the Delta's, at every momentum and for both parities. The
// Lambda's three terms (and their 1/sqrt(6)) and the flavour bookkeeping of every channel enter; isospin
// gives proton = neutron. Equal to 1e-13 of each slice (rounding).
TEST(BaryonSymmetries, DegenerateQuarksGiveTheNucleonAndTheDelta) {
  const RoughClover c;
  const PointPropagator S = c.propagator(c.U, 0.12, c.source);
  for (int parity : {+1, -1}) {
    const auto of = [&](const BaryonInterpolator& op, bool three_halves) {
      const BaryonProjection W = three_halves ? spin_three_halves_projection(parity_projector(parity))
                                              : spin_half_projection(parity_projector(parity));
      return baryon_correlator({&S, &S, &S}, op, W, kMomenta, Complex<double>(-1), "test");
    };
    const Correlator N = of(proton(), false), D = of(delta_plus_plus(), true);
    EXPECT_LT(relative_difference(N, of(neutron(), false)), 1e-13) << "neutron, parity " << parity;
    for (const BaryonChannel& b : baryon_channels()) {
      const Correlator got = of(b.interpolator(), b.spin_three_halves);
      EXPECT_LT(relative_difference(b.spin_three_halves ? D : N, got), 1e-13) << b.name << ", parity " << parity;
    }
  }
}

// Parity, time reflection and charge conjugation of the gauge field (tests/measure/baryon_test_support.hpp),
// with the source moved by the same map, give for every channel, configuration by configuration:
//   parity           C(t, p; U^P)  = C(t, -p; U)       (the diquarks C g5 and C g_k are parity-even)
//   time reflection  C+-(t; U^R)   = -C-+(T - t; U),  t = 1..T-1, at every p (the parity partner runs
//                                                      backwards; the boundary phase makes the sign)
//   charge conj.     C(t, p; U^*)  = C(t, -p; U)^*    (S[U^*] = (C g5) S[U]^* (C g5)^-1)
// on a rough clover field, with a heavier strange quark. Measured: to 2e-12 of each slice at worst (time
// reflection, two solves to 1e-13); a relation broken by a sign or a phase is off by O(1).
TEST(BaryonSymmetries, ParityTimeReflectionAndChargeConjugation) {
  const RoughClover c;
  const int T = c.dims[3];
  const auto correlators = [&](const LexicographicGauge& V, std::array<int, 4> x, int parity,
                               const std::vector<std::array<int, 3>>& momenta) {
    const PointPropagator L = c.propagator(V, 0.12, x), S = c.propagator(V, 0.115, x);
    std::vector<Correlator> all;
    for (const BaryonChannel& b : baryon_channels())
      all.push_back(baryon_correlator({&L, &L, &S}, b.interpolator(), projection(b, parity), momenta,
                                      Complex<double>(-1), b.name.c_str()));
    return all;
  };
  std::vector<std::array<int, 3>> minus_p;
  for (const auto& p : kMomenta) minus_p.push_back({-p[0], -p[1], -p[2]});
  using test::LatticeSymmetry;
  for (int parity : {+1, -1}) {
    const auto plain = correlators(c.U, c.source, parity, minus_p);
    const auto reflected = correlators(test::transformed(LatticeSymmetry::Parity, c.U),
                                       test::transformed_site(LatticeSymmetry::Parity, c.dims, c.source), parity, kMomenta);
    auto conjugated = correlators(test::transformed(LatticeSymmetry::ChargeConjugation, c.U), c.source, parity, kMomenta);
    const auto reversed = correlators(test::transformed(LatticeSymmetry::TimeReflection, c.U),
                                      test::transformed_site(LatticeSymmetry::TimeReflection, c.dims, c.source), -parity,
                                      minus_p);
    for (std::size_t b = 0; b < plain.size(); ++b) {
      const std::string& name = baryon_channels()[b].name;
      EXPECT_LT(relative_difference(plain[b], reflected[b]), 1e-11) << "parity, " << name << " " << parity;
      Correlator time_partner = plain[b];
      for (std::size_t k = 0; k < kMomenta.size(); ++k) {
        for (auto& z : conjugated[b][k]) z.im = -z.im;
        for (int t = 1; t < T; ++t) time_partner[k][std::size_t(t)] = -1.0 * reversed[b][k][std::size_t(T - t)];
        time_partner[k][0] = plain[b][k][0];  // the contact term at t = 0 is not related
      }
      EXPECT_LT(relative_difference(plain[b], conjugated[b]), 1e-11) << "charge conjugation, " << name << " " << parity;
      EXPECT_LT(relative_difference(plain[b], time_partner), 1e-11) << "time reflection, " << name << " " << parity;
    }
  }
}

}  // namespace
}  // namespace lqcd
