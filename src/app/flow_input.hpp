#pragma once
// The [flow] block of lqcd heatbath and lqcd hmc (the Wilson flow of every N-th configuration after
// thermalization, issue 29) and the JSON record of one flow, shared with lqcd flow.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/config.hpp"
#include "gauge/gradient_flow.hpp"

namespace lqcd::app {

struct FlowInput {
  int every = 0;  // configurations between flows after thermalization; 0: no flow
  FlowParams params;
};

// flow.every, flow.epsilon, flow.t_max, flow.measure_every with their defaults and help.
std::vector<KeySpec> flow_schema(const std::string& unit);
// Throws lqcd::Error naming the file and the key.
FlowInput read_flow_input(const Config& c);

// {"t0", "w0" (null when not reached), "epsilon", "history": [{"t", "E_plaquette", "E_clover",
// "t2E_plaquette", "t2E_clover", "Q"}]} and the flow's description, in lattice units.
nlohmann::json flow_json(const FlowParams& p, const std::vector<FlowMeasurement>& history, const FlowScales& s);
// "t0/a^2 = 3.1977, w0/a = 1.8005, Q = 2.03 at t = 4.50" (or "not reached").
std::string flow_summary(const std::vector<FlowMeasurement>& history, const FlowScales& s);

// The flow of a copy of U (U is unchanged): its flow_json record and its flow_summary line.
struct FlowOfConfiguration {
  nlohmann::json record;
  std::string summary;
};
FlowOfConfiguration flow_configuration(const GaugeField<double>& U, const FlowParams& p);

}  // namespace lqcd::app
