#include "gauge/gradient_flow.hpp"

#include <algorithm>
#include <cmath>

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "gauge/gradient_flow_kernels.hpp"

namespace lqcd {

FlowMeasurement flow_measurement(const GaugeField<double>& V, double t) {
  const Geometry& g = V.geometry();
  V.exchange_halo();  // the clover leaves reach one site back and forth
  Sums<3> s = reduce<Sums<3>>(V.location(), g.volume(), FlowObservablesKernel{V.view()});
  comm::sum(g.grid, s.v);
  const double volume = double(g.global_volume());
  return {t, s[0] / volume, s[1] / volume, s[2]};
}

WilsonFlow::WilsonFlow(const GaugeField<double>& like) : X_(like.geometry(), like.location()) {}

void WilsonFlow::step(GaugeField<double>& V, double epsilon) {
  // (a, b) of X <- a eps q(W) + b X for the three stages (header: X = Z_0/4, 8/9 Z_1 - 17/9 X, 3/4 Z_2 - X).
  static constexpr double kStage[3][2] = {{0.25, 0.0}, {8.0 / 9.0, -17.0 / 9.0}, {0.75, -1.0}};
  const Location loc = V.location();
  const std::int64_t volume = V.geometry().volume();
  for (const auto& [a, b] : kStage) {
    V.exchange_halo();  // the staples read the neighbours of each link
    for_each(loc, volume, WilsonFlowStageKernel{V.view(), X_.view(), a * epsilon, b});
    for_each(loc, volume, FlowUpdateKernel{V.view(), X_.view()});
  }
}

void check_flow_params(const FlowParams& p) {
  if (!(p.epsilon > 0) || !(p.epsilon <= 0.5))
    fail("flow.epsilon: expected a step in (0, 0.5] (t/a^2; 0.01 is usual), got {}", p.epsilon);
  if (!(p.t_max >= 0) || !std::isfinite(p.t_max))
    fail("flow.t_max: expected 0 (until t0 and w0) or a positive flow time t/a^2, got {}", p.t_max);
  if (p.measure_every < 1) fail("flow.measure_every: expected at least 1 step, got {}", p.measure_every);
}

std::vector<FlowMeasurement> run_wilson_flow(GaugeField<double>& V, const FlowParams& p,
                                             const std::function<void(const FlowMeasurement&)>& each) {
  check_flow_params(p);
  const Dims& L = V.geometry().global;
  const double l_min = double(*std::min_element(L.begin(), L.end()));
  const double t_end = p.t_max > 0 ? p.t_max : l_min * l_min / 32;
  std::vector<FlowMeasurement> history;
  const auto measure = [&](double t) {
    history.push_back(flow_measurement(V, t));
    if (each) each(history.back());
  };
  measure(0);
  WilsonFlow flow(V);
  const long steps = std::lround(std::ceil(t_end / p.epsilon - 1e-9));
  for (long n = 1; n <= steps; ++n) {
    flow.step(V, p.epsilon);
    const double t = double(n) * p.epsilon;
    if (n % p.measure_every == 0 || n == steps) {
      measure(t);
      // Automatic end: both scales passed (W at the last two measurements' mid time above the reference).
      if (p.t_max == 0 && history.size() >= 3) {
        const FlowScales s = flow_scales(history);
        if (s.t0 && s.w0) break;
      }
    }
  }
  return history;
}

FlowScales flow_scales(const std::vector<FlowMeasurement>& h, double reference) {
  FlowScales s;
  for (std::size_t k = 1; k < h.size() && !s.t0; ++k) {
    const double y0 = h[k - 1].t2E_clover(), y1 = h[k].t2E_clover();
    if (y0 < reference && y1 >= reference)
      s.t0 = h[k - 1].t + (reference - y0) / (y1 - y0) * (h[k].t - h[k - 1].t);
  }
  // W at the mid times of neighbouring measurements.
  std::vector<std::pair<double, double>> w;
  for (std::size_t k = 1; k < h.size(); ++k) {
    const double dt = h[k].t - h[k - 1].t;
    if (!(dt > 0)) continue;
    const double t = 0.5 * (h[k].t + h[k - 1].t);
    w.emplace_back(t, t * (h[k].t2E_clover() - h[k - 1].t2E_clover()) / dt);
  }
  for (std::size_t k = 1; k < w.size() && !s.w0; ++k)
    if (w[k - 1].second < reference && w[k].second >= reference) {
      const double t = w[k - 1].first +
                       (reference - w[k - 1].second) / (w[k].second - w[k - 1].second) * (w[k].first - w[k - 1].first);
      s.w0 = std::sqrt(t);
    }
  return s;
}

}  // namespace lqcd
