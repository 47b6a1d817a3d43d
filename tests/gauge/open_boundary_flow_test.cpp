// The Wilson flow and its measurements with openQCD's open boundaries in time (gauge/gradient_flow.hpp;
// openQCD's modules/wflow/wflow.c, uflds/plaq_sum.c, tcharge/ym_action.c, tcharge/tcharge.c; M. Luscher,
// S. Schaefer, Comput. Phys. Commun. 184 (2013) 519, appendix B):
// - the generator is minus the derivative of the tree-level O(a)-improved plaquette action (c_G = 1),
//   doubled on the spatial links at x0 = 0 and T, and zero on the frozen links;
// - E(x0) and q(x0) of a constant abelian field equal their closed forms, slice by slice, with the
//   boundary slices' half weights and zero clover densities;
// - the flow keeps the frozen links zero, lowers the weighted action at every step, the slices are gauge
//   invariant, and host = device;
// - on a periodic lattice the slices add up to the scalar measurement;
// - an open-boundary configuration written in openQCD's format and read back is recognised as open.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <numbers>

#include "core/error.hpp"
#include "field_test_support.hpp"
#include "fields/lexicographic_gauge.hpp"
#include "gauge/gradient_flow.hpp"
#include "gauge/observables.hpp"
#include "gauge/open_boundary.hpp"
#include "gauge/updates.hpp"
#include "io/gauge_file.hpp"
#include "math/su3_exp.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

void expect_error_mentioning(const std::function<void()>& f, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning " << text;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TimeBoundary open_boundary(int n0) {
  TimeBoundary b;
  b.open = true;
  b.boundary_weight = 0.5;  // c_G = 1
  b.last = n0 - 1;
  return b;
}

// A rough field with the frozen links of an open lattice zero.
GaugeField<double> rough_open_field(const Geometry& g, Location loc, std::uint64_t seed) {
  GaugeField<double> U = test::rough_gauge(g, loc, seed, 6.0);
  apply_time_boundary(U, open_boundary(g.global[kTimeDir]));
  return U;
}

// diag(e^{i a}, e^{-i a}, 1)
SU3<double> abelian(double a) {
  SU3<double> u = SU3<double>::identity();
  u.m[0][0] = Complex<double>(std::cos(a), std::sin(a));
  u.m[1][1] = Complex<double>(std::cos(a), -std::sin(a));
  return u;
}

// The weighted action sum_p w(p) Re tr(1 - P) of openQCD's flow (c_G = 1): 3 times the weighted deficit.
double flow_action(const GaugeField<double>& U) {
  return 3 * open_boundary_plaquettes(U, open_boundary(U.geometry().global[kTimeDir])).weighted_deficit;
}

