// Planar Wilson loops (gauge/wilson_loops.hpp): W(1, 1) is the temporal plaquette, an abelian field of
// constant flux gives exp(i flux area) for every loop (Stokes), the loops are gauge invariant, and host
// and device agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "core/error.hpp"
#include "field_test_support.hpp"
#include "gauge/observables.hpp"
#include "gauge/updates.hpp"
#include "gauge/wilson_loops.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// U_t(z) = exp(i phi z tau) and U_z = 1 but on the last z slice, exp(-i phi Lz t tau), tau = diag(1,-1,0):
// every (z, t) plaquette is exp(i phi tau), every other one 1 (gradient_flow_test.cpp has the (x, y) twin).
LexicographicGauge zt_flux_field(const Dims& L, int n) {
  const double phi = 2 * std::numbers::pi * n / (L[2] * L[3]);
  const auto abelian = [](double a) {
    SU3<double> u = SU3<double>::identity();
    u.m[0][0] = Complex<double>(std::cos(a), std::sin(a));
    u.m[1][1] = Complex<double>(std::cos(a), -std::sin(a));
    return u;
  };
  LexicographicGauge u(L);
  const int d[4] = {L[0], L[1], L[2], L[3]};
  for (std::int64_t i = 0; i < u.volume(); ++i) {
    int x[4];
    lexicographic_coords(i, d, x);
    u(i, 2) = abelian(x[2] == L[2] - 1 ? -phi * L[2] * x[3] : 0.0);
    u(i, 3) = abelian(phi * x[2]);
  }
  return u;
}

class WilsonLoopTest : public ::testing::TestWithParam<Location> {};

TEST_P(WilsonLoopTest, SmallestLoopIsTheTemporalPlaquette) {
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  GaugeField<double> U = test::rough_gauge(g, GetParam(), 3, 6.0);
  const auto w = wilson_loops(U, 3, 4);
  EXPECT_NEAR(w[0][0], gauge_observables(U).plaquette_temporal, 1e-13);
  // Gauge invariance: every loop unchanged by a random gauge transformation.
  random_gauge_transformation(U, 8);
  const auto v = wilson_loops(U, 3, 4);
  for (int r = 0; r < 3; ++r)
    for (int t = 0; t < 4; ++t) EXPECT_NEAR(v[r][t], w[r][t], 1e-13) << r << " " << t;
}

// Loops in the (x, t) and (y, t) planes enclose no flux (1); in the (z, t) plane R T plaquettes of
// exp(i phi tau): Re tr exp(i phi R T tau)/3 = (1 + 2 cos(phi R T))/3. W is their average.
TEST_P(WilsonLoopTest, ConstantFluxGivesTheAreaLaw) {
  const Dims L{4, 4, 6, 8};
  const Geometry g = Geometry::single_process(L);
  const GaugeField<double> U = to_gauge_field(zt_flux_field(L, 1), g, GetParam());
  const double phi = 2 * std::numbers::pi / 48;
  const auto w = wilson_loops(U, 4, 8);
  for (int r = 1; r <= 4; ++r)
    for (int t = 1; t <= 8; ++t)
      EXPECT_NEAR(w[r - 1][t - 1], (2 + (1 + 2 * std::cos(phi * r * t)) / 3) / 3, 1e-13) << r << " " << t;
}

// The path-field algorithm of decomposed lattices (one site per step) gives the direct kernel's loops.
TEST_P(WilsonLoopTest, PathFieldsGiveTheDirectLoops) {
  const Geometry g = Geometry::single_process({6, 4, 4, 8});
  const GaugeField<double> U = test::rough_gauge(g, GetParam(), 12, 6.0);
  const auto a = wilson_loops(U, 4, 8), b = wilson_loops(U, 4, 8, true);
  for (int r = 0; r < 4; ++r)
    for (int t = 0; t < 8; ++t) EXPECT_NEAR(b[r][t], a[r][t], 1e-13) << r << " " << t;
}

// U_t(x) = exp(i tau sum_i phi_i x_i), U_i = 1 but on the last x_i slice, exp(-i phi_i L_i t tau):
// every (i, t) plaquette is exp(i phi_i tau) (phi_i = 2 pi n_i / (L_i L_t)), every spatial one 1. A loop
// of spatial separation r and time extent T then encloses the flux T phi.r whatever the spatial path:
// W = (1 + 2 cos(T phi.r))/3, and the off-axis average is that over the 48 images g r of r.
LexicographicGauge it_flux_field(const Dims& L, const std::array<int, 3>& n, std::array<double, 3>& phi) {
  const auto abelian = [](double a) {
    SU3<double> u = SU3<double>::identity();
    u.m[0][0] = Complex<double>(std::cos(a), std::sin(a));
    u.m[1][1] = Complex<double>(std::cos(a), -std::sin(a));
    return u;
  };
  for (int i = 0; i < 3; ++i) phi[std::size_t(i)] = 2 * std::numbers::pi * n[std::size_t(i)] / (L[i] * L[3]);
  LexicographicGauge u(L);
  const int d[4] = {L[0], L[1], L[2], L[3]};
  for (std::int64_t s = 0; s < u.volume(); ++s) {
    int x[4];
    lexicographic_coords(s, d, x);
    double a_t = 0;
    for (int i = 0; i < 3; ++i) {
      a_t += phi[std::size_t(i)] * x[i];
      u(s, i) = abelian(x[i] == L[i] - 1 ? -phi[std::size_t(i)] * L[i] * x[3] : 0.0);
    }
    u(s, 3) = abelian(a_t);
  }
  return u;
}

