#include "app/flow_command.hpp"
#include "app/output.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/device_choice.hpp"
#include "app/flow_input.hpp"
#include "app/input_values.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "gauge/gradient_flow.hpp"
#include "io/hdf5_flow.hpp"
#include "measure/configuration.hpp"

namespace lqcd::app {

namespace {
std::string flow_name(FlowAction a) {
  switch (a) {
    case FlowAction::Wilson: return "Wilson";
    case FlowAction::Symanzik: return "Symanzik (Luscher-Weisz)";
    case FlowAction::Zeuthen: return "Zeuthen";
  }
  return "?";
}
}  // namespace

int run_flow(const FlowCommandOptions& opt) {
  FlowParams params;
  params.action = flow_action_from_name(opt.action, "--action");
  params.epsilon = opt.epsilon;
  params.t_max = opt.t_max;
  params.tolerance = opt.tolerance;
  params.measure_every = opt.measure_every;
  params.improved_charge = opt.improved_charge;
  check_flow_params(params);  // the command line's checks (main.cpp) refuse these first
  LoadPolicy policy;
  policy.verify = !opt.no_verify;
  policy.location = choose_location(opt.device);
  const bool printer = comm::rank() == 0;
  std::error_code ec;
  if (!opt.hdf5.empty() && std::filesystem::exists(std::filesystem::symlink_status(opt.hdf5, ec)) && !opt.force)
    fail("--hdf5: {} exists already (use --force to replace it)", opt.hdf5);
  io::FlowHistoryFile h5 = flow_history_file(params);
  int failures = 0;
  // Several configurations: how far through them (stderr; the measurements themselves go to stdout).
  CountProgress progress(!opt.json && opt.files.size() > 1, "flow: configurations", long(opt.files.size()));
  long files_done = 0;
  for (const std::string& file : opt.files) {
    policy.decompose = [&](const Dims& global) { return decompose_over_run(global, opt.grid, file); };
    try {
      LoadedConfiguration c = load_configuration(file, policy);
      if (printer && !opt.json)
        std::cout << fmt::format(
            "{}\n  {} flow (Luscher RK3), {} (t/a^2); E a^4 from the plaquette and from the clover "
            "field strength; Q clover{}\n  {:>9} {:>14} {:>14} {:>12} {:>12} {:>10}{}\n",
            file, flow_name(params.action),
            params.tolerance > 0 ? fmt::format("adaptive steps, error per step < {:g}, first eps = {}", params.tolerance, params.epsilon)
                                 : fmt::format("eps = {}", params.epsilon),
            params.improved_charge ? ", Q_imp O(a^2)-improved (1x1 and 1x2 leaves)" : "", "t/a^2", "E_plaq",
            "E_clover", "t^2E_plaq", "t^2E_clover", "Q", params.improved_charge ? fmt::format(" {:>10}", "Q_imp") : "");
      const auto print = [&](const FlowMeasurement& m) {
        if (printer && !opt.json)
          std::cout << fmt::format("  {:>9.4f} {:>14.8e} {:>14.8e} {:>12.6f} {:>12.6f} {:>10.5f}{}\n", m.t,
                                   m.energy_plaquette, m.energy_clover, m.t2E_plaquette(), m.t2E_clover(), m.charge,
                                   m.charge_improved ? fmt::format(" {:>10.5f}", *m.charge_improved) : "");
      };
      const std::vector<FlowMeasurement> history = run_gradient_flow(c.field, params, print);
      const FlowScales s = flow_scales(history);
      if (!opt.hdf5.empty()) {
        io::FlowHistoryRecord r;
        r.file = file;
        r.t0 = s.t0.value_or(std::nan(""));
        r.w0 = s.w0.value_or(std::nan(""));
        for (const FlowMeasurement& m : history) {
          r.rows.push_back({m.t, double(m.steps), m.energy_plaquette, m.energy_clover, m.t2E_plaquette(), m.t2E_clover(),
                            m.charge});
          if (m.charge_improved) r.charge_improved.push_back(*m.charge_improved);
        }
        h5.records.push_back(std::move(r));
      }
      if (!printer) continue;
      if (opt.json) {
        nlohmann::json j = {{"file", file}};
        j.update(flow_json(params, history, s));
        std::cout << j.dump() << std::endl;
      } else {
        std::cout << fmt::format("  {}   (t0: t^2 E = 0.3, w0: t d/dt t^2 E = 0.3, clover E)\n", flow_summary(history, s));
      }
    } catch (const Error& e) {
      ++failures;
      progress.finish();
      if (printer) std::cerr << "lqcd flow: error: " << e.what() << std::endl;
    }
    progress.done(++files_done);
  }
  progress.finish();
  // The histories that were measured, also when another file failed (its error is printed above).
  if (!opt.hdf5.empty() && printer && !h5.records.empty()) io::write_flow_hdf5(opt.hdf5, h5);
  return failures == 0 ? 0 : 1;
}

}  // namespace lqcd::app
