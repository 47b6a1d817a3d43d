#include "app/loops_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>

#include "app/device_choice.hpp"
#include "app/json_values.hpp"
#include "app/loops_input.hpp"
#include "app/output.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "io/hdf5_correlators.hpp"
#include "measure/spin_matrix.hpp"
#include "measure/statistics.hpp"
#include "measure/stochastic_estimates.hpp"

namespace lqcd::app {

namespace {

std::string dilution_description(const NoiseSpec& n) {
  std::string s;
  for (const auto& [on, name] : {std::pair<bool, const char*>{n.dilution.time, "time"}, {n.dilution.spin, "spin"},
                                 {n.dilution.colour, "colour"}})
    if (on) s += std::string(s.empty() ? "" : ", ") + name;
  if (n.dilution.space_stride > 1) s += fmt::format("{}space stride {}", s.empty() ? "" : ", ", n.dilution.space_stride);
  return s.empty() ? "none" : s;
}

}  // namespace

int run_loops(const LoopsCommandOptions& opt) {
  Config config(loops_schema(), "loops");
  if (!opt.input.empty()) config.merge_file(opt.input);
  if (opt.print_config) {
    std::cout << config.to_toml();
    return 0;
  }
  const LoopsInput input = read_loops_input(config);
  const QuarkInput& in = input.quark;
  const Location loc = choose_location(opt.device);
  check_quark_lattice_fits(in, config, loc, opt.grid);
  const OutputPrefixLock output_lock(in.prefix, "output.prefix");

  const Stopwatch clock;
  const QuarkProblem problem(in, loc, opt.grid);
  RunLog log(in.prefix + ".log", false, opt.quiet || opt.json);
  JsonLines jsonl(in.prefix + ".jsonl", false);
  const Dims dims = problem.links().geometry().global;
  const int T = dims[3];
  NoiseSpec noise = input.noise;
  int pieces = 0;
  try {
    pieces = dilution_pieces(noise, dims);
  } catch (const Error& e) {
    config.fail_key("loops.space_stride", e.what());
  }
  log.line("# {}", version_string());
  log.line("# lqcd loops: disconnected loops L_G(t, p) = sum_x e^{{-i p.x}} tr[G M^-1(x, x)] from {} {} noise vectors, "
           "dilution {} ({} solves each)", input.vectors, noise_type_name(noise.type), dilution_description(noise), pieces);
  log.line("# gauge: {}; plaquette {:.12f}", problem.gauge_description(), problem.observables().plaquette);
  log.line("# quark: {}", describe_fermion(in.fermion));
  log.line("# backend: {}", loc == Location::Device ? "CUDA, " + device_description() : "CPU (OpenMP)");
  log.line("# conventions: M in hopping form (M = 2 kappa D), x_t = t absolute, p = 2 pi n / L, x from the origin; "
           "DeGrand-Rossi gamma basis; G named by its literal product");
  log_input(log, config);

  std::vector<SpinMatrix> gammas;
  for (int g : input.gammas) gammas.push_back(SpinMatrix::basis(g));
  const PropagatorOptions options = problem.solve_options(in, log, jsonl, "loops");
  const Stopwatch expansion_clock;
  const HoppingExpansion expansion = hopping_expansion(*problem.operators().full, input.hopping_expansion);
  if (input.hopping_expansion > 0)
    log.line("# variance reduction: hopping-parameter expansion to order {} taken exactly ({:.2f} s), the noise "
             "estimates (kappa A^-1 H)^{} M^-1 only", input.hopping_expansion, expansion_clock.seconds(), input.hopping_expansion);
  io::CorrelatorFile file;
  std::vector<LoopEstimate> estimates;
  for (int v = 0; v < input.vectors; ++v) {
    noise.index = v;
    const Stopwatch vector_clock;
    estimates.push_back(
        disconnected_loops(problem.operators(), in.even_odd, noise, gammas, input.momenta, options, &expansion));
    log.line("  noise vector {}: {} solves in {:.2f} s", v, pieces, vector_clock.seconds());
    for (std::size_t g = 0; g < gammas.size(); ++g)
      for (std::size_t m = 0; m < input.momenta.size(); ++m)
        file.datasets.push_back({fmt::format("loop_{}_noise{}", gamma_name(input.gammas[g]), v), input.momenta[m],
                                 estimates.back()[g][m]});
  }
  // Mean and standard error over the noise vectors at the first momentum, real and imaginary parts.
  nlohmann::json loops = nlohmann::json::object();
  log.line("# mean over {} noise vectors +- standard error, p = [{}, {}, {}] (all vectors and momenta in {}.h5):",
           input.vectors, input.momenta[0][0], input.momenta[0][1], input.momenta[0][2], in.prefix);
  for (std::size_t g = 0; g < gammas.size(); ++g) {
    const std::string name = gamma_name(input.gammas[g]);
    std::vector<double> mean[2], error[2];
    for (int part = 0; part < 2; ++part)
      for (int t = 0; t < T; ++t) {
        std::vector<double> x;
        for (const LoopEstimate& e : estimates) {
          const Complex<double> z = e[g][0][std::size_t(t)];
          x.push_back(part ? z.im : z.re);
        }
        // Independent vectors: the jackknife of the mean is its standard error.
        const Estimate e = binned_jackknife(x, 1);
        mean[part].push_back(e.mean);
        error[part].push_back(e.bins > 1 ? e.error : std::nan(""));
      }
    log.line("# L_{}(t): {:>3} {:>15} {:>11} {:>15} {:>11}", name, "t", "re", "error", "im", "error");
    for (int t = 0; t < T; ++t)
      log.line("  {:>3} {:15.8e} {:11.3e} {:15.8e} {:11.3e}", t, mean[0][std::size_t(t)], error[0][std::size_t(t)],
               mean[1][std::size_t(t)], error[1][std::size_t(t)]);
    loops[name] = {{"re", finite_or_null(mean[0])}, {"re_error", finite_or_null(error[0])},
                   {"im", finite_or_null(mean[1])}, {"im_error", finite_or_null(error[1])}};
  }
  const WilsonParams& w = in.fermion.wilson;
  file.string_attributes = {{"program", version_string()},
                            {"gauge_config", in.config},
                            {"fermion_action", config.string("fermion.action")},
                            {"quark", describe_fermion(in.fermion)},
                            {"noise", noise_type_name(noise.type)},
                            {"dilution", dilution_description(noise)},
                            {"solver", solver_type_name(in.solver.type)},
                            {"dims", dims_string(dims)},
                            {"gamma_basis", "DeGrand-Rossi (Chroma/QDP++)"},
                            {"convention", "loop_<G>_noise<i>: L_G(t, p) = sum_x exp(-i p.x) eta_i^dag G M^-1 eta_i "
                                           "summed over the dilution pieces of noise vector i, an unbiased estimate of "
                                           "sum_x exp(-i p.x) tr[G M^-1(x, x)] on slice t (absolute), M in hopping form (with "
                                           "hopping_expansion_order n > 0 the expansion's first n terms exact, the noise "
                                           "on the rest); "
                                           "datasets [T][re, im], p = 2 pi n / L"}};
  file.number_attributes = {{"kappa", w.kappa}, {"csw", in.fermion.csw}, {"mu", w.mu},
                            {"noise_vectors", double(input.vectors)}, {"noise_seed", double(noise.seed)},
                            {"solves_per_vector", double(pieces)}, {"solver_tolerance", in.solver.tolerance},
                            {"hopping_expansion_order", double(input.hopping_expansion)},
                            {"plaquette", problem.observables().plaquette}};
  const std::string h5 = in.prefix + ".h5";
  if (comm::rank() == 0) io::write_correlators_hdf5(h5, file);
  nlohmann::json summary = {{"record", "loops"},
                            {"config", in.config},
                            {"dims", dims},
                            {"plaquette", problem.observables().plaquette},
                            {"fermion", {{"action", config.string("fermion.action")}, {"kappa", w.kappa},
                                         {"csw", in.fermion.csw}, {"mu", w.mu}}},
                            {"noise", {{"type", noise_type_name(noise.type)}, {"vectors", input.vectors},
                                       {"seed", noise.seed}, {"dilution", dilution_description(noise)},
                                       {"solves_per_vector", pieces},
                                       {"hopping_expansion_order", input.hopping_expansion}}},
                            {"momentum", input.momenta[0]},
                            {"loops", loops},
                            {"hdf5", h5},
                            {"seconds", clock.seconds()}};
  jsonl.write(summary);
  if (opt.json && comm::rank() == 0) std::cout << summary.dump() << std::endl;
  log.line("# done in {}", format_duration(clock.seconds()));
  return 0;
}

Command add_loops_command(CLI::App& lqcd) {
  auto o = std::make_shared<LoopsCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "loops",
      "Disconnected quark loops tr[G M^-1(x, x)] per time slice and momentum from diluted Z2, Z4 or U(1) noise\n"
      "sources: each noise vector's estimate in PREFIX.h5, their mean and standard error in the log,\n"
      "PREFIX.jsonl and (--json) on stdout.");
  add_toml_input(c, o->input, o->print_config);
  c->add_flag("--json", o->json, "print one JSON object (the loops' means and errors) on stdout");
  add_device_option(c, o->device);
  add_grid_option(c, o->grid);
  add_quiet_option(c, o->quiet, "no log on stdout (files are still written)");
  return {c, [o] { return run_loops(*o); }};
}

}  // namespace lqcd::app
