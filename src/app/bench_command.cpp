#include "app/bench_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include "app/input_values.hpp"
#include "app/output.hpp"
#include "app/run_files.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <iostream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/device_choice.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "comm/process_grid.hpp"
#include "core/bandwidth.hpp"
#include "core/copy_stream.hpp"
#include "core/device_timeline.hpp"
#include "core/energy_meter.hpp"
#include "core/error.hpp"
#include "core/launch_tuning.hpp"
#include "core/timer.hpp"
#include "gauge/gauge_fixing.hpp"
#include "measure/distillation_contractions.hpp"
#include "measure/laplacian_eigenvectors.hpp"
#include "gauge/gradient_flow.hpp"
#include "measure/configuration.hpp"
#include "gauge/updates.hpp"
#include "core/site_random.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "dirac/wilson_even_odd_multi_rhs.hpp"
#include "fields/spinor_block_blas.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "core/dispatch.hpp"
#include "fields/spinor_block_field.hpp"
#include "solvers/solver.hpp"
#include "app/bench/dirac_bench.hpp"
#include "app/bench/distill_bench.hpp"
#include "app/bench/solver_bench.hpp"
#include "app/bench/timing.hpp"

namespace lqcd::app {

using namespace bench;

namespace {

// --dims over --grid (default: all processes along t) for this rank.
Geometry dirac_geometry(const BenchCommandOptions& opt) {
  return decompose_over_run(parse_dims_option(opt.dims, "--dims"), opt.grid, "--dims");
}

// A real option that must be finite (and positive where asked): nan or inf would time garbage.
void check_real_option(double v, const char* option, bool positive) {
  if (!std::isfinite(v) || (positive && !(v > 0)))
    fail("{}: expected a {}number, got {}", option, positive ? "positive " : "finite ", v);
}

}  // namespace

int run_bench(const BenchCommandOptions& opt) {
  ProgressLine progress(!opt.json);
  bench_progress.line = &progress;
  bench_progress.kernel = opt.kernel;
  struct Detach {
    ~Detach() { bench_progress.line = nullptr; }
  } detach;
  const std::vector<std::string> kernels = {"heatbath", "flow", "gaugefix", "distill", "copy", "dslash", "matpc", "solver"};
  if (std::find(kernels.begin(), kernels.end(), opt.kernel) == kernels.end())
    fail("lqcd bench: unknown benchmark \"{}\" (expected heatbath, flow, gaugefix, distill, copy, dslash, matpc or solver)",
         opt.kernel);
  if (opt.kernel == "dslash" || opt.kernel == "matpc" || opt.kernel == "solver") {
    if (opt.precision != "double" && opt.precision != "single" && opt.precision != "half")
      fail("--precision: expected double, single or half (got \"{}\")", opt.precision);
    if (opt.reconstruct != 18 && opt.reconstruct != 12 && opt.reconstruct != 8)
      fail("--reconstruct: expected 18 (full links), 12 (two rows) or 8 (minimal parametrisation), got {}",
           opt.reconstruct);
    if (opt.action == "clover" && (opt.reconstruct != 18 || opt.precision == "half"))
      fail("--action clover: implemented with 18-real links in double and single precision (got --reconstruct {}, "
           "--precision {})",
           opt.reconstruct, opt.precision);
    if (opt.precision == "half" && opt.reconstruct == 18)
      fail("--precision half: links are stored with 12 or 8 reals (--reconstruct 12 or 8)");
    if (opt.rhs < 1 || opt.rhs > 64) fail("--rhs: expected 1 to 64 right-hand sides (got {})", opt.rhs);
    if (opt.kernel == "solver") {
      if (opt.system != "normal" && opt.system != "matpc")
        fail("lqcd bench solver: --system must be normal or matpc (got \"{}\")", opt.system);
      const SolverType type = solver_type_from_name(opt.solver, "--solver");
      if (type == SolverType::Multigrid && opt.precision == "half")
        fail("--precision half: the multigrid cycle runs in double or single precision");
      if (type != SolverType::CG && type != SolverType::Multigrid && opt.system == "normal")
        fail("lqcd bench solver: --solver {} solves M_hat x = b: give --system matpc (--system normal is CG's)",
             opt.solver);
    }
    const bool multigrid = opt.kernel == "solver" && opt.solver == "multigrid";
    if (opt.rhs > 1 && opt.kernel == "solver" && !multigrid) {
      if (opt.rhs > kMaxBlockRhs)
        fail("--rhs {}: the multi-RHS solver takes 2 to {} right-hand sides", opt.rhs, kMaxBlockRhs);
      if (opt.action == "clover" || opt.reconstruct != 12 || opt.system != "normal")
        fail("--rhs {}: the multi-RHS solver is built for --action wilson or twisted_mass, --reconstruct 12 and "
             "--system normal (got --action {} --reconstruct {} --system {})",
             opt.rhs, opt.action, opt.reconstruct, opt.system);
    }
    if (opt.rhs > 1 && multigrid && comm::size() > 1)
      fail("--rhs {}: the multigrid on several right-hand sides runs on one process (this run has {})", opt.rhs,
           comm::size());
    if (opt.rhs > 1 && !multigrid) {
      if (opt.kernel != "dslash" && opt.kernel != "solver")
        fail("--rhs {}: several right-hand sides per call are implemented for lqcd bench dslash and solver (not {})",
             opt.rhs, opt.kernel);
      if (opt.action == "clover")
        fail("--rhs {}: the multi-right-hand-side dslash is implemented for --action wilson and twisted_mass "
             "(got clover)",
             opt.rhs);
      if (!multi_rhs_storage_available(opt))
        fail("--rhs {}: the multi-right-hand-side dslash is built for --reconstruct 12 (double, single, half) and "
             "--reconstruct 18 --precision single (got --reconstruct {} --precision {})",
             opt.rhs, opt.reconstruct, opt.precision);
      if (comm::size() > 1)
        fail("--rhs {}: multi-RHS dslash: not yet on a decomposed lattice (this run has {} processes)", opt.rhs,
             comm::size());
    }
    fermion_action_from_name(opt.action, "--action");
    check_real_option(opt.kappa, "--kappa", true);
    check_real_option(opt.mu, "--mu", false);
    check_real_option(opt.csw, "--csw", false);
    check_real_option(opt.tolerance, "--tolerance", true);
    if (opt.tolerance >= 1) fail("--tolerance: expected a number in (0, 1), got {}", opt.tolerance);
    // The lattice and process-grid errors before any measurement; at least the links and two spinors.
    const Geometry g = dirac_geometry(opt);
    check_lattice_fits(g, kGaugeBytesPerSite + 2 * kSpinorBytesPerSite, choose_location(opt.device), "--dims",
                       "the links and two spinor fields");
    if (opt.kernel == "solver" && opt.solver == "multigrid") {
      const MultigridParams mp = bench_multigrid_params(opt);
      check_lattice_fits(g,
                         kGaugeBytesPerSite + 2 * kSpinorBytesPerSite +
                             multigrid_bytes_per_site(mp, opt.precision == "single" ? 4 : 8, g.processes(), opt.rhs),
                         choose_location(opt.device), "--dims",
                         "the links, two spinor fields and the multigrid: " + multigrid_memory_summary(mp),
                         "use --multigrid outer_restart=8 (fits 48^4 on 80 GB) or fewer test_vectors, or more "
                         "processes (--grid)");
    }
  }
  if (opt.kernel == "heatbath") {  // its lattice and action errors before any measurement
    const Geometry geom = ProcessGrid::single().decompose(parse_dims_option(opt.dims, "--dims"), "--dims");
    check_lattice_fits(geom, kGaugeBytesPerSite, choose_location(opt.device), "--dims", "the gauge field");
    const GaugeAction action = GaugeAction::from_name(opt.action, 6.0, "--action");
    for (int mu = 0; mu < 4; ++mu)  // the checkerboard of the rectangle heatbath (gauge/updates.hpp)
      if (action.has_rectangles() && geom.global[mu] % 4)
        fail("--dims: the {} action's heatbath needs every extent to be a multiple of 4 (got {})", action.name(),
             dims_string(geom.global));
    check_update_geometry(geom, action);
  }
  if (opt.repetitions < 1) fail("--repetitions: expected a positive integer (got {})", opt.repetitions);
  if (opt.timing != "events" && opt.timing != "wall" && opt.timing != "batched")
    fail("--timing: expected events, batched or wall (got {})", opt.timing);
  device_timing = opt.timing == "events"    ? DeviceTiming::Events
                  : opt.timing == "batched" ? DeviceTiming::Batched
                                            : DeviceTiming::Wall;
  if (opt.rotation_sets < 0 || opt.rotation_sets > 64)
    fail("--rotation-sets: expected 0 (automatic) to 64 (got {})", opt.rotation_sets);
  if (!opt.config.empty()) {
    if (opt.kernel != "dslash" && opt.kernel != "matpc" && opt.kernel != "solver" && opt.kernel != "gaugefix")
      fail("--config: a gauge configuration is used by lqcd bench dslash, matpc, solver and gaugefix (not {})",
           opt.kernel);
    io::detect_gauge_format(opt.config);  // a missing or unreadable file is an error before any measurement
  }
  if (comm::size() > 1 &&
      (opt.kernel == "heatbath" || opt.kernel == "flow" || opt.kernel == "gaugefix" || opt.kernel == "distill" ||
       opt.kernel == "copy"))
    fail("lqcd bench {}: runs on one process (this run has {}); dslash, matpc and solver run on several", opt.kernel,
         comm::size());
  const bool root = comm::rank() == 0;  // prints for all
  const Location loc = choose_location(opt.device);
  const std::string device = loc == Location::Device ? device_description() : "CPU (OpenMP)";
  EnergyMeter meter(loc);  // this process's GPU (NVML, loaded at run time), or why not

  // The reference first: copy bandwidth of a buffer far larger than the caches.
  const std::size_t copy_bytes = loc == Location::Device ? (std::size_t(1) << 30) : (std::size_t(1) << 28);
  const CopyBandwidth copy = measure_copy_bandwidth(loc, copy_bytes, std::max(opt.repetitions, 10));
  nlohmann::json result = {{"program", version_string()},
                           {"device", device},
                           {"copy_bandwidth_GBps", copy.gb_per_s},
                           {"copy_bytes", copy.bytes},
                           {"timing", timing_description(loc)},
                           {"energy_note", meter.available()
                                               ? nlohmann::json(nullptr)
                                               : nlohmann::json("not measured (" + meter.unavailable_reason() + ")")}};
  if (!opt.json && root) {
    std::cout << fmt::format("# {}\n# device: {}\n# copy bandwidth: {:.1f} GB/s (read + write, {} MiB buffers, median of {})\n"
                             "# timing: {}\n",
                             version_string(), device, copy.gb_per_s, copy.bytes >> 20, copy.repetitions,
                             timing_description(loc));
    std::cout << (meter.available()
                      ? fmt::format("# energy: NVML counter of the GPU at {} over each timed loop (at least 1 s)\n",
                                    meter.pci_bus_id())
                      : fmt::format("# energy: not measured ({})\n", meter.unavailable_reason()));
  }

  if (opt.kernel == "heatbath") {
    const Dims dims = parse_dims_option(opt.dims, "--dims");
    const Geometry geom = ProcessGrid::single().decompose(dims, "--dims");
    const GaugeAction action = GaugeAction::from_name(opt.action, 6.0, "--action");
    check_update_geometry(geom, action);
    GaugeField<double> U(geom, loc);
    set_hot_gauge(U, 1);
    std::uint32_t sweep = 0;
    RegionEnergy e_hb{meter, geom.grid}, e_or{meter, geom.grid};
    const double t_hb = median_seconds(loc, opt.repetitions, [&] { heatbath_sweep(U, action, 1, sweep++); }, &e_hb);
    const double t_or = median_seconds(loc, opt.repetitions, [&] { overrelaxation_sweep(U, action); }, &e_or);
    // Bytes per sweep (double precision, 18 reals = 144 bytes per link), Wilson action:
    //   naive   = every link update loads its 18 staple links and loads + stores the link: 20 x 144 B x 4V;
    //   minimal = per direction-and-parity subset, all 8 link blocks of V/2 read once and 1 written:
    //             9 x V/2 x 144 B x 8 subsets = 36 V x 144 B.
    // Rectangle actions load 18 x 5 more links per update (naive); their minimal traffic per subset is
    // the same field read, repeated for 4 colours.
    const double v = double(geom.volume()), link_bytes = 144;
    const double naive = (action.has_rectangles() ? 110.0 : 20.0) * 4 * v * link_bytes;
    const double minimal = (action.has_rectangles() ? 4.0 : 1.0) * 36 * v * link_bytes;
    const double combined = t_hb + 4 * t_or;
    result.update({{"benchmark", "heatbath"},
                   {"dims", dims},
                   {"action", action.name()},
                   {"precision", "double"},
                   {"repetitions", opt.repetitions},
                   {"heatbath_sweep_s", t_hb},
                   {"overrelaxation_sweep_s", t_or},
                   {"sweeps_per_s_hb_plus_4or", 1.0 / combined},
                   {"link_updates_per_s_hb", 4 * v / t_hb},
                   {"bytes_per_sweep_naive", naive},
                   {"bytes_per_sweep_minimal", minimal},
                   {"heatbath_GBps_naive", naive / t_hb / 1e9},
                   {"heatbath_GBps_minimal", minimal / t_hb / 1e9},
                   {"overrelaxation_GBps_minimal", minimal / t_or / 1e9},
                   {"heatbath_fraction_of_copy", minimal / t_hb / 1e9 / copy.gb_per_s},
                   {"overrelaxation_fraction_of_copy", minimal / t_or / 1e9 / copy.gb_per_s}});
    result.update(energy_fields("heatbath_", e_hb, std::nullopt));  // per sweep; no FLOP count
    result.update(energy_fields("overrelaxation_", e_or, std::nullopt));
    if (!opt.json)
      std::cout << fmt::format(
          "# heatbath benchmark: {} lattice, {} action, double precision, median of {}\n"
          "  heatbath sweep        {:9.3f} ms   {:8.1f} GB/s minimal ({:.1f} naive)   {:5.1f}% of copy\n"
          "  overrelaxation sweep  {:9.3f} ms   {:8.1f} GB/s minimal                  {:5.1f}% of copy\n"
          "  heatbath + 4 OR       {:9.3f} sweeps/s   ({:.3g} link updates/s in the heatbath)\n",
          dims_string(dims), action.name(), opt.repetitions, t_hb * 1e3, minimal / t_hb / 1e9, naive / t_hb / 1e9,
          100 * minimal / t_hb / 1e9 / copy.gb_per_s, t_or * 1e3, minimal / t_or / 1e9,
          100 * minimal / t_or / 1e9 / copy.gb_per_s, 1.0 / combined, 4 * v / t_hb);
    if (!opt.json && e_hb.reading.available && e_or.reading.available)
      std::cout << fmt::format("  energy per sweep      {:9.4f} J heatbath ({:.1f} W), {:.4f} J overrelaxation "
                               "({:.1f} W)\n",
                               e_hb.reading.joules / double(e_hb.calls), e_hb.reading.watts(),
                               e_or.reading.joules / double(e_or.calls), e_or.reading.watts());
  }
  if (opt.kernel == "flow") {
    const Dims dims = parse_dims_option(opt.dims, "--dims");
    const Geometry geom = ProcessGrid::single().decompose(dims, "--dims");
    GaugeField<double> U(geom, loc);
    set_hot_gauge(U, 1);
    heatbath_sweep(U, GaugeAction::from_name("wilson", 6.0), 1, 0);  // a rough, realistic field
    GradientFlow flow(U);
    RegionEnergy e_step{meter, geom.grid};
    const double eps = 0.01;
    const double t_step = median_seconds(loc, opt.repetitions, [&] { flow.step(U, eps); }, &e_step);
    const double t_measure = median_seconds(loc, opt.repetitions, [&] { (void)flow_measurement(U, 0); });
    // Minimal bytes per RK3 step (double, 144 B per link, 4 links = 576 B per site and field): each of
    // the three stages reads V and X and writes X (the first does not read X), then reads X and V and
    // writes V: 17 field passes. The measurement reads V once.
    const double v = double(geom.volume()), field = 576 * v, step_bytes = 17 * field, measure_bytes = field;
    result.update({{"benchmark", "flow"},
                   {"dims", dims},
                   {"flow", "wilson"},
                   {"integrator", "rk3"},
                   {"precision", "double"},
                   {"repetitions", opt.repetitions},
                   {"step_s", t_step},
                   {"measurement_s", t_measure},
                   {"bytes_per_step_minimal", step_bytes},
                   {"step_GBps_minimal", step_bytes / t_step / 1e9},
                   {"step_fraction_of_copy", step_bytes / t_step / 1e9 / copy.gb_per_s},
                   {"measurement_fraction_of_copy", measure_bytes / t_measure / 1e9 / copy.gb_per_s},
                   {"flow_to_t3_s", 300 * (t_step + t_measure)}});
    result.update(energy_fields("step_", e_step, std::nullopt));
    if (!opt.json)
      std::cout << fmt::format(
          "# flow benchmark: {} lattice, Wilson flow, RK3, double precision, median of {}\n"
          "  RK3 step              {:9.3f} ms   {:8.1f} GB/s minimal   {:5.1f}% of copy\n"
          "  E and Q measurement   {:9.3f} ms   {:5.1f}% of copy\n"
          "  flow to t = 3 (eps 0.01, measured every step): {:.2f} s\n",
          dims_string(dims), opt.repetitions, t_step * 1e3, step_bytes / t_step / 1e9,
          100 * step_bytes / t_step / 1e9 / copy.gb_per_s, t_measure * 1e3,
          100 * measure_bytes / t_measure / 1e9 / copy.gb_per_s, 300 * (t_step + t_measure));
  }
  if (opt.kernel == "gaugefix") {
    // Without --config: a rough field (hot start + one heatbath sweep) of --dims for the time per
    // iteration; with --config (of --dims), also the whole Landau and Coulomb fixes of it to 1e-14.
    const Dims dims = parse_dims_option(opt.dims, "--dims");
    const Geometry geom = ProcessGrid::single().decompose(dims, "--dims");
    GaugeField<double> start(geom, loc);
    if (opt.config.empty()) {
      set_hot_gauge(start, 1);
      heatbath_sweep(start, GaugeAction::from_name("wilson", 6.0), 1, 0);
    } else {
      start.copy_from(load_configuration(opt.config, load_policy_for(start)).field);
    }
    GaugeField<double> U = start.clone(loc);
    // One iteration: F and theta (with Delta), and the step. Timed as 10 iterations per call.
    const auto per_iteration = [&](GaugeCondition gauge, GaugeFixMethod method) {
      GaugeFixParams p;
      p.gauge = gauge;
      p.method = method;
      p.precision = 1e-300;
      p.max_iterations = 10;
      return median_seconds(loc, opt.repetitions, [&] { (void)fix_gauge(U, p); }) / 10;
    };
    const double t_landau = per_iteration(GaugeCondition::Landau, GaugeFixMethod::Fourier);
    const double t_coulomb = per_iteration(GaugeCondition::Coulomb, GaugeFixMethod::Fourier);
    const double t_or = per_iteration(GaugeCondition::Landau, GaugeFixMethod::Overrelaxation);
    // Minimal bytes per site and iteration (double; a link 144 B, the packed Delta 64 B):
    //   Fourier: measurement reads 4 links and writes Delta (576 + 64), each FFT reads and writes Delta
    //   once (2 x 128), the filter too (128), the rotation reads Delta and 4 links and writes 4 links
    //   (64 + 2 x 576): 2240 B.
    //   Overrelaxation: per parity the maximisation reads the 8 links of half the sites (V/2 x 1152) and
    //   writes g (V/2 x 144), the application reads g and reads + writes the 4 links of every site:
    //   2 x (576 + 72 + 144 + 1152) = 3888 B; plus the measurement (576): 4464 B.
    const double v = double(geom.volume()), fourier_bytes = 2240 * v, or_bytes = 4464 * v;
    result.update({{"benchmark", "gaugefix"},
                   {"dims", dims},
                   {"links", opt.config.empty() ? std::string("hot start + 1 heatbath sweep at beta 6.0") : opt.config},
                   {"precision", "double"},
                   {"repetitions", opt.repetitions},
                   {"landau_fft_iteration_s", t_landau},
                   {"coulomb_fft_iteration_s", t_coulomb},
                   {"landau_overrelaxation_iteration_s", t_or},
                   {"fft_bytes_per_iteration_minimal", fourier_bytes},
                   {"overrelaxation_bytes_per_iteration_minimal", or_bytes},
                   {"landau_fft_fraction_of_copy", fourier_bytes / t_landau / 1e9 / copy.gb_per_s},
                   {"coulomb_fft_fraction_of_copy", fourier_bytes / t_coulomb / 1e9 / copy.gb_per_s},
                   {"overrelaxation_fraction_of_copy", or_bytes / t_or / 1e9 / copy.gb_per_s}});
    if (!opt.json)
      std::cout << fmt::format(
          "# gaugefix benchmark: {} lattice ({}), double precision, median of {} (10 iterations each)\n"
          "  Landau, FFT steepest descent    {:9.3f} ms per iteration   {:5.1f}% of copy\n"
          "  Coulomb, FFT steepest descent   {:9.3f} ms per iteration   {:5.1f}% of copy\n"
          "  Landau, overrelaxation          {:9.3f} ms per iteration   {:5.1f}% of copy\n",
          dims_string(dims), result["links"].get<std::string>(), opt.repetitions, t_landau * 1e3,
          100 * fourier_bytes / t_landau / 1e9 / copy.gb_per_s, t_coulomb * 1e3,
          100 * fourier_bytes / t_coulomb / 1e9 / copy.gb_per_s, t_or * 1e3,
          100 * or_bytes / t_or / 1e9 / copy.gb_per_s);
    if (!opt.config.empty()) {
      for (GaugeCondition gauge : {GaugeCondition::Landau, GaugeCondition::Coulomb}) {
        U.copy_from(start);
        GaugeFixParams p;
        p.gauge = gauge;
        p.precision = 1e-14;
        const Stopwatch watch;
        const GaugeFixResult r = fix_gauge(U, p);
        const double seconds = watch.seconds();
        const std::string key = to_string(gauge) + "_fft_to_1e-14_";
        result.update({{key + "s", seconds}, {key + "iterations", r.iterations}, {key + "converged", r.converged},
                       {key + "theta", r.final.theta}});
        if (!opt.json)
          std::cout << fmt::format("  {} gauge to theta < 1e-14 (FFT): {:.2f} s, {} iterations{} (theta {:.2e})\n",
                                   to_string(gauge), seconds, r.iterations, r.converged ? "" : ", NOT converged",
                                   r.final.theta);
      }
    }
  }
  if (opt.kernel == "distill") result.update(distill_bench(opt, loc));
  if (opt.kernel == "dslash" || opt.kernel == "matpc" || opt.kernel == "solver") {
    const Dims dims = parse_dims_option(opt.dims, "--dims");
    const Geometry geom = dirac_geometry(opt);
    const Dims& grid = geom.grid;
    result["benchmark"] = opt.kernel;
    result["dims"] = dims;
    result["grid"] = grid;
    result["local_dims"] = geom.local;
    result["links"] = opt.config.empty() ? std::string("Haar-random (seed 1)") : opt.config;
    result["repetitions"] = opt.repetitions;
    if (opt.kernel == "solver") result.update(solver_bench(opt, geom, loc, copy.gb_per_s, meter));
    else result.update(dirac_bench_as_asked(opt, geom, loc, copy.gb_per_s, meter));
    if (loc == Location::Device) result.update(launch_tuning_fields());
    if (!opt.json && root) {
      std::cout << fmt::format("# {} benchmark: {} lattice over process grid {}, {} action, {} precision, median of {}\n",
                               opt.kernel, dims_string(dims), dims_string(grid), opt.action, opt.precision,
                               opt.repetitions);
      for (const auto& [key, value] : result.items())
        if (key != "program" && key != "device" && key != "energy_note")  // in the header
          std::cout << fmt::format("  {:<24} {}\n", key, value.dump());
    }
  }
  if (opt.json && root) std::cout << result.dump() << std::endl;
  return 0;
}

Command add_bench_command(CLI::App& lqcd) {
  auto o = std::make_shared<BenchCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "bench", "Performance harness: measures the copy bandwidth, then the kernel; prints median times, GB/s and "
               "the fraction of the copy bandwidth. On a GPU also the energy of each timed loop from the driver's "
               "counter (NVML, loaded at run time; LQCD_NVML_LIBRARY names another library): energy_joules per "
               "call, average_watts, gflops_per_watt (prefixed matpc_/mdagm_/heatbath_/overrelaxation_ where a "
               "benchmark times several things); null, with energy_note saying why, where it is not measured.");
  c->add_option("kernel", o->kernel, "heatbath | flow | gaugefix | distill | copy | dslash | matpc | solver")->capture_default_str();
  c->add_option("--dims", o->dims, "lattice X,Y,Z,T")->capture_default_str();
  c->add_option("--grid", o->grid,
                    "dslash, matpc, solver: processes per direction X,Y,Z,T (run under mpirun -np X*Y*Z*T; one GPU "
                    "per rank); default: all along t");
  add_device_option(c, o->device);
  c->add_option("--action", o->action,
                    "heatbath: gauge action; dslash, matpc, solver: wilson | clover | twisted_mass")
      ->capture_default_str();
  c->add_option("--precision", o->precision, "double | single | half (16-bit fixed point; solver: single, half = double outer, single / half inner)")
      ->capture_default_str();
  c->add_option("--reconstruct", o->reconstruct, "reals stored per link: 18 | 12 | 8 (12 and 8: Wilson and twisted mass; half: 12 or 8)")->capture_default_str();
  c->add_option("--rhs", o->rhs,
                    "right-hand sides per call (dslash: 1 to 64, one kernel for all; solver: 2 to 32, the multi-RHS "
                    "CG against the same solves one at a time; solver --solver multigrid: 2 to 64 solved together "
                    "through block cycles, against one at a time)")
      ->capture_default_str();
  c->add_option("--kappa", o->kappa, "hopping parameter of the Dirac benchmarks")->capture_default_str();
  c->add_option("--mu", o->mu, "twisted mass (twisted_mass)")->capture_default_str();
  c->add_option("--csw", o->csw, "clover coefficient (clover)")->capture_default_str();
  c->add_option("--tolerance", o->tolerance, "solver: true relative residual")->capture_default_str();
  c->add_option("--max-iterations", o->max_iterations,
                    "solver --solver multigrid: outer iterations per right-hand side before the solve counts as failed")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  c->add_option("--inner-tolerance", o->inner_tolerance,
                    "solver, --precision single|half: residual reduction of each lower-precision correction "
                    "(half: at least 1e-3)")
      ->check(CLI::Range(1e-12, 0.5))
      ->capture_default_str();
  c->add_option("--timing", o->timing,
                    "device calls: events = CUDA events between back-to-back calls (the device's time per call); "
                    "batched = CUDA events around batches of " + std::to_string(kTimingBatch) +
                        " back-to-back calls, none between them (as in a solver's loop); wall = host clock around "
                        "each call, synchronised after it (adds launch and sync latency)")
      ->check(CLI::IsMember({"events", "batched", "wall"}))
      ->capture_default_str();
  c->add_option("--system", o->system,
                    "solver: normal = CG on M^dag M x = M^dag b with the tolerance on that residual (as QUDA's "
                    "CG test); matpc = --solver on M x = b, tolerance on ||b - M x|| / ||b||")
      ->capture_default_str();
  c->add_option("--solver", o->solver,
                    "solver, --system matpc: cg (CGNR, on the normal equations) | bicgstab | gcr (on M itself); "
                    "multigrid: flexible GCR with the multigrid cycle on the full system M x = b (--system not used; "
                    "the setup timed apart)")
      ->capture_default_str();
  c->add_option("--multigrid", o->multigrid,
                    "solver --solver multigrid: KEY=VALUE settings of the [multigrid] table, repeatable "
                    "(e.g. --multigrid test_vectors=32 --multigrid block=[4,4,4,4]); see lqcd propagator --print-config");
  c->add_option("--config", o->config,
                    "dslash, matpc, solver: gauge configuration to use (ILDG, SciDAC, NERSC, MILC, openQCD; its dims "
                    "must be --dims) instead of Haar-random links");
  c->add_option("--rotation-sets", o->rotation_sets,
                    "dslash: copies of links and fields that the timed calls take in turn, so that each call reads "
                    "DRAM (0: enough copies to exceed twice the L2; 1: the same inputs every call, L2-resident on "
                    "small lattices)")
      ->capture_default_str();
  c->add_option("--nv", o->nv, "distill: Laplacian eigenvectors per time slice")->capture_default_str();
  c->add_option("--repetitions", o->repetitions, "timed repetitions (the median is reported)")->capture_default_str();
  c->add_flag("--json", o->json, "one JSON object on stdout");
  return {c, [o] { return run_bench(*o); }};
}

}  // namespace lqcd::app
