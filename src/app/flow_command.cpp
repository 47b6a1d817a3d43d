#include "app/flow_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>
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

// The lattice's time boundary (--boundary; the file read with LoadPolicy::open_time_boundary_by_links): auto
// takes the file's, open sets the frozen links to zero (run_gradient_flow), periodic refuses an open file.
bool open_time_boundary(const std::string& choice, const LoadedConfiguration& c, const std::string& file) {
  if (choice == "periodic" && c.open_time_boundary)
    fail("{}: the links U_t at x0 = N0 - 1 are zero, a lattice with open boundaries in time: use --boundary auto or "
         "open, not periodic", file);
  return choice == "open" || c.open_time_boundary;
}

// E(x0) and q(x0) of one measurement, one line per slice.
std::string slice_lines(const FlowMeasurement& m) {
  std::string out;
  for (std::size_t x0 = 0; x0 < m.slices->charge.size(); ++x0)
    out += fmt::format("    x0 = {:>3} {:>14.8e} {:>14.8e} {:>12.6f}\n", x0, m.slices->energy_plaquette[x0],
                       m.slices->energy_clover[x0], m.slices->charge[x0]);
  return out;
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
  policy.open_time_boundary_by_links = true;  // --boundary auto's test; the others checked against it
  const bool printer = comm::rank() == 0;
  std::error_code ec;
  if (!opt.hdf5.empty() && std::filesystem::exists(std::filesystem::symlink_status(opt.hdf5, ec)) && !opt.force)
    fail("--hdf5: {} exists already (use --force to replace it)", opt.hdf5);
  io::FlowHistoryFile h5 = flow_history_file(params);
  h5.string_attributes.erase("boundary");  // per file here (FlowHistoryRecord::boundary)
  int failures = 0;
  // Several configurations: how far through them (stderr; the measurements themselves go to stdout).
  CountProgress progress(!opt.json && opt.files.size() > 1, "flow: configurations", long(opt.files.size()));
  long files_done = 0;
  for (const std::string& file : opt.files) {
    policy.decompose = [&](const Dims& global) { return decompose_over_run(global, opt.grid, file); };
    try {
      LoadedConfiguration c = load_configuration(file, policy);
      params.open_boundary = open_time_boundary(opt.boundary, c, file);
      params.slices = opt.slices;
      if (params.open_boundary && params.action != FlowAction::Wilson)
        fail("{}: open boundaries in time take --action wilson only (openQCD's flow), not {}", file, opt.action);
      if (params.open_boundary && params.improved_charge)
        fail("{}: --improved-charge is not available with open boundaries (its rectangles have no boundary terms)", file);
      if (printer && !opt.json && params.open_boundary)
        std::cout << fmt::format(
            "{}: open boundaries in time (openQCD's; {}): E is the mean of E(x0) over x0 = {}..{}, Q the sum of "
            "q(x0); E(x0), q(x0) per slice below each line\n",
            file, opt.boundary == "open" ? "--boundary open" : "the links U_t(x0 = N0 - 1) are zero",
            open_boundary_bulk_slices(c.field.geometry().global[kTimeDir]).first,
            open_boundary_bulk_slices(c.field.geometry().global[kTimeDir]).second);
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
                                   m.charge_improved ? fmt::format(" {:>10.5f}", *m.charge_improved) : "")
                    << (m.slices ? slice_lines(m) : std::string());
      };
      const std::vector<FlowMeasurement> history = run_gradient_flow(c.field, params, print);
      const FlowScales s = flow_scales(history);
      if (!opt.hdf5.empty()) {
        io::FlowHistoryRecord r;
        r.file = file;
        r.boundary = params.open_boundary ? "open" : "periodic";
        r.t0 = s.t0.value_or(std::nan(""));
        r.w0 = s.w0.value_or(std::nan(""));
        for (const FlowMeasurement& m : history) {
          r.rows.push_back({m.t, double(m.steps), m.energy_plaquette, m.energy_clover, m.t2E_plaquette(), m.t2E_clover(),
                            m.charge});
          if (m.charge_improved) r.charge_improved.push_back(*m.charge_improved);
          if (m.slices) r.slices.push_back(slice_row(*m.slices));
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

Command add_flow_command(CLI::App& lqcd) {
  auto o = std::make_shared<FlowCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "flow",
      "Gradient flow (Wilson, Symanzik or Zeuthen) of stored configurations (Luscher's RK3 integrator): E(t) from the plaquette and the clover "
      "field strength, t^2 E, the topological charge Q (clover), and the scales t0/a^2 (t^2 E = 0.3) and w0/a "
      "(t d/dt t^2 E = 0.3). Lattice units: t/a^2, E a^4.");
  c->add_option("files", o->files, "configuration files")->required();
  c->add_option("--action", o->action,
                   "wilson (plaquette action) | symanzik (Luscher-Weisz, c1 = -1/12) | zeuthen (Symanzik, O(a^2)-improved "
                   "at tree level; Ramos and Sint 2016)")
      ->capture_default_str();
  c->add_option("--epsilon", o->epsilon, "flow step in t/a^2")->capture_default_str()->check(CLI::Range(1e-6, 0.5));
  c->add_option("--t-max", o->t_max,
                   "flow until this t/a^2; 0: until t0 and w0 are passed (at most t = L_min^2 / 32)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  c->add_option("--tolerance", o->tolerance,
                   "0: fixed steps of --epsilon; > 0: adaptive steps (Fritzsch-Ramos) with this error bound per step "
                   "(1e-5 is usual), --epsilon the first")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.5));
  c->add_option("--every", o->measure_every, "steps between measurements")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 30));
  c->add_flag("--improved-charge", o->improved_charge,
                 "also the O(a^2)-improved topological charge Q_improved: the field strength 5/3 F(1x1) - 1/3 "
                 "(F(1x2) + F(2x1)) from plaquette and rectangle clover leaves (Bilson-Thompson, Leinweber, Williams "
                 "2003); several times the cost of the clover measurement");
  c->add_option("--boundary", o->boundary,
                   "the lattice's time boundary: auto (open when every U_t at x0 = N0 - 1 is zero, as openQCD's and "
                   "lqcd's open-boundary files hold them) | periodic | open (openQCD's: the Wilson flow of the active "
                   "links with c_G = 1 and doubled boundary forces; E(x0) and q(x0) as its ms3 program; E the mean of "
                   "E(x0) over the central half of the slices, Q the sum of q(x0))")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "periodic", "open"}));
  c->add_flag("--slices", o->slices,
                 "also E(x0) (plaquette, clover) and q(x0) per time slice, openQCD's ms3 definitions (always with open "
                 "boundaries): text and --json");
  c->add_flag("--json", o->json, "one JSON object per file on stdout (the whole history, t0, w0)");
  c->add_option("--hdf5", o->hdf5,
                   "also every history into this HDF5 file: /flow/cfg_KKKKKK/history [n][7] (t, steps, E_plaq, "
                   "E_clover, t2E_plaq, t2E_clover, Q; [n][8] with Q_improved under --improved-charge) with "
                   "attributes file, boundary, t0, w0; with time slices also /flow/cfg_KKKKKK/slices [n][3][N0] (E_plaq(x0), "
                   "E_clover(x0), q(x0))");
  c->add_flag("--force", o->force, "replace an existing --hdf5 file");
  c->add_flag("--no-verify", o->no_verify, "report checksum/header mismatches instead of failing");
  add_device_option(c, o->device);
  add_grid_option(c, o->grid);
  return {c, [o] { return run_flow(*o); }};
}

}  // namespace lqcd::app
