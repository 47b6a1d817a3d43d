#include "app/flow_input.hpp"

#include <fmt/format.h>

#include "app/input_values.hpp"
#include "core/error.hpp"

namespace lqcd::app {

namespace {

nlohmann::json optional_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

std::string optional_text(const std::optional<double>& v) {
  return v ? fmt::format("{:.4f}", *v) : std::string("not reached");
}

}  // namespace

std::vector<KeySpec> flow_schema(const std::string& unit) {
  const FlowParams d;
  return {
      {"flow.every", "0",
       fmt::format("Wilson flow of every N-th {} after thermalization (t0, w0, Q in PREFIX.flow.jsonl); 0: none", unit)},
      {"flow.action", "\"wilson\"",
       "the flow's action: wilson (plaquette), symanzik (Luscher-Weisz, c1 = -1/12) or zeuthen (Symanzik, O(a^2)-improved; Ramos-Sint)"},
      {"flow.epsilon", fmt::format("{}", d.epsilon), "flow step in t/a^2 (Luscher's RK3 integrator)"},
      {"flow.tolerance", "0.0",
       "0: fixed steps of flow.epsilon; > 0: adaptive steps (Fritzsch-Ramos) with this error bound per step (1e-5 is usual)"},
      {"flow.t_max", "0.0", "flow until this t/a^2; 0: until t0 and w0 are passed (at most t = L_min^2 / 32)"},
      {"flow.measure_every", "1", "flow steps between measurements of E and Q"},
  };
}

FlowInput read_flow_input(const Config& c) {
  FlowInput in;
  in.every = int(read_integer(c, "flow.every", 0, 1 << 30));
  in.params.action = flow_action_from_name(c.string("flow.action"), "flow.action");
  in.params.epsilon = c.real("flow.epsilon");
  in.params.t_max = c.real("flow.t_max");
  in.params.tolerance = c.real("flow.tolerance");
  in.params.measure_every = int(read_integer(c, "flow.measure_every", 1, 1 << 30));
  try {
    check_flow_params(in.params);
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  return in;
}

nlohmann::json flow_json(const FlowParams& p, const std::vector<FlowMeasurement>& history, const FlowScales& s) {
  nlohmann::json h = nlohmann::json::array();
  for (const FlowMeasurement& m : history)
    h.push_back({{"t", m.t},
                 {"steps", m.steps},
                 {"E_plaquette", m.energy_plaquette},
                 {"E_clover", m.energy_clover},
                 {"t2E_plaquette", m.t2E_plaquette()},
                 {"t2E_clover", m.t2E_clover()},
                 {"Q", m.charge}});
  return {{"flow", to_string(p.action)},
          {"integrator", "rk3"},
          {"epsilon", p.epsilon},
          {"tolerance", p.tolerance},
          {"units", "lattice: t/a^2, E a^4, w0/a"},
          {"t0", optional_json(s.t0)},
          {"w0", optional_json(s.w0)},
          {"history", h}};
}

std::string flow_summary(const std::vector<FlowMeasurement>& history, const FlowScales& s) {
  const FlowMeasurement& last = history.back();
  return fmt::format("t0/a^2 = {}, w0/a = {}, Q = {:.4f} at t/a^2 = {:.3f}", optional_text(s.t0), optional_text(s.w0),
                     last.charge, last.t);
}

FlowOfConfiguration flow_configuration(const GaugeField<double>& U, const FlowParams& p) {
  GaugeField<double> V = U.clone(U.location());
  const std::vector<FlowMeasurement> history = run_gradient_flow(V, p);
  const FlowScales scales = flow_scales(history);
  return {flow_json(p, history, scales), flow_summary(history, scales)};
}

}  // namespace lqcd::app