TEST(OpenBoundaryFlow, GeneratorIsTheImprovedActionsDerivativeDoubledOnTheBoundarysSpatialLinks) {
  const Dims L{4, 4, 4, 6};
  const Geometry g = Geometry::single_process(L);
  const GaugeField<double> U = rough_open_field(g, Location::Host, 5);
  const LexicographicGauge lex = to_lexicographic(U);
  const LexicographicGauge q = to_lexicographic(flow_generator(U, FlowAction::Wilson, true));
  const int n[4] = {L[0], L[1], L[2], L[3]};
  const auto site = [&](int x, int y, int z, int t) {
    return std::int64_t(x) + L[0] * (std::int64_t(y) + L[1] * (std::int64_t(z) + std::int64_t(L[2]) * t));
  };
  // (site, mu, the factor openQCD's wflow.c puts on the derivative there)
  struct Probe {
    std::int64_t s;
    int mu;
    double factor;
  };
  const Probe probes[] = {
      {site(1, 2, 3, 2), 0, 1.0},  // bulk, spatial
      {site(3, 1, 0, 3), 3, 1.0},  // bulk, time-like
      {site(2, 0, 1, 0), 1, 2.0},  // x0 = 0, spatial
      {site(0, 3, 2, 5), 2, 2.0},  // x0 = T, spatial
      {site(1, 1, 1, 0), 3, 1.0},  // x0 = 0, time-like
      {site(2, 3, 0, 4), 3, 1.0},  // x0 = T - 1, time-like: its plaquettes reach the boundary slice
  };
  std::vector<double> k;
  for (const Probe& pr : probes) {
    SiteRandom rng(7, std::uint64_t(pr.s), RngPurpose::Test, 0, 0);
    SU3<double> m = test::random_matrix(rng), h = m + dagger(m);
    const double tr = re_trace(h) / 3;
    for (int r = 0; r < 3; ++r) h.m[r][r].re -= tr;
    const double eps = 1e-4;
    double dS = 0;
    for (int sign : {+1, -1}) {
      LexicographicGauge v = lex;
      SU3<double> hs = h;
      hs *= sign * eps;
      v(pr.s, pr.mu) = exp_i(hs) * v(pr.s, pr.mu);
      dS += sign * flow_action(to_gauge_field(v, g, Location::Host));
    }
    dS /= 2 * eps;
    k.push_back(-pr.factor * dS / re_trace(q(pr.s, pr.mu) * h));
  }
  for (std::size_t i = 0; i < k.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_GT(k[i], 0);
    EXPECT_NEAR(k[i] / k[0], 1.0, 1e-6);
  }
  // the frozen links have no generator
  for (std::int64_t s = 0; s < lex.volume(); ++s) {
    int x[4];
    lexicographic_coords(s, n, x);
    if (x[3] == L[3] - 1) {
      ASSERT_EQ(re_trace(q(s, 3) * dagger(q(s, 3))), 0.0);
    }
  }
}

// Flux theta in every (x, y) plaquette (closed on the periodic x, y torus as in gradient_flow_test.cpp) and
// phi = 2 pi / Lz in every (z, t) plaquette between x0 and x0 + 1 < N0 (U_t(x) = exp(i phi z tau), closed in
// the periodic z; no plaquette crosses from T to 0). Per slice, written out by hand:
//   sum over the spatial plaquettes of Re tr(1 - P) = V3 2 (1 - cos theta), over the time-like ones from x0:
//   V3 2 (1 - cos phi) for x0 < T, 0 at T, so (openQCD's plaq_action_slices / V3)
//   E_plaq(0) = E_plaq(T) = 2 (1 - cos theta) + 2 (1 - cos phi), E_plaq(bulk) = 4 (1 - cos theta) + 4 (1 - cos phi);
//   E_clover = 2 sin^2 theta + 2 sin^2 phi and q = V3 sin theta sin phi / (2 pi^2) on 0 < x0 < T (the
//   leaves there are those of the bulk), 0 on x0 = 0 and T.
TEST(OpenBoundaryFlow, SlicesOfAConstantAbelianFieldAreTheirClosedForms) {
  const Dims L{4, 6, 4, 8};
  const int n[4] = {L[0], L[1], L[2], L[3]};
  const double theta = 2 * std::numbers::pi / (L[0] * L[1]), phi = 2 * std::numbers::pi / L[2];
  LexicographicGauge u(L);
  for (std::int64_t i = 0; i < u.volume(); ++i) {
    int x[4];
    lexicographic_coords(i, n, x);
    u(i, 0) = abelian(x[0] == L[0] - 1 ? -theta * L[0] * x[1] : 0.0);
    u(i, 1) = abelian(theta * x[0]);
    u(i, 2) = SU3<double>::identity();
    u(i, 3) = x[3] == L[3] - 1 ? SU3<double>::zero() : abelian(phi * x[2]);
  }
  for (Location loc : test::locations()) {
    SCOPED_TRACE(to_string(loc));
    const GaugeField<double> V = to_gauge_field(u, Geometry::single_process(L), loc);
    V.exchange_halo();
    const FlowSlices s = flow_slices(V, true);
    const double v3 = L[0] * L[1] * L[2];
    const double boundary = 2 * (1 - std::cos(theta)) + 2 * (1 - std::cos(phi));
    const double clover = 2 * std::sin(theta) * std::sin(theta) + 2 * std::sin(phi) * std::sin(phi);
    const double charge = v3 * std::sin(theta) * std::sin(phi) / (2 * std::numbers::pi * std::numbers::pi);
    ASSERT_EQ(s.energy_plaquette.size(), std::size_t(L[3]));
    for (int x0 = 0; x0 < L[3]; ++x0) {
      SCOPED_TRACE(x0);
      const bool edge = x0 == 0 || x0 == L[3] - 1;
      EXPECT_NEAR(s.energy_plaquette[std::size_t(x0)], edge ? boundary : 2 * boundary, 1e-13);
      EXPECT_NEAR(s.energy_clover[std::size_t(x0)], edge ? 0.0 : clover, 1e-13);
      EXPECT_NEAR(s.charge[std::size_t(x0)], edge ? 0.0 : charge, 1e-12);
    }
    // the scalar measurement: E over the central slices, Q their sum
    FlowParams p;
    p.open_boundary = true;
    const FlowMeasurement m = flow_measurement(V, 0.0, p);
    EXPECT_NEAR(m.energy_plaquette, 2 * boundary, 1e-13);
    EXPECT_NEAR(m.energy_clover, clover, 1e-13);
    EXPECT_NEAR(m.charge, (L[3] - 2) * charge, 1e-11);
  }
}

