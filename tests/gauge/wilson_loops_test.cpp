// Planar Wilson loops (gauge/wilson_loops.hpp): W(1, 1) is the temporal plaquette, an abelian field of
// constant flux gives exp(i flux area) for every loop (Stokes), the loops are gauge invariant, and host
// and device agree.
#include <gtest/gtest.h>

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

INSTANTIATE_TEST_SUITE_P(Backends, WilsonLoopTest, ::testing::ValuesIn(test::locations()),
                         [](const ::testing::TestParamInfo<Location>& info) { return to_string(info.param); });

TEST(WilsonLoops, ExtentsOutOfRangeAreRefused) {
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  const GaugeField<double> U = test::rough_gauge(g, Location::Host);
  EXPECT_THROW(wilson_loops(U, 0, 2), Error);
  EXPECT_THROW(wilson_loops(U, 5, 2), Error) << "R beyond the spatial extent";
  EXPECT_THROW(wilson_loops(U, 2, 9), Error) << "T beyond 8";
}

TEST(WilsonLoops, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry g = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> h = test::rough_gauge(g, Location::Host, 4, 6.0);
  const auto a = wilson_loops(h, 4, 4), b = wilson_loops(h.clone(Location::Device), 4, 4);
  for (int r = 0; r < 4; ++r)
    for (int t = 0; t < 4; ++t) EXPECT_NEAR(a[r][t], b[r][t], 1e-13) << r << " " << t;
}

}  // namespace
}  // namespace lqcd
