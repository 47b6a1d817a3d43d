#include "gauge/gradient_flow.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "gauge/gradient_flow_kernels.hpp"
#include "gauge/open_boundary.hpp"

namespace lqcd {

namespace {

// The improved charge of V whose halo is current.
double improved_charge_of_exchanged(const GaugeField<double>& V) {
  const Geometry& g = V.geometry();
  // The 2x1 and 1x2 leaves read links two sites away: a direction with a halo needs both layers
  // (lqcd's decompositions give every split direction depth 2; the check guards other geometries).
  for (int mu = 0; mu < 4; ++mu)
    if (g.halo[mu] > 0 && g.halo[mu] < 2)
      fail("improved topological charge: the rectangles need a halo of depth 2, direction {} has {}", mu, g.halo[mu]);
  Sums<1> s = reduce<Sums<1>>(V.location(), g.volume(), ImprovedChargeKernel{V.view()});
  comm::sum(g.grid, s.v);
  return s[0];
}

}  // namespace

FlowMeasurement flow_measurement(const GaugeField<double>& V, double t, bool improved_charge) {
  FlowParams p;
  p.improved_charge = improved_charge;
  return flow_measurement(V, t, p);
}

std::pair<int, int> open_boundary_bulk_slices(int time_extent) {
  const int d = time_extent / 4;
  return {d, time_extent - 1 - d};
}

FlowMeasurement flow_measurement(const GaugeField<double>& V, double t, const FlowParams& p) {
  const Geometry& g = V.geometry();
  V.exchange_halo();  // the clover leaves reach one site back and forth, the rectangles two
  FlowMeasurement m;
  m.t = t;
  if (p.slices || p.open_boundary) m.slices = flow_slices(V, p.open_boundary);
  if (p.open_boundary) {  // the central slices' mean E, the whole Q (gradient_flow.hpp)
    const auto [first, last] = open_boundary_bulk_slices(g.global[kTimeDir]);
    for (int x0 = first; x0 <= last; ++x0) {
      m.energy_plaquette += m.slices->energy_plaquette[std::size_t(x0)] / (last - first + 1);
      m.energy_clover += m.slices->energy_clover[std::size_t(x0)] / (last - first + 1);
    }
    for (double q : m.slices->charge) m.charge += q;
    return m;
  }
  Sums<3> s = reduce<Sums<3>>(V.location(), g.volume(), FlowObservablesKernel{V.view()});
  comm::sum(g.grid, s.v);
  const double volume = double(g.global_volume());
  m.energy_plaquette = s[0] / volume;
  m.energy_clover = s[1] / volume;
  m.charge = s[2];
  if (p.improved_charge) m.charge_improved = improved_charge_of_exchanged(V);
  return m;
}

namespace {

// c_G = 1: the flow's action is openQCD's tree-level O(a)-improved plaquette action.
TimeBoundary flow_time_boundary(bool open, int time_extent) {
  TimeBoundary b;
  b.open = open;
  b.boundary_weight = open ? 0.5 : 1.0;
  b.last = time_extent - 1;
  return b;
}

}  // namespace

FlowSlices flow_slices(const GaugeField<double>& V, bool open_boundary) {
  const Geometry& g = V.geometry();
  const int n0 = g.global[kTimeDir];
  const TimeBoundary b = flow_time_boundary(open_boundary, n0);
  const std::int64_t spatial = std::int64_t(g.local[0]) * g.local[1] * g.local[2];
  // [4 x0 + k]: the FlowSliceKernel sums of global slice x0, added over the process grid in rank order
  std::vector<double> sums(4 * std::size_t(n0), 0.0);
  for (int lt = 0; lt < g.local[kTimeDir]; ++lt) {
    const Sums<4> s = reduce<Sums<4>>(V.location(), spatial, FlowSliceKernel{V.view(), b, lt * spatial});
    for (int k = 0; k < 4; ++k) sums[4 * std::size_t(lt + g.offset[kTimeDir]) + std::size_t(k)] = s[k];
  }
  comm::sum(g.grid, std::span<double>(sums));
  const double v3 = double(g.global[0]) * g.global[1] * g.global[2];
  FlowSlices out;
  for (int x0 = 0; x0 < n0; ++x0) {
    const std::size_t here = 4 * std::size_t(x0), before = 4 * std::size_t((x0 + n0 - 1) % n0);
    // openQCD's plaq_action_slices: the spatial plaquettes (weighted) twice, each time-like plaquette split
    // between its two slices (with open boundaries none crosses from T to 0: the kernel left them out)
    const double w = b.spatial_weight(x0);
    out.energy_plaquette.push_back((2 * w * sums[here] + sums[here + 1] + sums[before + 1]) / v3);
    out.energy_clover.push_back(sums[here + 2] / v3);
    out.charge.push_back(sums[here + 3]);
  }
  return out;
}

double improved_topological_charge(const GaugeField<double>& V) {
  V.exchange_halo();
  return improved_charge_of_exchanged(V);
}

std::string to_string(FlowAction a) {
  switch (a) {
    case FlowAction::Wilson: return "wilson";
    case FlowAction::Symanzik: return "symanzik";
    case FlowAction::Zeuthen: return "zeuthen";
  }
  return "?";
}

FlowAction flow_action_from_name(const std::string& name, const std::string& key) {
  for (FlowAction a : {FlowAction::Wilson, FlowAction::Symanzik, FlowAction::Zeuthen})
    if (name == to_string(a)) return a;
  fail("{}: unknown flow \"{}\" (expected \"wilson\", \"symanzik\" or \"zeuthen\")", key, name);
}

namespace {

// X <- a q(V) + b X on every link, q the generator of `action` (Zeuthen: from the Symanzik generator in
// q, exchanged, by the second kernel).
void accumulate_generator(GaugeField<double>& V, GaugeField<double>& X, std::optional<GaugeField<double>>& q,
                          FlowAction action, const TimeBoundary& boundary, double a, double b) {
  const Location loc = V.location();
  const std::int64_t volume = V.geometry().volume();
  V.exchange_halo();  // the staples read the neighbours of each link
  switch (action) {
    case FlowAction::Wilson:
      for_each(loc, volume, FlowStageKernel<false>{V.view(), X.view(), a, b, 1.0, 0.0, boundary});
      break;
    case FlowAction::Symanzik:
      for_each(loc, volume, FlowStageKernel<true>{V.view(), X.view(), a, b, kLuscherWeiszC0, kLuscherWeiszC1});
      break;
    case FlowAction::Zeuthen:
      for_each(loc, volume, FlowStageKernel<true>{V.view(), q->view(), 1.0, 0.0, kLuscherWeiszC0, kLuscherWeiszC1});
      q->exchange_halo();
      for_each(loc, volume, ZeuthenSmoothingKernel{V.view(), q->view(), X.view(), a, b});
      break;
  }
}

void check_open_flow(FlowAction action, bool open) {
  if (open && action != FlowAction::Wilson)
    fail("flow.action: open boundaries take the Wilson flow only (openQCD's; the {} flow's rectangles have no "
         "boundary terms here), got \"{}\"", to_string(action), to_string(action));
}

}  // namespace

GaugeField<double> flow_generator(const GaugeField<double>& V, FlowAction action, bool open_boundary) {
  check_open_flow(action, open_boundary);
  GaugeField<double> W = V.clone(V.location()), X(V.geometry(), V.location());
  std::optional<GaugeField<double>> q;
  if (action == FlowAction::Zeuthen) q.emplace(V.geometry(), V.location());
  accumulate_generator(W, X, q, action, flow_time_boundary(open_boundary, V.geometry().global[kTimeDir]), 1.0, 0.0);
  return X;
}

GradientFlow::GradientFlow(const GaugeField<double>& like, FlowAction action, bool open_boundary)
    : action_(action),
      boundary_(flow_time_boundary(open_boundary, like.geometry().global[kTimeDir])),
      X_(like.geometry(), like.location()) {
  check_open_flow(action, open_boundary);
  if (action == FlowAction::Zeuthen) q_.emplace(like.geometry(), like.location());
}

void GradientFlow::step(GaugeField<double>& V, double epsilon) {
  // (a, b) of X <- a eps q(W) + b X for the three stages (header: X = Z_0/4, 8/9 Z_1 - 17/9 X, 3/4 Z_2 - X).
  static constexpr double kStage[3][2] = {{0.25, 0.0}, {8.0 / 9.0, -17.0 / 9.0}, {0.75, -1.0}};
  const Location loc = V.location();
  const std::int64_t volume = V.geometry().volume();
  for (const auto& [a, b] : kStage) {
    accumulate_generator(V, X_, q_, action_, boundary_, a * epsilon, b);
    for_each(loc, volume, FlowUpdateKernel{V.view(), X_.view()});
  }
}

double GradientFlow::step_with_error(GaugeField<double>& V, double epsilon) {
  const Location loc = V.location();
  const Geometry& g = V.geometry();
  const std::int64_t volume = g.volume();
  if (!W1_) {
    W1_.emplace(g, loc);
    Y_.emplace(g, loc);
  }
  accumulate_generator(V, X_, q_, action_, boundary_, 0.25 * epsilon, 0.0);  // X = Z0 / 4
  for_each(loc, volume, FlowUpdateKernel{V.view(), X_.view()});
  W1_->copy_from(V);
  accumulate_generator(V, *Y_, q_, action_, boundary_, epsilon, 0.0);  // Y = Z1
  for_each(loc, volume, FlowEmbeddedStageKernel{X_.view(), Y_->view()});
  for_each(loc, volume, FlowUpdateKernel{V.view(), X_.view()});
  accumulate_generator(V, X_, q_, action_, boundary_, 0.75 * epsilon, -1.0);
  for_each(loc, volume, FlowUpdateKernel{V.view(), X_.view()});
  for_each(loc, volume, FlowUpdateKernel{W1_->view(), Y_->view()});  // the second-order result
  const Maximum d = reduce<Maximum>(loc, volume, LinkDistanceKernel{V.view(), W1_->view()});
  // NaN as +inf before the global maximum (MPI_MAX need not keep NaN); the caller refuses either.
  return comm::max(g.grid, std::isnan(d.v) ? std::numeric_limits<double>::infinity() : d.v);
}

void check_flow_params(const FlowParams& p) {
  if (!(p.epsilon > 0) || !(p.epsilon <= 0.5))
    fail("flow.epsilon: expected a step in (0, 0.5] (t/a^2; 0.01 is usual), got {}", p.epsilon);
  if (!(p.t_max >= 0) || !std::isfinite(p.t_max))
    fail("flow.t_max: expected 0 (until t0 and w0) or a positive flow time t/a^2, got {}", p.t_max);
  if (p.measure_every < 1) fail("flow.measure_every: expected at least 1 step, got {}", p.measure_every);
  if (!(p.tolerance >= 0) || !(p.tolerance < 1))
    fail("flow.tolerance: expected 0 (fixed steps) or an error bound per step in (0, 1) (1e-5 is usual), got {}",
         p.tolerance);
  check_open_flow(p.action, p.open_boundary);
  if (p.open_boundary && p.improved_charge)
    fail("flow.improved_charge: not with open boundaries (its rectangles have no boundary terms; openQCD measures "
         "the clover charge)");
}

std::vector<FlowMeasurement> run_gradient_flow(GaugeField<double>& V, const FlowParams& p,
                                             const std::function<void(const FlowMeasurement&)>& each) {
  check_flow_params(p);
  const Dims& L = V.geometry().global;
  const double l_min = double(*std::min_element(L.begin(), L.end()));
  const double t_end = p.t_max > 0 ? p.t_max : l_min * l_min / 32;
  std::vector<FlowMeasurement> history;
  long n = 0;  // accepted steps
  // openQCD's open lattice: the frozen links zero (gauge/open_boundary.hpp), whatever the file held there
  if (p.open_boundary) apply_time_boundary(V, flow_time_boundary(true, V.geometry().global[kTimeDir]));
  const auto measure = [&](double t) {
    history.push_back(flow_measurement(V, t, p));
    history.back().steps = int(n);
    if (each) each(history.back());
  };
  // Automatic end: both scales passed (W at the last two measurements' mid time above the reference).
  const auto done = [&] {
    if (p.t_max != 0 || history.size() < 3) return false;
    const FlowScales s = flow_scales(history);
    return s.t0 && s.w0;
  };
  measure(0);
  GradientFlow flow(V, p.action, p.open_boundary);
  if (p.tolerance == 0) {
    const long steps = std::lround(std::ceil(t_end / p.epsilon - 1e-9));
    for (n = 1; n <= steps; ++n) {
      flow.step(V, p.epsilon);
      if (n % p.measure_every == 0 || n == steps) {
        measure(double(n) * p.epsilon);
        if (done()) break;
      }
    }
    return history;
  }
  GaugeField<double> start(V.geometry(), V.location());  // V_t, for a rejected step
  double t = 0, eps = p.epsilon;
  while (t < t_end * (1 - 1e-12)) {
    const bool last = t + eps >= t_end * (1 - 1e-12);
    const double h = last ? t_end - t : eps;
    start.copy_from(V);
    const double d = flow.step_with_error(V, h);
    // A non-finite estimate means non-finite links (the input, or a step that blew up): no shorter step
    // repairs the first, so stop with the flow time rather than retry.
    if (!std::isfinite(d)) fail("flow: the adaptive step's error estimate is {} at t = {} (non-finite links?)", d, t);
    const double factor = d > 0 ? 0.95 * std::cbrt(p.tolerance / d) : 5.0;
    if (!(d <= p.tolerance)) {  // rejected: back to V_t with a shorter step
      V.copy_from(start);
      if (h * factor < 1e-12) fail("flow: the adaptive step fell below 1e-12 at t = {} (error {})", t, d);
      eps = h * factor;
      continue;
    }
    t = last ? t_end : t + h;
    ++n;
    eps = last ? eps : h * std::min(factor, 5.0);
    if (n % p.measure_every == 0 || last) {
      measure(t);
      if (done()) break;
    }
  }
  return history;
}

FlowScales flow_scales(const std::vector<FlowMeasurement>& h, double reference) {
  std::vector<double> t, t2E;
  for (const FlowMeasurement& m : h) {
    t.push_back(m.t);
    t2E.push_back(m.t2E_clover());
  }
  return flow_scales(t, t2E, reference);
}

FlowScales flow_scales(const std::vector<double>& t, const std::vector<double>& y, double reference) {
  if (t.size() != y.size()) fail("flow scales: {} flow times for {} values of t^2 E", t.size(), y.size());
  FlowScales s;
  for (std::size_t k = 1; k < t.size() && !s.t0; ++k)
    if (y[k - 1] < reference && y[k] >= reference)
      s.t0 = t[k - 1] + (reference - y[k - 1]) / (y[k] - y[k - 1]) * (t[k] - t[k - 1]);
  // W at the mid times of neighbouring measurements.
  std::vector<std::pair<double, double>> w;
  for (std::size_t k = 1; k < t.size(); ++k) {
    const double dt = t[k] - t[k - 1];
    if (!(dt > 0)) continue;
    const double mid = 0.5 * (t[k] + t[k - 1]);
    w.emplace_back(mid, mid * (y[k] - y[k - 1]) / dt);
  }
  for (std::size_t k = 1; k < w.size() && !s.w0; ++k)
    if (w[k - 1].second < reference && w[k].second >= reference) {
      const double tw = w[k - 1].first +
                        (reference - w[k - 1].second) / (w[k].second - w[k - 1].second) * (w[k].first - w[k - 1].first);
      s.w0 = std::sqrt(tw);
    }
  return s;
}

}  // namespace lqcd