TEST_P(WilsonLoopTest, OffAxisLoopsEncloseTheFluxOfTheirImages) {
  const Dims L{4, 6, 8, 4};
  const Geometry g = Geometry::single_process(L);
  std::array<double, 3> phi{};
  const GaugeField<double> U = to_gauge_field(it_flux_field(L, {1, 2, -1}, phi), g, GetParam());
  for (const std::array<int, 3>& r : {std::array<int, 3>{1, 1, 0}, {2, 1, 0}, {1, 1, 1}, {2, 1, 1}, {3, 2, 1}}) {
    const std::vector<double> w = wilson_loops_along(U, r, 4);
    for (int t = 1; t <= 4; ++t) {
      // The average over the 48 signed permutations g: (g r)_{p(i)} = s_i r_i.
      double expected = 0;
      std::array<int, 3> p{0, 1, 2};
      do {
        for (int signs = 0; signs < 8; ++signs) {
          double flux = 0;
          for (int i = 0; i < 3; ++i) flux += phi[std::size_t(p[std::size_t(i)])] * ((signs >> i) & 1 ? -1 : 1) * r[std::size_t(i)];
          expected += (1 + 2 * std::cos(t * flux)) / 3 / 48;
        }
      } while (std::next_permutation(p.begin(), p.end()));
      EXPECT_NEAR(w[std::size_t(t - 1)], expected, 1e-13) << r[0] << r[1] << r[2] << " T = " << t;
    }
  }
}

// On a rough field: an off-axis loop is gauge invariant only if its path closes (a broken staircase
// would not be); r = (R, 0, 0) through the staircase machinery gives the on-axis loops.
TEST_P(WilsonLoopTest, OffAxisLoopsAreGaugeInvariantAndContainTheOnAxisOnes) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  GaugeField<double> U = test::rough_gauge(g, GetParam(), 5, 6.0);
  const auto on_axis = wilson_loops(U, 3, 3);
  for (int r = 1; r <= 3; ++r) {
    const std::vector<double> w = wilson_loops_along(U, {0, r, 0}, 3);
    for (int t = 0; t < 3; ++t) EXPECT_NEAR(w[std::size_t(t)], on_axis[std::size_t(r - 1)][std::size_t(t)], 1e-13);
  }
  const std::vector<double> a = wilson_loops_along(U, {2, 1, 1}, 3), b = wilson_loops_along(U, {1, 1, 0}, 2);
  random_gauge_transformation(U, 17);
  const std::vector<double> a2 = wilson_loops_along(U, {2, 1, 1}, 3), b2 = wilson_loops_along(U, {1, 1, 0}, 2);
  for (std::size_t t = 0; t < 3; ++t) EXPECT_NEAR(a2[t], a[t], 1e-13);
  for (std::size_t t = 0; t < 2; ++t) EXPECT_NEAR(b2[t], b[t], 1e-13);
  EXPECT_GT(std::abs(a[0] - b[0]), 1e-3) << "different separations differ";
}

INSTANTIATE_TEST_SUITE_P(Backends, WilsonLoopTest, ::testing::ValuesIn(test::locations()),
                         [](const ::testing::TestParamInfo<Location>& info) { return to_string(info.param); });

TEST(WilsonLoops, ExtentsOutOfRangeAreRefused) {
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  const GaugeField<double> U = test::rough_gauge(g, Location::Host);
  EXPECT_THROW(wilson_loops(U, 0, 2), Error);
  EXPECT_THROW(wilson_loops(U, 5, 2), Error) << "R beyond the spatial extent";
  EXPECT_THROW(wilson_loops(U, 2, 9), Error) << "T beyond 8";
}

// The staircase stays next to the straight line and ends at r; the separations are the off-axis ones.
TEST(WilsonLoops, StaircasesAndSeparations) {
  EXPECT_EQ(staircase_path({2, 1, 0}), (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(staircase_path({1, 1, 1}), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(staircase_path({-2, 0, 1}), (std::vector<int>{-1, 3, -1}));
  const std::vector<int> p = staircase_path({4, 2, 1});
  std::array<int, 3> end{};
  for (int s : p) end[std::size_t(std::abs(s) - 1)] += s > 0 ? 1 : -1;
  EXPECT_EQ(end, (std::array<int, 3>{4, 2, 1}));
  const auto sep = off_axis_separations(2.0);
  EXPECT_EQ(sep, (std::vector<std::array<int, 3>>{{1, 1, 0}, {1, 1, 1}}));
  EXPECT_EQ(off_axis_separations(3.0).size(), 6u) << "(1,1,0) (1,1,1) (2,1,0) (2,1,1) (2,2,0) (2,2,1)";
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  const GaugeField<double> U = test::rough_gauge(g, Location::Host);
  EXPECT_THROW(wilson_loops_along(U, {0, 0, 0}, 2), Error);
  EXPECT_THROW(wilson_loops_along(U, {5, 1, 0}, 2), Error) << "beyond the spatial extent";
  EXPECT_THROW(wilson_loops_along(U, {1, 1, 0}, 9), Error);
}

TEST(WilsonLoops, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry g = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> h = test::rough_gauge(g, Location::Host, 4, 6.0);
  const auto a = wilson_loops(h, 4, 4), b = wilson_loops(h.clone(Location::Device), 4, 4);
  for (int r = 0; r < 4; ++r)
    for (int t = 0; t < 4; ++t) EXPECT_NEAR(a[r][t], b[r][t], 1e-13) << r << " " << t;
  const auto c = wilson_loops_along(h, {2, 1, 1}, 4), d = wilson_loops_along(h.clone(Location::Device), {2, 1, 1}, 4);
  for (std::size_t t = 0; t < 4; ++t) EXPECT_NEAR(c[t], d[t], 1e-13) << t;
}

}  // namespace
}  // namespace lqcd
