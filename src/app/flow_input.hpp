#pragma once
// The [flow] block of lqcd heatbath and lqcd hmc (the Wilson flow of every N-th configuration after
// thermalization, issue 29) and the JSON record of one flow, shared with lqcd flow.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/config.hpp"
#include "gauge/gradient_flow.hpp"
#include "io/hdf5_flow.hpp"

namespace lqcd::app {

struct FlowInput {
  int every = 0;  // configurations between flows after thermalization; 0: no flow
  FlowParams params;
  bool hdf5 = false;  // at the end of the run, PREFIX.flow.jsonl also as PREFIX.flow.h5 (write_flow_history_hdf5)
};

// flow.every, flow.action, flow.epsilon, flow.tolerance, flow.t_max, flow.measure_every,
// flow.improved_charge and flow.hdf5 with their defaults and help.
std::vector<KeySpec> flow_schema(const std::string& unit);
// Throws lqcd::Error naming the file and the key.
// open_boundary: the run's lattice has open boundaries in time (the flow then is openQCD's).
FlowInput read_flow_input(const Config& c, bool open_boundary);

// {"t0", "w0" (null when not reached), "epsilon", "history": [{"t", "steps", "E_plaquette", "E_clover",
// "t2E_plaquette", "t2E_clover", "Q", and "Q_improved" when measured}]} and the flow's description, in
// lattice units.
nlohmann::json flow_json(const FlowParams& p, const std::vector<FlowMeasurement>& history, const FlowScales& s);
// "t0/a^2 = 3.1977, w0/a = 1.8005, Q = 2.03 at t = 4.50" (or "not reached").
std::string flow_summary(const std::vector<FlowMeasurement>& history, const FlowScales& s);

// The flow of a copy of U (U is unchanged): its flow_json record and its flow_summary line.
struct FlowOfConfiguration {
  nlohmann::json record;
  std::string summary;
};
FlowOfConfiguration flow_configuration(const GaugeField<double>& U, const FlowParams& p);

// flow.hdf5 of lqcd heatbath / lqcd hmc: the records of the JSON-lines history `jsonl` (every line with a
// "history"; a resumed run's file holds the whole chain) written to `h5` in the format of lqcd flow --hdf5
// (io/hdf5_flow.hpp), one group per record in file order, atomically (an existing file is replaced).
// Each group's `file` attribute is the record's "file" (the configuration saved after that sweep or
// trajectory) or else "COUNTER N" (counter: "sweep" or "trajectory"); the root attributes describe `p`.
// Rank 0 writes; other ranks return at once. Returns the number of records written.
// An empty flow-history file whose root attributes describe the flow `p` (action, integrator, units,
// program, epsilon, tolerance): lqcd flow --hdf5 and write_flow_history_hdf5 fill its records.
io::FlowHistoryFile flow_history_file(const FlowParams& p);
// One row of io::FlowHistoryRecord::slices: E_plaq(x0), E_clover(x0), q(x0) in turn; from a measurement or
// from its JSON "slices" object (flow_json).
std::vector<double> slice_row(const FlowSlices& s);
std::vector<double> slice_row(const nlohmann::json& j);

std::size_t write_flow_history_hdf5(const std::filesystem::path& jsonl, const std::filesystem::path& h5,
                                    const std::string& counter, const FlowParams& p);

}  // namespace lqcd::app
