#include "app/hmc_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>
#include "app/hmc_input.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/ranges.h>

#include "app/device_choice.hpp"
#include "app/flow_input.hpp"
#include "app/observables_json.hpp"
#include "app/input_values.hpp"
#include "app/multigrid_input.hpp"
#include "app/output.hpp"
#include "app/run_files.hpp"
#include "app/version.hpp"
#include "core/energy_meter.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/timer.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "gauge/observables.hpp"
#include "gauge/open_boundary.hpp"
#include "gauge/updates.hpp"
#include "hmc/gauge_monomial.hpp"
#include "hmc/hasenbusch_ratio_monomial.hpp"
#include "hmc/hmc.hpp"
#include "hmc/rational_monomial.hpp"
#include "hmc/smeared_fermion_monomial.hpp"
#include "hmc/two_flavour_monomial.hpp"
#include "measure/configuration.hpp"
#include "measure/statistics.hpp"

namespace lqcd::app {

namespace {

io::WriteOptions write_options(const HmcInput& in, const GaugeObservables& o, long trajectory, int precision) {
  io::WriteOptions w;
  w.precision_bits = precision;
  w.plaquette = o.plaquette;
  w.link_trace = o.link_trace;
  w.metadata = {{"lqcd.program", version_string()},
                {"lqcd.run", "hmc"},
                {"lqcd.physics", in.physics},
                {"lqcd.seed", std::to_string(in.seed)},
                {"lqcd.trajectory", std::to_string(trajectory)},
                {"lqcd.dims", dims_string(in.dims)}};
  return w;
}

}  // namespace

std::unique_ptr<Hmc> make_hmc(const Config& c) {
  HmcInput in = read_hmc_input(c);
  std::vector<std::unique_ptr<Monomial>> monomials = make_monomials(c, in);
  return std::make_unique<Hmc>(std::move(monomials), in.integrator, in.seed);
}

void check_hmc_input(const Config& c) {
  HmcInput in = read_hmc_input(c);
  (void)make_monomials(c, in);  // builds the monomials' parameters only; no field is allocated
}

int run_hmc(const HmcCommandOptions& opt) {
  Config config(hmc_schema(), "hmc", hmc_repeated_sections());
  if (!opt.input.empty()) config.merge_file(opt.input);
  if (opt.print_config) {
    std::cout << config.to_toml();
    return 0;
  }
  HmcInput in = read_hmc_input(config);
  std::vector<std::unique_ptr<Monomial>> monomials = make_monomials(config, in);
  const Location loc = choose_location(opt.device);
  // A lattice that cannot be held is refused before any file is touched. A trajectory holds at least the
  // links, their copy for the accept/reject step and the momenta (4 x 8 reals per site).
  const Geometry geom = decompose_over_run(in.dims, opt.grid, "lattice.dims");
  check_lattice_fits(geom, 2 * kGaugeBytesPerSite + 4 * 8 * 8, loc, config.source() + ": lattice.dims",
                     "the links, their copy and the momenta");
  // Held to the end of the run: a second run of this prefix would interleave its files with ours.
  const OutputPrefixLock output_lock(in.prefix, "output.prefix");
  GaugeField<double> U(geom, loc);
  const TimeBoundary boundary = in.action.time_boundary(in.dims[3]);
  const std::string checkpoint = in.prefix + ".checkpoint.ildg";
  long done = 0;
  if (opt.resume) {
    std::vector<std::pair<std::string, std::string>> expected = {{"lqcd.seed", std::to_string(in.seed)}};
    if (!opt.force) expected.push_back({"lqcd.physics", in.physics});
    const auto meta = read_checkpoint(checkpoint, U, expected, "hmc", boundary);
    done = checkpoint_counter(meta, "lqcd.trajectory", checkpoint);
    if (done > long(in.thermalization) + in.trajectories)
      fail("{}: checkpoint after trajectory {}, beyond the {} trajectories of the input", checkpoint, done,
           long(in.thermalization) + in.trajectories);
    truncate_jsonl(in.prefix + ".jsonl", "trajectory", done);
    if (in.flow.every > 0) truncate_jsonl(in.prefix + ".flow.jsonl", "trajectory", done);
  } else if (in.start == "hot") {
    set_hot_gauge(U, in.seed);
  } else if (in.start == "cold") {
    set_unit_gauge(U);
  } else {
    U.copy_from(load_configuration(in.start, load_policy_for(U, boundary)).field);
    // Projected to SU(3): the link updates keep the start's distance from SU(3), and a 32-bit file's links
    // are ~1e-7 off, which the 64-bit checkpoints' check (1e-10) would refuse on --resume.
    reunitarize(U);
  }
  apply_time_boundary(U, boundary);  // after the projection: a zero link has none
  Hmc hmc(std::move(monomials), in.integrator, in.seed);

  RunLog log(in.prefix + ".log", opt.resume, opt.quiet);
  JsonLines jsonl(in.prefix + ".jsonl", opt.resume);
  std::optional<JsonLines> flow_jsonl;
  if (in.flow.every > 0) flow_jsonl.emplace(in.prefix + ".flow.jsonl", opt.resume);
  const long total = long(in.thermalization) + in.trajectories;  // each at most 2^30: the sum overflows an int
  log.line("# {}", version_string());
  log.line("# lqcd hmc: Hybrid Monte Carlo, {} integrator, tau = {}, steps per level {}",
           integrator_type_name(in.integrator.type), in.integrator.tau, fmt::join(in.integrator.steps, " x "));
  log.line("# lattice {} (x,y,z,t); monomials: {}", dims_string(in.dims), in.physics);
  log.line("# backend: {}", loc == Location::Device ? "CUDA, " + device_description() : "CPU (OpenMP)");
  // The GPU's energy per trajectory (NVML's counter; null in the JSON lines where it cannot be read).
  EnergyMeter meter(loc);
  log.line("# energy per trajectory: {}", meter.available() ? "GPU " + meter.pci_bus_id() + " (NVML energy counter)"
                                                            : "not measured (" + meter.unavailable_reason() + ")");
  if (opt.resume)
    log.line("# resumed from {} after trajectory {} (lines above for later trajectories are from the interrupted "
             "run; the JSON lines were cut back to the checkpoint)",
             checkpoint, done);
  for (const auto& t : output_lock.removed_temporaries()) log.line("# removed {}, left by a killed run", t.string());
  log.line("# conventions: H = sum tr P^2 + S, dH = H(end) - H(start); plaquette = <Re tr U_p>/3 (1 for the unit "
           "field)");
  if (in.action.open())
    log.line("# open boundaries in time (openQCD's): U_t = 0 at x0 = T = {}, spatial plaquettes at x0 = 0 and T "
             "weighted c_G / 2 = {:.6g}; plaquette = the mean over the plaquettes in the lattice (file headers: over "
             "all 6V)",
             in.dims[3] - 1, 0.5 * in.action.c_G);
  log.line("# input ({}):", config.source());
  std::istringstream lines(config.to_toml(false));
  for (std::string l; std::getline(lines, l);) log.line("#   {}", l);
  log.line("# {:>6} {:>13} {:>4} {:>8} {:>12} {:>9} {:>10} {:>8}", "traj", "dH", "acc", "P_acc", "plaquette",
           "CG iter", "seconds", "acc.rate");

  // Per monomial over the run, for the summary: where the time goes and how large the forces are.
  struct MonomialTotals {
    long iterations = 0, trajectories = 0;
    long multigrid_solves = 0, multigrid_iterations = 0;
    double solver_seconds = 0, setup_seconds = 0, force_seconds = 0, sum_rms = 0, max_rms = 0;
    void add(const TrajectoryResult& r, std::size_t k) {
      ++trajectories;
      iterations += r.solver_iterations[k];
      solver_seconds += r.solver_seconds_by_monomial[k];
      setup_seconds += r.setup_seconds_by_monomial[k];
      multigrid_solves += r.multigrid_solves[k];
      multigrid_iterations += r.multigrid_iterations[k];
      force_seconds += r.force_seconds_by_monomial[k];
      sum_rms += r.force_rms[k];
      max_rms = std::max(max_rms, r.force_max_rms[k]);
    }
  };
  std::vector<MonomialTotals> per_monomial(hmc.monomials().size());
  std::vector<double> plaquettes, exp_dh;
  double seconds = 0, solver_seconds = 0, force_seconds = 0, joules = 0;
  long metered = 0;
  long accepted = 0, counted = 0;
  ProgressLine progress(!opt.quiet);
  const Stopwatch clock;
  for (long n = done; n < total; ++n) {
    nlohmann::json record;
    if (in.reversibility) {
      const ReversibilityResult rv = hmc.reversibility(U, std::uint32_t(n));
      record["reversibility_dH"] = rv.dH;
      record["reversibility_max_link_diff"] = rv.max_link_diff;
      log.line("#   reversibility of trajectory {}: |dH| = {:.3e} (H = {:.6e}), max link difference {:.3e}", n + 1,
               std::abs(rv.dH), rv.H0, rv.max_link_diff);
    }
    if (meter.available()) {
      detail::device_synchronize();
      meter.start();
    }
    const TrajectoryResult r = hmc.trajectory(U, std::uint32_t(n), !(in.accept_thermalization && n < in.thermalization));
    EnergyReading energy;
    if (meter.available()) {
      detail::device_synchronize();
      energy = meter.stop();
    }
    if (energy.available) {
      joules += energy.joules;
      ++metered;
    }
    const GaugeObservables o = gauge_observables(U);
    // Open boundaries: the mean over the plaquettes in the lattice (the file headers keep o's).
    const double plaq = in.action.open() ? open_boundary_plaquettes(U, boundary).plaquette : o.plaquette;
    const long traj = n + 1;
    long iterations = 0;
    nlohmann::json iters = nlohmann::json::object(), solve_seconds = nlohmann::json::object(),
                   setup_seconds = nlohmann::json::object(), multigrid = nlohmann::json::object();
    nlohmann::json force_split = nlohmann::json::object(), force_rms = nlohmann::json::object(),
                   force_max = nlohmann::json::object(), spectra = nlohmann::json::object();
    for (std::size_t k = 0; k < r.solver_iterations.size(); ++k) {
      iterations += r.solver_iterations[k];
      const std::string monomial = fmt::format("{}: {}", k + 1, hmc.monomials()[k]->name());
      if (r.solver_iterations[k] > 0) {
        iters[monomial] = r.solver_iterations[k];
        solve_seconds[monomial] = r.solver_seconds_by_monomial[k];
      }
      if (r.multigrid_solves[k] > 0) {
        setup_seconds[monomial] = r.setup_seconds_by_monomial[k];
        multigrid[monomial] = {{"solves", r.multigrid_solves[k]}, {"outer_iterations", r.multigrid_iterations[k]}};
      }
      if (r.force_evaluations[k] > 0) {
        force_split[monomial] = r.force_seconds_by_monomial[k];
        force_rms[monomial] = r.force_rms[k];
        force_max[monomial] = r.force_max_rms[k];
      }
      per_monomial[k].add(r, k);
      if (const auto* rational = dynamic_cast<const RationalMonomial*>(&innermost(*hmc.monomials()[k])))
        if (rational->last_spectrum())
          spectra[monomial] = {rational->last_spectrum()->lambda_min, rational->last_spectrum()->lambda_max};
    }
    for (const std::string& w : r.warnings) log.line("# warning (trajectory {}): {}", n + 1, w);
    seconds += r.seconds;
    solver_seconds += r.solver_seconds;
    force_seconds += r.force_seconds;
    if (n >= in.thermalization) {
      ++counted;
      accepted += r.accepted;
      plaquettes.push_back(plaq);
      exp_dh.push_back(std::exp(-r.dH));
    }
    log.line("  {:>6} {:>13.6e} {:>4} {:>8.5f} {:>12.9f} {:>9} {:>10.2f} {:>8.3f}", traj, r.dH, r.accepted ? "yes" : "no",
             r.acceptance_probability, plaq, iterations, r.seconds,
             counted ? double(accepted) / double(counted) : 0.0);
    record.update({{"trajectory", traj},
                   {"thermalized", n >= in.thermalization},
                   {"dH", r.dH},
                   {"exp_minus_dH", std::exp(-r.dH)},
                   {"accepted", r.accepted},
                   {"acceptance_probability", r.acceptance_probability},
                   {"solver_iterations", iters},
                   {"solver_seconds", r.solver_seconds},
                   {"solver_seconds_by_monomial", solve_seconds},
                   {"multigrid_setup_seconds_by_monomial", setup_seconds},
                   {"multigrid_solves_by_monomial", multigrid},
                   {"energy_joules", energy.available ? nlohmann::json(energy.joules) : nlohmann::json(nullptr)},
                   {"force_seconds", r.force_seconds},
                   {"force_seconds_by_monomial", force_split},
                   {"force_rms_by_monomial", force_rms},
                   {"force_max_rms_by_monomial", force_max},
                   {"warnings", r.warnings},
                   {"seconds", r.seconds}});
    if (!spectra.empty()) record["spectral_bounds_by_monomial"] = spectra;  // [smallest, largest] Ritz value
    record.update(observables_json(o));
    if (in.action.open()) record["plaquette_in_lattice"] = plaq;
    jsonl.write(record);
    const bool save_config = in.save_every > 0 && n >= in.thermalization && (traj - in.thermalization) % in.save_every == 0;
    const std::string saved_file = save_config ? fmt::format("{}.{:06d}.{}", in.prefix, traj, in.format) : std::string();
    if (in.flow.every > 0 && n >= in.thermalization && (traj - in.thermalization) % in.flow.every == 0) {
      const FlowOfConfiguration f = flow_configuration(U, in.flow.params);
      log.line("# flow after trajectory {}: {}", traj, f.summary);
      nlohmann::json flow_record = {{"trajectory", traj}};
      if (save_config) flow_record["file"] = saved_file;  // the flowed configuration, saved below (flow.hdf5 names it)
      flow_record.update(f.record);
      flow_jsonl->write(flow_record);
    }
    const bool write_checkpoint = in.checkpoint_every > 0 && (traj % in.checkpoint_every == 0 || traj == total);
    if (save_config || write_checkpoint) {
      if (save_config) {
        save_configuration(saved_file, in.format, U, write_options(in, o, traj, in.precision));
        log.line("# saved {}", saved_file);
      }
      if (write_checkpoint) save_configuration(checkpoint, "ildg", U, write_options(in, o, traj, 64));
    }
    const double rate = double(traj - done) / clock.seconds();
    progress.update(fmt::format("[hmc] trajectory {}/{} | {:.3f} s/trajectory | ETA {}", traj, total, 1 / rate,
                                format_duration(double(total - traj) / rate)));
  }
  progress.finish();
  const auto percent = [&](double part) { return seconds > 0 ? 100 * part / seconds : 0.0; };
  log.line("# {} trajectories in {} ({:.3f} s per trajectory: {:.1f}% in the fermion solvers, {:.1f}% in the forces "
           "without their solves, {:.1f}% in the rest: momenta, pseudofermions, link updates, actions)",
           total - done, format_duration(clock.seconds()), seconds / double(std::max(1L, total - done)),
           percent(solver_seconds), percent(force_seconds), percent(seconds - solver_seconds - force_seconds));
  for (std::size_t k = 0; k < per_monomial.size(); ++k) {
    const MonomialTotals& m = per_monomial[k];
    if (m.trajectories == 0) continue;
    const double n = double(m.trajectories);
    const std::string setup =
        m.multigrid_solves > 0
            ? fmt::format(" ({:.0f} multigrid solves of {:.1f} outer iterations each on average, {:.3f} s in multigrid "
                          "setups and refreshes)",
                          double(m.multigrid_solves) / n, double(m.multigrid_iterations) / double(m.multigrid_solves),
                          m.setup_seconds / n)
            : "";
    log.line("#   monomial {} ({}): per trajectory {:.0f} solver iterations, {:.3f} s in solves{}, {:.3f} s in forces "
             "without their solves; force size |F| (rms over links) {:.4f} mean, {:.4f} largest",
             k + 1, hmc.monomials()[k]->name(), double(m.iterations) / n, m.solver_seconds / n, setup,
             m.force_seconds / n, m.sum_rms / n, m.max_rms);
  }
  if (metered > 0)
    log.line("# GPU energy: {:.1f} J per trajectory ({} trajectories measured)", joules / double(metered), metered);
  if (counted > 0) {
    log.line("# acceptance {:.3f} ({} of {} after thermalization)", double(accepted) / double(counted), accepted, counted);
    const Estimate p = binned_jackknife(plaquettes, default_bin_size(plaquettes.size()));
    const Estimate e = binned_jackknife(exp_dh, default_bin_size(exp_dh.size()));
    if (p.bins >= 2)
      log.line("# plaquette {:.7f} +- {:.7f}, <exp(-dH)> {:.4f} +- {:.4f} (binned jackknife, bins of {})", p.mean,
               p.error, e.mean, e.error, p.bin_size);
    else
      log.line("# plaquette {:.7f}, <exp(-dH)> {:.4f} ({} trajectories: too few for errors)", p.mean, e.mean, counted);
  }
  if (in.flow.every > 0 && in.flow.hdf5) {
    // From the JSON lines, not from this run's flows: a resumed run's file holds the whole chain.
    const std::size_t records =
        write_flow_history_hdf5(in.prefix + ".flow.jsonl", in.prefix + ".flow.h5", "trajectory", in.flow.params);
    log.line("# flow histories of {}.flow.jsonl written to {}.flow.h5 ({} configurations)", in.prefix, in.prefix,
             records);
  }
  return 0;
}

Command add_hmc_command(CLI::App& lqcd) {
  auto o = std::make_shared<HmcCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "hmc",
      "Dynamical-fermion ensemble by Hybrid Monte Carlo / RHMC: a gauge action (Wilson, Symanzik, Iwasaki, DBW2)\n"
      "with any set of fermion monomials, each even-odd preconditioned: two flavours of Wilson, clover, twisted-mass\n"
      "or twisted-clover quarks, Hasenbusch ratios det M(kappa) / det M(kappa2), and single flavours by a rational\n"
      "approximation (Nf = 2+1). Nested multi-level integrators: leapfrog, Omelyan (2nd and 4th order),\n"
      "force-gradient. Without INPUT: a short Nf = 2 Wilson run on 8^4.\n"
      "Writes PREFIX.log, PREFIX.jsonl (one object per trajectory: dH, accepted, plaquette, ...) and configurations.");
  add_toml_input(c, o->input, o->print_config);
  c->add_flag("--resume", o->resume, "continue from PREFIX.checkpoint.ildg exactly as if never stopped");
  c->add_flag("--force", o->force, "with --resume: accept a checkpoint written with other physics parameters");
  add_device_option(c, o->device);
  add_grid_option(c, o->grid);
  add_quiet_option(c, o->quiet, "no log on stdout and no progress line (files are still written)");
  return {c, [o] { return run_hmc(*o); }};
}

}  // namespace lqcd::app
