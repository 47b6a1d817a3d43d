#include "app/heatbath_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>

#include "app/device_choice.hpp"
#include "app/heatbath_input.hpp"
#include "app/observables_json.hpp"
#include "app/input_values.hpp"
#include "app/output.hpp"
#include "app/run_files.hpp"
#include "app/version.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "gauge/observables.hpp"
#include "gauge/open_boundary.hpp"
#include "gauge/updates.hpp"
#include "io/gauge_file.hpp"
#include "measure/configuration.hpp"
#include "measure/statistics.hpp"

namespace lqcd::app {

namespace {

std::string boundary_description(const GaugeAction& a) { return fmt::format("open c_G {:.17g}", a.c_G); }

io::WriteOptions write_options(const HeatbathInput& in, const GaugeObservables& o, long sweep, int precision) {
  io::WriteOptions w;
  w.precision_bits = precision;
  w.plaquette = o.plaquette;
  w.link_trace = o.link_trace;
  w.metadata = {{"lqcd.program", version_string()},
                {"lqcd.action", in.action.name()},
                {"lqcd.beta", fmt::format("{:.17g}", in.action.beta)},
                {"lqcd.seed", std::to_string(in.seed)},
                {"lqcd.sweep", std::to_string(sweep)},
                {"lqcd.dims", dims_string(in.dims)}};
  if (in.action.open()) w.metadata["lqcd.boundary"] = boundary_description(in.action);
  return w;
}

std::string checkpoint_path(const HeatbathInput& in) { return in.prefix + ".checkpoint.ildg"; }

}  // namespace

int run_heatbath(const HeatbathCommandOptions& opt) {
  Config config(heatbath_schema(), "heatbath");
  if (!opt.input.empty()) config.merge_file(opt.input);
  if (opt.print_config) {
    std::cout << config.to_toml();
    return 0;
  }
  const HeatbathInput in = read_heatbath_input(config);
  const Location loc = choose_location(opt.device);
  // A lattice that cannot be held is refused before any file is touched.
  const Geometry geom = decompose_over_run(in.dims, opt.grid, "lattice.dims");
  check_lattice_fits(geom, kGaugeBytesPerSite, loc, config.source() + ": lattice.dims", "the gauge field");
  // Held to the end of the run: a second run of this prefix would interleave its files with ours.
  const OutputPrefixLock output_lock(in.prefix, "output.prefix");

  GaugeField<double> U(geom, loc);
  const TimeBoundary boundary = in.action.time_boundary(in.dims[3]);
  int done = 0;
  if (opt.resume) {
    std::vector<std::pair<std::string, std::string>> expected = {{"lqcd.action", in.action.name()},
                                                                 {"lqcd.beta", fmt::format("{:.17g}", in.action.beta)},
                                                                 {"lqcd.seed", std::to_string(in.seed)}};
    if (in.action.open()) expected.push_back({"lqcd.boundary", boundary_description(in.action)});
    const auto meta = read_checkpoint(checkpoint_path(in), U, expected, "heatbath", boundary);
    done = int(checkpoint_counter(meta, "lqcd.sweep", checkpoint_path(in)));
    if (done > long(in.thermalization) + in.sweeps)
      fail("{}: checkpoint after sweep {}, beyond the {} sweeps of the input", checkpoint_path(in), done,
           long(in.thermalization) + in.sweeps);
    truncate_jsonl(in.prefix + ".jsonl", "sweep", done);
    if (in.flow.every > 0) truncate_jsonl(in.prefix + ".flow.jsonl", "sweep", done);
  } else if (in.start == "hot") {
    set_hot_gauge(U, in.seed);
  } else {
    set_unit_gauge(U);
  }
  apply_time_boundary(U, boundary);

  RunLog log(in.prefix + ".log", opt.resume, opt.quiet);
  JsonLines jsonl(in.prefix + ".jsonl", opt.resume);
  std::optional<JsonLines> flow_jsonl;
  if (in.flow.every > 0) flow_jsonl.emplace(in.prefix + ".flow.jsonl", opt.resume);
  // Each count is at most 2^30; their sum is counted in 64 bits (2^31 overflows an int).
  const long total = long(in.thermalization) + in.sweeps;
  log.line("# {}", version_string());
  log.line("# lqcd heatbath: quenched SU(3), Cabibbo-Marinari heatbath (Kennedy-Pendleton) + {} overrelaxation steps",
           in.overrelaxation);
  log.line("# lattice {} (x,y,z,t), {} action, beta = {}, c0 = {:.6g}, c1 = {:.6g}", dims_string(in.dims),
           in.action.name(), in.action.beta, in.action.c0(), in.action.c1());
  if (in.action.open())
    log.line("# open boundaries in time (openQCD's): U_t = 0 at x0 = T = {}, spatial plaquettes at x0 = 0 and T "
             "weighted c_G / 2 = {:.6g}; plaquette = the mean over the {} plaquettes in the lattice (file headers: "
             "the mean over all 6V, zero ones included)",
             in.dims[3] - 1, 0.5 * in.action.c_G, (6 * std::int64_t(in.dims[3]) - 3) * in.dims[0] * in.dims[1] * in.dims[2]);
  log.line("# backend: {}", loc == Location::Device ? "CUDA, " + device_description() : "CPU (OpenMP)");
  if (opt.resume)
    log.line("# resumed from {} after sweep {} (lines above for later sweeps are from the interrupted run; the "
             "JSON lines were cut back to the checkpoint)",
             checkpoint_path(in), done);
  for (const auto& t : output_lock.removed_temporaries()) log.line("# removed {}, left by a killed run", t.string());
  log.line("# conventions: plaquette = <Re tr U_p>/3 (1 for the unit field); polyakov = <tr prod_t U_t>/3");
  if (in.flow.every > 0)
    log.line("# flow: Wilson flow (Luscher's RK3, eps = {}) of one configuration in {} after thermalization into "
             "{}.flow.jsonl{}; t0: t^2 E = 0.3, w0: t d/dt t^2 E = 0.3 (clover E){}, lattice units",
             in.flow.params.epsilon, in.flow.every, in.prefix,
             in.flow.hdf5 ? fmt::format(" (and {}.flow.h5 at the end)", in.prefix) : std::string(),
             in.flow.params.improved_charge ? "; Q clover and O(a^2)-improved" : "");
  log.line("# input ({}):", config.source());
  std::istringstream lines(config.to_toml(false));
  for (std::string l; std::getline(lines, l);) log.line("#   {}", l);
  log.line("# {:>7} {:>12} {:>12} {:>12} {:>12} {:>24} {:>9}", "sweep", "plaquette", "spatial", "temporal",
           "rectangle", "polyakov (re, im)", "seconds");

  std::vector<double> plaquettes;
  ProgressLine progress(!opt.quiet);
  const Stopwatch clock;
  for (long s = done; s < total; ++s) {
    heatbath_sweep(U, in.action, in.seed, std::uint32_t(s));
    for (int k = 0; k < in.overrelaxation; ++k) overrelaxation_sweep(U, in.action);
    const long n = s + 1;
    const bool measure = n % in.measure_every == 0;
    const bool save_config = in.save_every > 0 && n > in.thermalization && (n - in.thermalization) % in.save_every == 0;
    const bool checkpoint = in.checkpoint_every > 0 && (n % in.checkpoint_every == 0 || n == total);
    // The flow of every flow.every-th configuration after thermalization, each sweep counting as one
    // unless configurations are saved (save_every) or measured (measure_every) further apart.
    const long unit = in.save_every > 0 ? in.save_every : in.measure_every;
    const bool flow = in.flow.every > 0 && n > in.thermalization && (n - in.thermalization) % (unit * in.flow.every) == 0;
    const std::string saved_file = save_config ? fmt::format("{}.{:06d}.{}", in.prefix, n, in.format) : std::string();
    if (flow) {
      const FlowOfConfiguration f = flow_configuration(U, in.flow.params);
      log.line("# flow after sweep {}: {}", n, f.summary);
      nlohmann::json record = {{"sweep", n}};
      if (save_config) record["file"] = saved_file;  // the flowed configuration, saved below (flow.hdf5 names it)
      record.update(f.record);
      flow_jsonl->write(record);
    }
    if (measure || save_config || checkpoint) {
      const GaugeObservables o = gauge_observables(U);
      if (!std::isfinite(o.plaquette)) fail("sweep {}: the plaquette is not finite; the update broke down", n);
      const double plaq = in.action.open() ? open_boundary_plaquettes(U, boundary).plaquette : o.plaquette;
      if (measure) {
        log.line("  {:>7} {:>12.9f} {:>12.9f} {:>12.9f} {:>12.9f} {:>11.8f} {:>12.8f} {:>9.2f}", n, plaq,
                 o.plaquette_spatial, o.plaquette_temporal, o.rectangle, o.polyakov_loop.re, o.polyakov_loop.im,
                 clock.seconds());
        nlohmann::json record = {{"sweep", n}, {"thermalized", n > in.thermalization}};
        record.update(observables_json(o));
        if (in.action.open()) record["plaquette_in_lattice"] = plaq;
        record["seconds"] = clock.seconds();
        jsonl.write(record);
        if (n > in.thermalization) plaquettes.push_back(plaq);
      }
      if (save_config || checkpoint) {
        if (save_config) {
          save_configuration(saved_file, in.format, U, write_options(in, o, n, in.precision));
          log.line("# saved {}", saved_file);
        }
        if (checkpoint) save_configuration(checkpoint_path(in), "ildg", U, write_options(in, o, n, 64));
      }
    }
    const double elapsed = clock.seconds(), rate = (n - done) / elapsed;
    progress.update(fmt::format("[heatbath] sweep {}/{} | {:.2f} sweeps/s | ETA {}", n, total, rate,
                                format_duration((total - n) / rate)));
  }
  progress.finish();
  const double elapsed = clock.seconds();
  log.line("# {} sweeps in {} ({:.3f} sweeps/s, heatbath + {} overrelaxation each)", total - done,
           format_duration(elapsed), (total - done) / elapsed, in.overrelaxation);
  if (!plaquettes.empty()) {
    const Estimate e = binned_jackknife(plaquettes, default_bin_size(plaquettes.size()));
    if (e.bins >= 2)
      log.line("# average plaquette after thermalization: {:.7f} +- {:.7f} ({} measurements, binned jackknife, {} bins of {})",
               e.mean, e.error, plaquettes.size(), e.bins, e.bin_size);
    else
      log.line("# average plaquette after thermalization: {:.7f} ({} measurements; too few for an error)", e.mean,
               plaquettes.size());
  }
  if (in.flow.every > 0 && in.flow.hdf5) {
    // From the JSON lines, not from this run's flows: a resumed run's file holds the whole chain.
    const std::size_t records =
        write_flow_history_hdf5(in.prefix + ".flow.jsonl", in.prefix + ".flow.h5", "sweep", in.flow.params);
    log.line("# flow histories of {}.flow.jsonl written to {}.flow.h5 ({} configurations)", in.prefix, in.prefix,
             records);
  }
  return 0;
}

Command add_heatbath_command(CLI::App& lqcd) {
  auto o = std::make_shared<HeatbathCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "heatbath",
      "Quenched SU(3) ensemble: Cabibbo-Marinari heatbath + overrelaxation.\n"
      "Without INPUT it runs a built-in default (8^4, Wilson action, beta = 6.0) and prints the plaquette history.\n"
      "Writes PREFIX.log (human), PREFIX.jsonl (one JSON object per measurement) and saved configurations.");
  add_toml_input(c, o->input, o->print_config);
  c->add_flag("--resume", o->resume, "continue from PREFIX.checkpoint.ildg exactly as if never stopped");
  add_device_option(c, o->device);
  add_grid_option(c, o->grid);
  add_quiet_option(c, o->quiet, "no log on stdout and no progress line (files are still written)");
  return {c, [o] { return run_heatbath(*o); }};
}

}  // namespace lqcd::app
