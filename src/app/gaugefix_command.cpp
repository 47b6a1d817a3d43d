#include "app/gaugefix_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/device_choice.hpp"
#include "app/input_values.hpp"
#include "app/run_files.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "gauge/gauge_fixing.hpp"
#include "gauge/observables.hpp"
#include "gauge/updates.hpp"
#include "measure/configuration.hpp"

namespace lqcd::app {

int run_gaugefix(const GaugefixCommandOptions& opt) {
  GaugeFixParams p;
  if (opt.gauge == "landau")
    p.gauge = GaugeCondition::Landau;
  else if (opt.gauge == "coulomb")
    p.gauge = GaugeCondition::Coulomb;
  else
    fail("--gauge: expected landau or coulomb (got \"{}\")", opt.gauge);
  if (opt.method != "auto" && opt.method != "fft" && opt.method != "overrelaxation")
    fail("--method: expected auto, fft or overrelaxation (got \"{}\")", opt.method);
  if (opt.format != "ildg" && opt.format != "nersc" && opt.format != "openqcd")
    fail("--format: expected ildg, nersc or openqcd (got \"{}\")", opt.format);
  if (opt.bits != 32 && opt.bits != 64) fail("--bits: expected 32 or 64, got {}", opt.bits);
  if (opt.every < 1) fail("--every: expected at least 1 iteration, got {}", opt.every);
  p.precision = opt.precision;
  p.max_iterations = opt.max_iterations;
  p.alpha = opt.alpha;
  p.omega = opt.omega;
  try {
    check_gauge_fix_params(p);
  } catch (const Error& e) {
    // The command line's names for the keys.
    std::string what = e.what();
    const std::string prefix = "gaugefix.";
    const auto dot = what.find(prefix);
    if (dot != std::string::npos) what.replace(dot, prefix.size(), "--");
    for (auto at = what.find('_'); at != std::string::npos && at < what.find(':'); at = what.find('_', at))
      what[at] = '-';
    throw Error(what);
  }
  std::error_code ec;
  if (std::filesystem::equivalent(opt.input, opt.output, ec)) fail("{}: input and output are the same file", opt.output);
  if (std::filesystem::exists(std::filesystem::symlink_status(opt.output, ec)) && !opt.force)
    fail("{}: exists already (use --force to replace it)", opt.output);

  LoadPolicy policy;
  policy.verify = !opt.no_verify;
  policy.location = choose_location(opt.device);
  policy.decompose = [&](const Dims& global) { return decompose_over_run(global, opt.grid, opt.input); };
  LoadedConfiguration c = load_configuration(opt.input, policy);
  GaugeField<double>& U = c.field;
  const bool one_process = U.geometry().grid == Dims{1, 1, 1, 1};
  p.method = opt.method == "fft" || (opt.method == "auto" && one_process) ? GaugeFixMethod::Fourier
                                                                          : GaugeFixMethod::Overrelaxation;
  // Links from 32-bit storage are SU(3) only to ~1e-7: projected in double first, so that the written
  // 64-bit file is SU(3) to rounding (lqcd measure checks 1e-10 there) and theta means the same as for
  // 64-bit input. This moves the plaquette by ~1e-8; the gauge fixing itself keeps it to rounding.
  const bool projected = c.info.precision_bits == 32;
  if (projected) reunitarize(U);
  const bool printer = comm::rank() == 0;
  const bool log = printer && !opt.json && !opt.quiet;
  const std::string method = p.method == GaugeFixMethod::Fourier
                                 ? fmt::format("Fourier-accelerated steepest descent, alpha = {}", p.alpha)
                                 : fmt::format("overrelaxation, omega = {}", p.omega);
  const Dims& L = U.geometry().global;
  if (log)
    std::cout << fmt::format(
        "{}: {}x{}x{}x{}, {} gauge by {}, to theta < {:g}\n"
        "  theta = (1/3V) sum_x tr Delta(x)^2, Delta = sum_mu d_mu A_mu; F = (1/(3 ndir V)) sum Re tr U_mu(x)\n"
        "{}  {:>9} {:>14} {:>16}\n",
        opt.input, L[0], L[1], L[2], L[3], opt.gauge, method, p.precision,
        projected ? "  links from 32-bit storage projected to SU(3) in double first\n" : "",
        "iteration", "theta", "F");
  const auto progress = [&](int it, const GaugeFixQuality& q) {
    if (log && it % opt.every == 0) std::cout << fmt::format("  {:>9} {:>14.6e} {:>16.12f}\n", it, q.theta, q.functional);
  };
  const GaugeObservables before = gauge_observables(U);
  const Stopwatch timer;
  const GaugeFixResult r = fix_gauge(U, p, progress);
  const double seconds = timer.seconds();
  if (!r.converged)
    fail("{}: theta = {:.3e} after {} iterations, not below --precision {:g}; nothing written (raise "
         "--max-iterations{})",
         opt.input, r.final.theta, r.iterations, p.precision,
         p.method == GaugeFixMethod::Fourier ? " or lower --alpha" : "");
  const GaugeObservables after = gauge_observables(U);
  io::WriteOptions w;
  w.precision_bits = opt.format == "openqcd" ? 64 : opt.bits;
  w.plaquette = after.plaquette;
  w.link_trace = after.link_trace;
  w.metadata = {{"lqcd.gauge_fixed_from", opt.input},
                {"lqcd.gauge_fixing", fmt::format("{} gauge, {}, theta = {:.6e}, F = {:.15f}", opt.gauge, method,
                                                  r.final.theta, r.final.functional)}};
  save_configuration(opt.output, opt.format, U, w);
  if (!printer) return 0;
  if (opt.json) {
    const nlohmann::json j = {{"input", opt.input},
                              {"output", opt.output},
                              {"gauge", opt.gauge},
                              {"method", to_string(p.method)},
                              {"precision", p.precision},
                              {"iterations", r.iterations},
                              {"theta", r.final.theta},
                              {"functional", r.final.functional},
                              {"theta_initial", r.initial.theta},
                              {"alpha_final", p.method == GaugeFixMethod::Fourier ? nlohmann::json(r.alpha) : nlohmann::json(nullptr)},
                              {"step_halvings", r.step_halvings},
                              {"functional_initial", r.initial.functional},
                              {"input_projected_to_su3", projected},
                              {"plaquette_before", before.plaquette},
                              {"plaquette_after", after.plaquette},
                              {"seconds", seconds}};
    std::cout << j.dump() << std::endl;
  } else if (!opt.quiet) {
    if (r.step_halvings > 0)
      std::cout << fmt::format("  the step was halved {} times (F fell: alpha too long for this field); alpha = {:g} at the end\n",
                               r.step_halvings, r.alpha);
    std::cout << fmt::format(
        "  converged: theta = {:.3e} after {} iterations ({:.2f} s, {:.3f} ms per iteration); F = {:.15f}\n"
        "  plaquette {:.15f} -> {:.15f} (difference {:.1e})\n  written: {} ({}, {}-bit)\n",
        r.final.theta, r.iterations, seconds, r.iterations > 0 ? 1e3 * seconds / r.iterations : 0.0,
        r.final.functional, before.plaquette, after.plaquette, after.plaquette - before.plaquette, opt.output,
        opt.format, w.precision_bits);
  }
  return 0;
}

Command add_gaugefix_command(CLI::App& lqcd) {
  auto o = std::make_shared<GaugefixCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "gaugefix",
      "Fix a stored configuration to the Landau or Coulomb gauge and write it: Fourier-accelerated steepest "
      "descent (FFTW / cuFFT, one process) or overrelaxation (also with --grid), until theta = (1/3V) sum_x tr "
      "Delta(x)^2 < --precision, Delta = sum_mu d_mu A_mu. The plaquette is unchanged; the file is written only "
      "when the precision is reached.");
  c->add_option("input", o->input, "configuration to read (any supported format)")->required();
  c->add_option("output", o->output, "file to write")->required();
  c->add_option("--gauge", o->gauge, "landau | coulomb")->capture_default_str();
  c->add_option("--method", o->method, "auto (fft on one process, else overrelaxation) | fft | overrelaxation")
      ->capture_default_str();
  c->add_option("--precision", o->precision, "stop when theta is below this")->capture_default_str();
  c->add_option("--max-iterations", o->max_iterations, "give up (and write nothing) after this many")
      ->capture_default_str();
  c->add_option("--alpha", o->alpha, "fft: steepest-descent step")->capture_default_str();
  c->add_option("--omega", o->omega, "overrelaxation: exponent in [1, 2)")->capture_default_str();
  c->add_option("--every", o->every, "iterations between progress lines")->capture_default_str();
  c->add_option("--bits", o->bits, "precision of the written file: 64 | 32")->capture_default_str();
  c->add_option("--format", o->format, "ildg | nersc | openqcd")->capture_default_str();
  c->add_flag("--force", o->force, "replace OUTPUT if it exists");
  c->add_flag("--no-verify", o->no_verify, "report checksum/header mismatches of the input instead of failing");
  c->add_flag("--json", o->json, "one JSON object on stdout (iterations, theta, F, plaquette, seconds)");
  add_quiet_option(c, o->quiet, "no progress lines");
  add_device_option(c, o->device);
  add_grid_option(c, o->grid);
  return {c, [o] { return run_gaugefix(*o); }};
}

}  // namespace lqcd::app
