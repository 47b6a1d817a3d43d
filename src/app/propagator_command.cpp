#include "app/propagator_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "app/device_choice.hpp"
#include "app/quark_input.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "io/propagator_lime.hpp"

namespace lqcd::app {

std::vector<KeySpec> propagator_schema() { return quark_schema("lqcd-propagator"); }

int run_propagator(const PropagatorCommandOptions& opt) {
  Config config(propagator_schema(), "propagator");
  if (!opt.input.empty()) config.merge_file(opt.input);
  if (opt.print_config) {
    std::cout << config.to_toml();
    return 0;
  }
  const QuarkInput in = read_quark_input(config);
  const Location loc = choose_location(opt.device);
  check_quark_lattice_fits(in, config, loc, opt.grid);
  const OutputPrefixLock output_lock(in.prefix, "output.prefix");  // held to the end: no second run interleaves
  const std::string file = in.prefix + ".prop.lime";
  std::error_code ec;  // symlink_status: a dangling or looping symbolic link is there too
  if (std::filesystem::exists(std::filesystem::symlink_status(file, ec)) && !opt.force)
    fail("{}: exists; choose another output.prefix or pass --force to replace it", file);

  const Stopwatch clock;
  // The configuration is read before the log and the JSON lines are opened: a file that cannot be used
  // leaves no output behind.
  const QuarkProblem problem(in, loc, opt.grid);
  RunLog log(in.prefix + ".log", false, opt.quiet);
  JsonLines jsonl(in.prefix + ".jsonl", false);
  log.line("# {}", version_string());
  log.line("# lqcd propagator: 12 solves (source spin x colour) of a {} source", config.string("source.type"));
  log.line("# gauge: {}; plaquette {:.12f}", problem.gauge_description(), problem.observables().plaquette);
  log.line("# quark: {}", describe_fermion(in.fermion));
  log.line("# backend: {}", loc == Location::Device ? "CUDA, " + device_description() : "CPU (OpenMP)");
  if (problem.links().geometry().distributed())
    log.line("# lattice split over {} MPI ranks, process grid {} (x,y,z,t)", problem.links().geometry().processes(),
             dims_string(problem.links().geometry().grid));
  log_input(log, config);
  const PointPropagator S = problem.propagator(in, problem.operators(), log, jsonl, "q");

  // On several ranks the whole propagator is gathered to rank 0, which writes the file (a parallel
  // LIME writer would avoid holding it on one rank; fine while it fits one node's memory).
  io::PropagatorFile prop;
  prop.dims = S.dims();
  prop.columns = gather_propagator_on_root(S);
  prop.file_xml = fmt::format(
      "<?xml version=\"1.0\"?><lqcd_propagator><program>{}</program><gauge>{}</gauge><quark>{}</quark>"
      "<source type=\"{}\"{}>{} {} {} {}</source><solver>{}</solver><tolerance>{:.3g}</tolerance>"
      "<normalisation>hopping form M = 2 kappa (D_W + m0 + ...), solution of M psi = source</normalisation>"
      "</lqcd_propagator>",
      version_string(), in.config, describe_fermion(in.fermion), config.string("source.type"),
      in.source.type == SourceType::GaussianWavefunction ? fmt::format(" radius=\"{:.17g}\"", in.source.radius) : "",
      in.source.position[0],
      in.source.position[1], in.source.position[2], in.source.position[3], solver_type_name(in.solver.type),
      in.solver.tolerance);
  if (comm::rank() == 0) io::write_propagator_lime(file, prop);
  log.line("# wrote {} (SciDAC/QIO LIME, 12 columns, 64-bit, big-endian, checksummed)", file);
  jsonl.write({{"record", "propagator"}, {"file", file}, {"seconds", clock.seconds()}});
  log.line("# done in {}", format_duration(clock.seconds()));
  return 0;
}

Command add_propagator_command(CLI::App& lqcd) {
  auto o = std::make_shared<PropagatorCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "propagator",
      "Quark propagator of one source (12 spin-colour solves) on a configuration or the free field, saved as\n"
      "PREFIX.prop.lime (SciDAC/QIO LIME). Solver residuals are checked with the full operator.");
  add_toml_input(c, o->input, o->print_config);
  add_device_option(c, o->device);
  add_grid_option(c, o->grid);
  c->add_flag("--force", o->force, "replace an existing PREFIX.prop.lime");
  add_quiet_option(c, o->quiet, "no log on stdout (files are still written)");
  return {c, [o] { return run_propagator(*o); }};
}

}  // namespace lqcd::app