class OpenBoundaryFlowTest : public ::testing::TestWithParam<Location> {};

// The flow of a rough open field: the frozen links of a field that had none are set to zero, the weighted
// action falls at every step
// (a gradient flow: dS/dt = -sum m |dS/dU|^2 with m = 1 or 2), the slices do not change under a gauge
// transformation (to 1e-12 relative), and on the device the flowed links and slices equal the host's.
TEST_P(OpenBoundaryFlowTest, FlowKeepsTheFrozenLinksLowersTheActionAndIsGaugeInvariant) {
  const Location loc = GetParam();
  const Dims L{4, 4, 4, 8};
  const Geometry g = Geometry::single_process(L);
  FlowParams p;
  p.open_boundary = true;
  p.epsilon = 0.02;
  p.t_max = 0.4;
  p.measure_every = 2;
  GaugeField<double> V = rough_open_field(g, loc, 11), W = rough_open_field(g, loc, 11);
  random_gauge_transformation(W, 99);
  std::vector<double> action;
  const std::vector<FlowMeasurement> a = run_gradient_flow(V, p, [&](const FlowMeasurement& m) {
    double sum = 0;
    for (double e : m.slices->energy_plaquette) sum += e;
    action.push_back(sum);
  });
  const std::vector<FlowMeasurement> b = run_gradient_flow(W, p);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 1; k < action.size(); ++k) EXPECT_LT(action[k], action[k - 1]) << "measurement " << k;
  for (std::size_t k = 0; k < a.size(); ++k)
    for (std::size_t x0 = 0; x0 < std::size_t(L[3]); ++x0) {
      EXPECT_NEAR(a[k].slices->energy_plaquette[x0], b[k].slices->energy_plaquette[x0],
                  1e-12 * a[k].slices->energy_plaquette[x0]);
      EXPECT_NEAR(a[k].slices->energy_clover[x0], b[k].slices->energy_clover[x0],
                  1e-12 * a[k].slices->energy_clover[x0] + 1e-300);
      EXPECT_NEAR(a[k].slices->charge[x0], b[k].slices->charge[x0], 1e-11);
    }
  EXPECT_GT(a.back().t, 0.39);
  // a field with links at x0 = T (a periodic one): the open flow sets them to zero first (a zero link stays
  // zero under exp(i X) V whatever X; the generator test checks that X is zero there)
  GaugeField<double> P = test::rough_gauge(g, loc, 12, 6.0);
  ASSERT_FALSE(time_links_vanish_at_last_slice(P));
  FlowParams once = p;
  once.t_max = p.epsilon;
  (void)run_gradient_flow(P, once);
  EXPECT_TRUE(time_links_vanish_at_last_slice(P));
  if (loc == Location::Device) {
    GaugeField<double> H = rough_open_field(g, Location::Host, 11);
    const std::vector<FlowMeasurement> h = run_gradient_flow(H, p);
    EXPECT_LT(test::max_link_difference(to_lexicographic(V), to_lexicographic(H)), 1e-12);
    for (std::size_t x0 = 0; x0 < std::size_t(L[3]); ++x0)
      EXPECT_NEAR(a.back().slices->energy_clover[x0], h.back().slices->energy_clover[x0], 1e-12);
  }
}

