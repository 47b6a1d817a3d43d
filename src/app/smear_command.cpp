#include "app/smear_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <cmath>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "app/device_choice.hpp"
#include "app/input_values.hpp"
#include "app/run_files.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "gauge/ape_smearing.hpp"
#include "gauge/hyp_smearing.hpp"
#include "gauge/observables.hpp"
#include "gauge/stout_smearing.hpp"
#include "measure/configuration.hpp"

namespace lqcd::app {

int run_smear(const SmearCommandOptions& opt) {
  if (opt.method != "stout" && opt.method != "ape" && opt.method != "hyp")
    fail("--method: expected stout, ape or hyp (got \"{}\")", opt.method);
  if (opt.format != "ildg" && opt.format != "nersc" && opt.format != "openqcd")
    fail("--format: expected ildg, nersc or openqcd (got \"{}\")", opt.format);
  // The parameters are checked before the file is read.
  if (opt.steps < 0 || opt.steps > 100000) fail("--steps: expected 0 to 100000 smearing steps, got {}", opt.steps);
  if (opt.method == "stout" && !(opt.rho >= 0 && std::isfinite(opt.rho)))
    fail("--rho: expected a finite non-negative stout parameter, got {}", opt.rho);
  if (opt.method == "ape" && !(opt.alpha >= 0 && opt.alpha <= 1))
    fail("--alpha: expected an APE parameter in [0, 1], got {}", opt.alpha);
  const HypParams hyp{opt.alpha1, opt.alpha2, opt.alpha3, opt.steps, opt.spatial};
  if (opt.method == "hyp") {
    const double a[3] = {opt.alpha1, opt.alpha2, opt.alpha3};
    for (int k = 0; k < 3; ++k)
      if (!(a[k] >= 0 && a[k] <= 1)) fail("--alpha{}: expected a HYP parameter in [0, 1], got {}", k + 1, a[k]);
  }
  std::error_code ec;
  if (std::filesystem::equivalent(opt.input, opt.output, ec)) fail("{}: input and output are the same file", opt.output);
  if (std::filesystem::exists(std::filesystem::symlink_status(opt.output, ec)) && !opt.force)
    fail("{}: exists already (use --force to replace it)", opt.output);
  const StoutParams stout{opt.rho, opt.steps, opt.spatial};
  const ApeParams ape{opt.alpha, opt.steps, opt.spatial};
  LoadPolicy policy;
  policy.verify = !opt.no_verify;
  policy.location = choose_location(opt.device);
  // Every rank reads the file and keeps its part; the smearing kernels exchange halos; the write gathers.
  policy.decompose = [&](const Dims& global) { return decompose_over_run(global, opt.grid, opt.input); };
  LoadedConfiguration c = load_configuration(opt.input, policy);
  // The output keeps the input's precision, except openQCD's (64-bit only). Smearing keeps 32-bit links'
  // distance from SU(3) (stout multiplies U, 3D smearing leaves the time links as read), so a 64-bit output
  // gets the input projected first; the "before" plaquette printed is then the projected field's.
  const int bits = opt.format == "openqcd" ? 64 : c.info.precision_bits;
  const bool projected = project_for_wider_output(c, bits);
  const GaugeField<double> V = opt.method == "stout" ? stout_smear(c.field, stout)
                               : opt.method == "hyp" ? hyp_smear(c.field, hyp)
                                                     : ape_smear(c.field, ape);
  const GaugeObservables o = gauge_observables(V);
  const std::string what =
      opt.method == "stout"
          ? fmt::format("stout, rho = {}, {} steps, {}", opt.rho, opt.steps, opt.spatial ? "spatial links" : "4D")
      : opt.method == "hyp"
          ? (opt.spatial ? fmt::format("HYP, alpha = ({}, {}), {} steps, spatial links (3D)", opt.alpha1, opt.alpha2, opt.steps)
                         : fmt::format("HYP, alpha = ({}, {}, {}), {} steps, 4D", opt.alpha1, opt.alpha2, opt.alpha3, opt.steps))
          : fmt::format("APE, alpha = {}, {} steps, {}", opt.alpha, opt.steps, opt.spatial ? "spatial links" : "4D");
  io::WriteOptions w;
  w.precision_bits = bits;
  w.plaquette = o.plaquette;
  w.link_trace = o.link_trace;
  w.metadata = {{"lqcd.smeared_from", opt.input}, {"lqcd.smearing", what}};
  if (projected) w.metadata["lqcd.projected"] = "links from 32-bit storage projected to SU(3) in double before smearing";
  save_configuration(opt.output, opt.format, V, w);
  if (comm::rank() != 0) return 0;
  std::cout << fmt::format("{} -> {} ({}; {}, {}-bit{}): plaquette {:.12f} -> {:.12f}\n", opt.input, opt.output, what,
                           opt.format, w.precision_bits, projected ? ", input projected to SU(3)" : "",
                           c.observables.plaquette, o.plaquette);
  return 0;
}

Command add_smear_command(CLI::App& lqcd) {
  auto o = std::make_shared<SmearCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "smear",
      "Smear a stored configuration (stout: Morningstar-Peardon; APE: Albanese et al.; HYP: Hasenfratz-Knechtli; projected to SU(3)) and "
      "write it atomically, in the input's precision (openqcd: 64-bit); prints the plaquette before and after.");
  c->add_option("input", o->input, "configuration to read (any supported format)")->required();
  c->add_option("output", o->output, "file to write")->required();
  c->add_option("--method", o->method, "stout | ape | hyp")->capture_default_str();
  c->add_option("--steps", o->steps, "smearing steps")->capture_default_str();
  c->add_option("--rho", o->rho, "stout: rho of every plane")->capture_default_str();
  c->add_option("--alpha", o->alpha, "ape: alpha (weight of the staples)")->capture_default_str();
  c->add_option("--alpha1", o->alpha1, "hyp: alpha1 (the outer level)")->capture_default_str();
  c->add_option("--alpha2", o->alpha2, "hyp: alpha2")->capture_default_str();
  c->add_option("--alpha3", o->alpha3, "hyp: alpha3 (the inner level; not used by 3D HYP)")->capture_default_str();
  c->add_flag("--spatial", o->spatial,
                  "smear only the spatial links, with spatial staples (3D; hyp: two levels within the cubes of a time "
                  "slice)");
  c->add_option("--format", o->format, "ildg | nersc | openqcd")->capture_default_str();
  c->add_flag("--force", o->force, "replace OUTPUT if it exists");
  c->add_flag("--no-verify", o->no_verify, "report checksum/header mismatches of the input instead of failing");
  add_device_option(c, o->device);
  add_grid_option(c, o->grid);
  return {c, [o] { return run_smear(*o); }};
}

}  // namespace lqcd::app
