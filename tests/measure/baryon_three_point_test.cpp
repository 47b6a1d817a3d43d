// Baryon three-point functions by the sequential source through the sink (measure/baryon_three_point.hpp,
// issue 49): against the two-point function made with the current's propagator replaced, and the
// conserved current's charges.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "measure/baryon_interpolators.hpp"
#include "measure/baryon_three_point.hpp"
#include "measure/current_insertion.hpp"
#include "three_point_test_support.hpp"

namespace lqcd {
namespace {

// T(x) = sum_{y, y_t = tau} e^{-i q.(y - x0)} S(x, y) X S(y, x0): 12 solves with the sources
// e^{-i q.(y - x0)} X S_j(y) on the slice (the current inserted by a sequential source at the current,
// not through the sink).
PointPropagator through_the_current(const test::RoughClover& q, const PointPropagator& S, int tau,
                                    const SpinMatrix& X, const std::array<int, 3>& mom) {
  const Geometry geom = Geometry::single_process(q.dims);
  const SiteIndexer idx = SiteIndexer::from(geom);
  PointPropagator T;
  T.geometry = geom;
  T.source = S.source;
  solve_sources(
      q.D, true, 12,
      [&](int j) {
        LexicographicSpinor eta(std::size_t(geom.volume()));
        for (std::int64_t i = 0; i < geom.volume(); ++i) {
          int y[4];
          idx.coords_lex(i, y);
          if (y[3] != tau) continue;
          double phase = 0;
          for (int d = 0; d < 3; ++d)
            phase -= 2 * M_PI * mom[std::size_t(d)] * (y[d] - S.source[std::size_t(d)]) / q.dims[std::size_t(d)];
          const Complex<double> e(std::cos(phase), std::sin(phase));
          ColorSpinor<double> xs{};
          for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b)
              for (int c = 0; c < 3; ++c) xs.s[a].c[c] += e * X.m[a][b] * S.column[std::size_t(j)][std::size_t(i)].s[b].c[c];
          eta[std::size_t(i)] = xs;
        }
        return local_to_spinor_field(eta, geom, Location::Host);
      },
      q.options, [&](int j, SpinorField<double>& psi) { T.column[std::size_t(j)] = to_local_lexicographic(psi); });
  return T;
}

PointPropagator plus(const PointPropagator& S, const PointPropagator& T, double sign) {
  PointPropagator r = S;
  for (std::size_t j = 0; j < 12; ++j)
    for (std::size_t i = 0; i < r.column[j].size(); ++i)
      for (int s = 0; s < 4; ++s)
        for (int c = 0; c < 3; ++c) r.column[j][i].s[s].c[c] += sign * T.column[j][i].s[s].c[c];
  return r;
}

// Acceptance of issue 49 (sequential source against an independent construction): on 4^4 (rough clover
// field, antiperiodic in time) the proton's three-point function through the sink, for the current on the
// up quarks and on the down quark, local vector (gamma_t) and axial (gamma_5 gamma_3) currents, at rest
// and with momentum transfer, current between source and sink and beyond the sink, equals
//   [C2(S_f -> S_f + T) - C2(S_f -> S_f - T)] / 2   at the sink time,
// the two-point function (measure/baryon_correlator.cpp) with the current's flavour's propagator shifted
// by T of through_the_current. C2 is quadratic in S_u and linear in S_d, so this difference is exactly
// the part linear in T: the current inserted once in each up line. To 1e-10 of the largest entry.
TEST(BaryonThreePoint, SequentialSourceEqualsTheTwoPointFunctionWithTheCurrentInserted) {
  const test::RoughClover q({4, 4, 4, 4});
  const PointPropagator S = q.point({1, 2, 0, 0});
  const int t_sink = 2;
  const BaryonProjection W = spin_half_projection(polarised_projector(2));
  const BaryonInterpolator proton_op = proton();
  const QuarkPropagators quarks{&S, &S, nullptr};
  const std::vector<SpinMatrix> currents = {SpinMatrix::gamma(3), SpinMatrix::gamma(kGamma5) * SpinMatrix::gamma(2)};
  const std::vector<std::array<int, 3>> momenta = {{0, 0, 0}, {1, 0, 1}};
  for (Quark f : {Quark::Up, Quark::Down}) {
    const PointPropagator B =
        baryon_sequential_propagator(q.D, true, quarks, proton_op, W, f, t_sink, Complex<double>(-1), q.options, "proton");
    for (std::size_t c = 0; c < currents.size(); ++c) {
      const auto got = current_insertion_local(S, B, currents[c], momenta);
      for (int tau : {1, 3})
        for (std::size_t m = 0; m < momenta.size(); ++m) {
          const PointPropagator T = through_the_current(q, S, tau, currents[c], momenta[m]);
          const PointPropagator Sp = plus(S, T, 1), Sm = plus(S, T, -1);
          const QuarkPropagators qp = f == Quark::Up ? QuarkPropagators{&Sp, &S, nullptr} : QuarkPropagators{&S, &Sp, nullptr};
          const QuarkPropagators qm = f == Quark::Up ? QuarkPropagators{&Sm, &S, nullptr} : QuarkPropagators{&S, &Sm, nullptr};
          const Complex<double> cp = baryon_correlator(qp, proton_op, W, {{0, 0, 0}}, Complex<double>(-1), "+")[0][t_sink];
          const Complex<double> cm = baryon_correlator(qm, proton_op, W, {{0, 0, 0}}, Complex<double>(-1), "-")[0][t_sink];
          const Complex<double> want = 0.5 * (cp - cm), g = got[m][std::size_t(tau)];
          const double scale = std::abs(want.re) + std::abs(want.im);
          std::printf("    %s, current %zu, tau %d, q %zu: sequential %.12e %+.12e i, reference %.12e %+.12e i\n",
                      f == Quark::Up ? "up" : "down", c, tau, m, g.re, g.im, want.re, want.im);
          EXPECT_GT(scale, 1e-8);
          EXPECT_NEAR(g.re, want.re, 1e-10 * scale) << "flavour " << int(f) << " current " << c << " tau " << tau << " q " << m;
          EXPECT_NEAR(g.im, want.im, 1e-10 * scale) << "flavour " << int(f) << " current " << c << " tau " << tau << " q " << m;
        }
    }
  }
}

// Acceptance of issue 49: the conserved vector current counts the quarks exactly, on any configuration.
// By the lattice Ward identity C3(tau) is constant on the links between source and sink and constant
// outside, the two differing by the charge times the two-point function (measure/current_insertion.hpp):
// [C3(in) - C3(out)] / C2(t_s) = 2 for the proton's up quarks and 1 for its down quark, to 1e-10, at two
// sink times, unpolarised and polarised, on a rough clover field.
TEST(BaryonThreePoint, ConservedCurrentCountsTheProtonsQuarks) {
  const test::RoughClover q({4, 4, 4, 8});
  const PointPropagator S = q.point({1, 2, 3, 1});
  const QuarkPropagators quarks{&S, &S, nullptr};
  const BaryonInterpolator proton_op = proton();
  for (bool polarised : {false, true}) {
    const BaryonProjection W = spin_half_projection(polarised ? polarised_projector(2) : parity_projector(+1));
    const auto C2 = baryon_correlator(quarks, proton_op, W, {{0, 0, 0}}, Complex<double>(-1), "proton")[0];
    for (int t_sink : {3, 5})
      for (Quark f : {Quark::Up, Quark::Down}) {
        const double charge = f == Quark::Up ? 2 : 1;
        const PointPropagator B = baryon_sequential_propagator(q.D, true, quarks, proton_op, W, f, t_sink,
                                                               Complex<double>(-1), q.options, "proton");
        const auto c3 = current_insertion_conserved(S, B, q.U, q.kappa, Complex<double>(-1), {{0, 0, 0}})[0];
        const Complex<double> c2 = C2[std::size_t(t_sink)], outside = c3[std::size_t(t_sink + 1)];
        const double norm = std::abs(c2.re) + std::abs(c2.im);
        ASSERT_GT(norm, 1e-12);
        for (int tau = 0; tau < 8; ++tau) {
          const Complex<double> d = c3[std::size_t(tau)] - (tau < t_sink ? outside + charge * c2 : outside);
          const Complex<double> ratio = c3[std::size_t(tau)] * conj(c2) * (1.0 / (c2.re * c2.re + c2.im * c2.im));
          std::printf("    %s, t_s = %d, %s: C3(%d) / C2 = %.12f %+.2e i\n", polarised ? "polarised" : "unpolarised",
                      t_sink, f == Quark::Up ? "up" : "down", tau, ratio.re, ratio.im);
          EXPECT_NEAR(d.re, 0.0, 1e-10 * norm) << "t_s " << t_sink << " flavour " << int(f) << " tau " << tau;
          EXPECT_NEAR(d.im, 0.0, 1e-10 * norm) << "t_s " << t_sink << " flavour " << int(f) << " tau " << tau;
        }
      }
  }
}

}  // namespace
}  // namespace lqcd
