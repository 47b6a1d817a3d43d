// Contractions and effective masses against identities that hold for any propagator, and exact
// synthetic correlators.
#include <gtest/gtest.h>

#include <cmath>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/site_random.hpp"
#include "measure/effective_mass.hpp"
#include "measure/meson_correlator.hpp"

namespace lqcd {
namespace {

PointPropagator random_propagator(const Dims& dims, bool only_time_dependent) {
  PointPropagator S;
  S.geometry = Geometry::single_process(dims);
  S.source = {1, 0, 1, 2};
  const std::int64_t v = std::int64_t(dims[0]) * dims[1] * dims[2] * dims[3];
  const std::int64_t spatial = v / dims[3];
  for (int col = 0; col < 12; ++col) {
    S.column[std::size_t(col)].resize(std::size_t(v));
    for (std::int64_t i = 0; i < v; ++i) {
      SiteRandom rng(3, std::uint64_t(only_time_dependent ? i / spatial : i), RngPurpose::Test, std::uint32_t(col), 0);
      for (auto& s : S.column[std::size_t(col)][std::size_t(i)].s)
        for (auto& z : s.c) {
          z.re = rng.gaussian();
          z.im = rng.gaussian();
        }
    }
  }
  return S;
}

TEST(MesonCorrelator, PionIsTheSumOfSquaredPropagatorEntries) {
  const PointPropagator S = random_propagator({4, 4, 2, 6}, false);
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const auto c = meson_correlator(S, g5, g5, {{0, 0, 0}});
  const auto n = pion_correlator_from_norms(S);
  for (std::size_t t = 0; t < n.size(); ++t) {
    EXPECT_NEAR(c[0][t].re, n[t], 1e-11 * n[t]);
    EXPECT_NEAR(c[0][t].im, 0.0, 1e-11 * n[t]);
    EXPECT_GT(n[t], 0.0);
  }
}

// The contraction runs one thread per time slice, each summing its sites in lexicographic order: the
// correlator is the same to the last bit whatever the number of threads.
TEST(MesonCorrelator, SameBitsWithOneThreadOrMany) {
  const PointPropagator S = random_propagator({4, 2, 4, 6}, false);
  const std::vector<std::array<int, 3>> momenta = {{0, 0, 0}, {1, 0, 2}};
  const auto many = meson_correlator(S, SpinMatrix::basis(7), SpinMatrix::basis(3), momenta);
#ifdef _OPENMP
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = meson_correlator(S, SpinMatrix::basis(7), SpinMatrix::basis(3), momenta);
  omp_set_num_threads(threads);
  omp_set_num_threads(4);  // more threads than this machine's cores, fewer than the 6 slices
  const auto four = meson_correlator(S, SpinMatrix::basis(7), SpinMatrix::basis(3), momenta);
  omp_set_num_threads(threads);
  for (std::size_t m = 0; m < momenta.size(); ++m)
    for (std::size_t t = 0; t < 6; ++t) {
      EXPECT_EQ(one[m][t].re, many[m][t].re);
      EXPECT_EQ(one[m][t].im, many[m][t].im);
      EXPECT_EQ(four[m][t].re, many[m][t].re);
      EXPECT_EQ(four[m][t].im, many[m][t].im);
      EXPECT_NE(many[m][t].re, 0.0);
    }
#else
  GTEST_SKIP() << "built without OpenMP";
#endif
}

TEST(MesonCorrelator, MomentumProjectionOfASpatiallyConstantPropagator) {
  // S independent of x: only p = 0 survives; every other momentum sums e^{-ipx} to zero.
  const PointPropagator S = random_propagator({4, 6, 4, 4}, true);
  const auto c = meson_correlator(S, SpinMatrix::basis(1), SpinMatrix::basis(1), {{0, 0, 0}, {1, 0, 0}, {0, 2, 3}});
  for (std::size_t t = 0; t < 4; ++t) {
    EXPECT_GT(abs(c[0][t]), 1.0);
    EXPECT_LT(abs(c[1][t]), 1e-10 * abs(c[0][t]));
    EXPECT_LT(abs(c[2][t]), 1e-10 * abs(c[0][t]));
  }
}

TEST(MesonCorrelator, LocalPropagatorGivesTheTraceOfGammaProducts) {
  // S(x) = 1 at the source and 0 elsewhere: C_G(0) = -tr[G Gbar] (x 3 colours) with Gbar = gt G^dag gt.
  PointPropagator S;
  S.geometry = Geometry::single_process({2, 2, 2, 4});
  S.source = {0, 0, 0, 0};
  for (int col = 0; col < 12; ++col) {
    S.column[std::size_t(col)].assign(32, ColorSpinor<double>{});
    S.column[std::size_t(col)][0].s[col / 3].c[col % 3] = Complex<double>(1);
  }
  const SpinMatrix gt = SpinMatrix::gamma(3);
  for (int n = 0; n < 16; ++n) {
    const SpinMatrix g = SpinMatrix::basis(n);
    const SpinMatrix p = g * gt * g.dagger() * gt;
    Complex<double> tr{};
    for (int i = 0; i < 4; ++i) tr += p.m[i][i];
    const auto c = meson_correlator(S, g, g, {{0, 0, 0}});
    EXPECT_NEAR(c[0][0].re, -3 * tr.re, 1e-14) << gamma_name(n);
    EXPECT_NEAR(std::abs(c[0][0].re), 12.0, 1e-14) << gamma_name(n);  // +-1 x 4 spins x 3 colours
    EXPECT_EQ(c[0][1].re, 0.0);
  }
  // The pion channel is positive.
  EXPECT_GT(meson_correlator(S, SpinMatrix::basis(15), SpinMatrix::basis(15), {{0, 0, 0}})[0][0].re, 0.0);
}

TEST(EffectiveMass, CoshCorrelatorGivesItsMassExactly) {
  const int T = 16;
  const double m = 0.37;
  std::vector<double> c;
  for (int t = 0; t < T; ++t) c.push_back(2.5 * std::cosh(m * (t - T / 2.0)));
  const auto meff = cosh_effective_mass(c);
  for (int t = 0; t < T / 2; ++t) EXPECT_NEAR(meff[std::size_t(t)], m, 1e-10) << t;
  EXPECT_TRUE(std::isnan(meff[T - 2]));  // past the middle: no information
  // The log effective mass of a pure exponential is exact.
  std::vector<double> e;
  for (int t = 0; t < T; ++t) e.push_back(std::exp(-0.8 * t));
  for (double x : log_effective_mass(e)) EXPECT_NEAR(x, 0.8, 1e-12);
}

}  // namespace
}  // namespace lqcd
