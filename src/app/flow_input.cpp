#include "app/flow_input.hpp"

#include <cmath>
#include <fstream>
#include <limits>

#include <fmt/format.h>

#include "app/input_values.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "io/hdf5_flow.hpp"

namespace lqcd::app {

namespace {

nlohmann::json optional_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

std::string optional_text(const std::optional<double>& v) {
  return v ? fmt::format("{:.4f}", *v) : std::string("not reached");
}

// j[key] as a number; NaN where it is missing or null (nlohmann::json writes a non-finite double as null).
double number_or_nan(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

std::vector<double> slice_row(const FlowSlices& s) {
  std::vector<double> row = s.energy_plaquette;
  row.insert(row.end(), s.energy_clover.begin(), s.energy_clover.end());
  row.insert(row.end(), s.charge.begin(), s.charge.end());
  return row;
}

std::vector<double> slice_row(const nlohmann::json& j) {
  FlowSlices s;
  s.energy_plaquette = j.at("E_plaquette").get<std::vector<double>>();
  s.energy_clover = j.at("E_clover").get<std::vector<double>>();
  s.charge = j.at("Q").get<std::vector<double>>();
  return slice_row(s);
}

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
      {"flow.improved_charge", "false",
       "also the O(a^2)-improved topological charge Q_improved (5/3 clover - 1/3 of the 1x2 and 2x1 rectangles; "
       "Bilson-Thompson et al. 2003), several times the clover measurement's cost"},
      {"flow.hdf5", "false",
       "at the end of the run (also a resumed one) write the whole PREFIX.flow.jsonl history also as PREFIX.flow.h5, "
       "the format of lqcd flow --hdf5"},
  };
}

FlowInput read_flow_input(const Config& c, bool open_boundary) {
  FlowInput in;
  in.every = int(read_integer(c, "flow.every", 0, 1 << 30));
  in.params.action = flow_action_from_name(c.string("flow.action"), "flow.action");
  in.params.epsilon = c.real("flow.epsilon");
  in.params.t_max = c.real("flow.t_max");
  in.params.tolerance = c.real("flow.tolerance");
  in.params.measure_every = int(read_integer(c, "flow.measure_every", 1, 1 << 30));
  in.params.improved_charge = c.boolean("flow.improved_charge");
  in.params.open_boundary = open_boundary && in.every > 0;  // its refusals only where a flow runs
  in.hdf5 = c.boolean("flow.hdf5");
  try {
    check_flow_params(in.params);
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  return in;
}

nlohmann::json flow_json(const FlowParams& p, const std::vector<FlowMeasurement>& history, const FlowScales& s) {
  nlohmann::json h = nlohmann::json::array();
  for (const FlowMeasurement& m : history) {
    h.push_back({{"t", m.t},
                 {"steps", m.steps},
                 {"E_plaquette", m.energy_plaquette},
                 {"E_clover", m.energy_clover},
                 {"t2E_plaquette", m.t2E_plaquette()},
                 {"t2E_clover", m.t2E_clover()},
                 {"Q", m.charge}});
    if (m.charge_improved) h.back()["Q_improved"] = *m.charge_improved;
    if (m.slices)
      h.back()["slices"] = {{"E_plaquette", m.slices->energy_plaquette},
                            {"E_clover", m.slices->energy_clover},
                            {"Q", m.slices->charge}};
  }
  return {{"flow", to_string(p.action)},
          {"integrator", "rk3"},
          {"epsilon", p.epsilon},
          {"tolerance", p.tolerance},
          {"units", "lattice: t/a^2, E a^4, w0/a"},
          {"boundary", p.open_boundary ? "open" : "periodic"},
          {"t0", optional_json(s.t0)},
          {"w0", optional_json(s.w0)},
          {"history", h}};
}

std::string flow_summary(const std::vector<FlowMeasurement>& history, const FlowScales& s) {
  const FlowMeasurement& last = history.back();
  return fmt::format("t0/a^2 = {}, w0/a = {}, Q = {:.4f}{} at t/a^2 = {:.3f}", optional_text(s.t0), optional_text(s.w0),
                     last.charge,
                     last.charge_improved ? fmt::format(" (improved {:.4f})", *last.charge_improved) : std::string(),
                     last.t);
}

FlowOfConfiguration flow_configuration(const GaugeField<double>& U, const FlowParams& p) {
  GaugeField<double> V = U.clone(U.location());
  const std::vector<FlowMeasurement> history = run_gradient_flow(V, p);
  const FlowScales scales = flow_scales(history);
  return {flow_json(p, history, scales), flow_summary(history, scales)};
}

io::FlowHistoryFile flow_history_file(const FlowParams& p) {
  io::FlowHistoryFile f;
  f.string_attributes = {{"action", to_string(p.action)}, {"integrator", "rk3"},
                         {"units", "lattice: t/a^2, E a^4, w0/a"}, {"program", version_string()},
                         {"boundary", p.open_boundary ? "open" : "periodic"}};
  f.number_attributes = {{"epsilon", p.epsilon}, {"tolerance", p.tolerance}};
  return f;
}

std::size_t write_flow_history_hdf5(const std::filesystem::path& jsonl, const std::filesystem::path& h5,
                                    const std::string& counter, const FlowParams& p) {
  if (comm::rank() != 0) return 0;  // rank 0 writes the JSON lines (JsonLines), hence reads them
  io::FlowHistoryFile out = flow_history_file(p);
  out.string_attributes["source"] = jsonl.filename().string();
  std::ifstream in(jsonl);
  if (!in) fail("{}: cannot read the flow history for {}", jsonl.string(), h5.string());
  for (std::string line; std::getline(in, line);) {
    // A line cut by a killed run (the last one, at most: io/append_file.hpp) is not a record.
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("history") || !j["history"].is_array()) continue;
    io::FlowHistoryRecord r;
    if (j.contains("file") && j["file"].is_string())
      r.file = j["file"].get<std::string>();
    else if (j.contains(counter) && j[counter].is_number_integer())
      r.file = fmt::format("{} {}", counter, j[counter].get<long>());
    else
      r.file = fmt::format("record {}", out.records.size());
    if (j.contains("boundary") && j["boundary"].is_string()) r.boundary = j["boundary"].get<std::string>();
    r.t0 = number_or_nan(j, "t0");
    r.w0 = number_or_nan(j, "w0");
    bool improved = false;
    for (const nlohmann::json& m : j["history"]) improved = improved || m.contains("Q_improved");
    for (const nlohmann::json& m : j["history"]) {
      r.rows.push_back({number_or_nan(m, "t"), number_or_nan(m, "steps"), number_or_nan(m, "E_plaquette"),
                        number_or_nan(m, "E_clover"), number_or_nan(m, "t2E_plaquette"), number_or_nan(m, "t2E_clover"),
                        number_or_nan(m, "Q")});
      if (improved) r.charge_improved.push_back(number_or_nan(m, "Q_improved"));
      if (m.contains("slices")) r.slices.push_back(slice_row(m["slices"]));
    }
    out.records.push_back(std::move(r));
  }
  io::write_flow_hdf5(h5, out);
  return out.records.size();
}

}  // namespace lqcd::app