// On a periodic lattice the slices' means are the scalar energies and their sum the charge, and each
// time-like plaquette is split between its two slices also across T -> 0.
TEST_P(OpenBoundaryFlowTest, PeriodicSlicesAddUpToTheMeasurement) {
  const Location loc = GetParam();
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> V = test::rough_gauge(g, loc, 3, 6.0);
  FlowParams p;
  p.slices = true;
  const FlowMeasurement m = flow_measurement(V, 0.0, p);
  ASSERT_TRUE(m.slices);
  double e = 0, c = 0, q = 0;
  for (std::size_t x0 = 0; x0 < 6; ++x0) {
    e += m.slices->energy_plaquette[x0] / 6;
    c += m.slices->energy_clover[x0] / 6;
    q += m.slices->charge[x0];
  }
  EXPECT_NEAR(e, m.energy_plaquette, 1e-13 * m.energy_plaquette);
  EXPECT_NEAR(c, m.energy_clover, 1e-13 * m.energy_clover);
  EXPECT_NEAR(q, m.charge, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Backends, OpenBoundaryFlowTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return to_string(info.param); });

// openQCD's file of an open lattice, written by lqcd and read back: `lqcd flow --boundary auto` finds it open
// by its zero links, and a periodic field's file is not taken for one.
TEST(OpenBoundaryFlow, OpenQcdFileOfAnOpenLatticeIsRecognised) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const test::TempDir dir;
  const auto round_trip = [&](const GaugeField<double>& U) {
    const std::filesystem::path file = dir.path() / "cnfg";
    io::WriteOptions options;
    options.plaquette = gauge_observables(U).plaquette;  // openQCD's header: the mean over all 6V, zeros included
    io::write_openqcd(file, to_lexicographic(U), options);
    const LexicographicGauge back = io::read_gauge_file(file).field;
    EXPECT_EQ(test::max_link_difference(back, to_lexicographic(U)), 0.0);
    return time_links_vanish_at_last_slice(to_gauge_field(back, g, Location::Host));
  };
  EXPECT_TRUE(round_trip(rough_open_field(g, Location::Host, 4)));
  EXPECT_FALSE(round_trip(test::rough_gauge(g, Location::Host, 4, 6.0)));
}

TEST(OpenBoundaryFlow, RefusesWhatItDoesNotDefine) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = rough_open_field(g, Location::Host, 2);
  FlowParams p;
  p.open_boundary = true;
  p.action = FlowAction::Zeuthen;
  expect_error_mentioning([&] { check_flow_params(p); }, "flow.action");
  p.action = FlowAction::Wilson;
  p.improved_charge = true;
  expect_error_mentioning([&] { check_flow_params(p); }, "flow.improved_charge");
  expect_error_mentioning([&] { (void)flow_generator(U, FlowAction::Symanzik, true); }, "Wilson flow only");
}

}  // namespace
}  // namespace lqcd
