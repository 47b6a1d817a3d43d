#include "app/hmc_command.hpp"

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

std::vector<KeySpec> hmc_schema() {
  std::vector<KeySpec> s = {
      {"lattice.dims", "[8, 8, 8, 8]", "extents (x, y, z, t), even"},
      {"gauge.beta", "5.6", "coupling beta = 6/g^2 of the gauge monomial"},
      {"gauge.action", "\"wilson\"", "wilson | symanzik | iwasaki | dbw2"},
      {"integrator.type", "\"omelyan2\"", "leapfrog | omelyan2 (2nd-order minimal norm) | omelyan4 (4th order) | force_gradient (4th order)"},
      {"integrator.tau", "1.0", "trajectory length"},
      {"integrator.steps", "[6, 3]", "steps per level, outermost (level 0) first; each level nests in the one above"},
      {"hmc.trajectories", "5", "trajectories after thermalization"},
      {"hmc.thermalization", "5", "trajectories before averages start and configurations are saved"},
      {"hmc.accept_thermalization", "true",
       "accept every thermalization trajectory (no Metropolis step): moves a cold or hot start towards equilibrium; "
       "trajectories after thermalization always use the accept/reject step"},
      {"hmc.seed", "12345", "seed of the counter-based random numbers (momenta, pseudofermions, accept/reject)"},
      {"hmc.start", "\"cold\"", "cold (unit links) | hot (Haar-random links) | a configuration file (verified; dims "
                                 "must match lattice.dims; projected to SU(3) after reading)"},
      {"hmc.reversibility_check", "false",
       "also integrate each trajectory forward, flip the momenta and back: reports |dH| and the link difference"},
      {"solver.tolerance", "1e-10", "CG on M^dag M in the fermion actions and forces: true relative residual"},
      {"solver.max_iterations", "10000", "a force whose solve does not converge aborts the run (no wrong force)"},
      {"solver.precision", "\"double\"",
       "double | single | half: the fermion monomials' CG in double, or in single or half precision (half: 16-bit "
       "spinors and links, clover blocks in single) corrected in double to solver.tolerance; the rational "
       "monomials' multi-shift CG is in single for both"},
      {"solver.inner_tolerance", "1e-5",
       "single, half: the residual reduction of each inner CG (half: at most 1e-3, what 16 bits reach)"},
      {"solver.reliable_delta", "0.1",
       "single, half: CG with reliable updates, a double-precision update of the residual whenever it has fallen by "
       "this factor (the search direction kept); 0: defect correction (each inner CG started afresh)"},
      {"solver.force_tolerance", "0.0",
       "the force solves' true relative residual (0: solver.tolerance); the actions of the Metropolis step and the "
       "pseudofermion heatbath always solve to solver.tolerance"},
  };
  // The multigrid of the monomials with multigrid = true (the propagator's [multigrid] table, plus its
  // refresh along the run).
  for (KeySpec& k : multigrid_schema()) s.push_back(std::move(k));
  s.push_back({"multigrid.refresh_iterations", std::to_string(HmcMultigridParams{}.refresh_iterations),
               "monomials with multigrid = true: at each trajectory's first force solve, GCR steps on M x = 0 from "
               "each test vector before the coarse operator is rebuilt (0: rebuilt only); the first solve of the run "
               "runs the whole setup"});
  // Stout smearing of the links every fermion monomial sees (issue 28; hmc/smeared_fermion_monomial.hpp).
  s.push_back({"fermion_smearing.steps", "0",
               "stout-smearing steps (Morningstar-Peardon) of the links in every fermion monomial, with the force "
               "chain rule; the gauge monomial keeps the thin links; 0 = no smearing"});
  s.push_back({"fermion_smearing.rho", "0.1", "stout-smearing parameter rho (isotropic, all four directions)"});
  for (KeySpec& k : flow_schema("trajectory")) s.push_back(std::move(k));
  for (KeySpec& k : chain_output_schema("lqcd-hmc", "trajectories")) s.push_back(std::move(k));
  return s;
}

std::vector<RepeatedSection> hmc_repeated_sections() {
  return {{"monomial",
           {{"monomial.type", "\"gauge\"",
             "gauge | wilson | clover | twisted_mass (two flavours, even-odd; twisted_mass with csw > 0: twisted "
             "clover); hasenbusch_ratio (det M(kappa, mu) / det M(kappa2, mu2)); rational (one flavour by RHMC, "
             "wilson or clover)"},
            {"monomial.kappa", "0.12", "fermions: hopping parameter kappa = 1/(2 m0 + 8)"},
            {"monomial.mu", "0.0", "twisted_mass: twisted mass mu (mass form)"},
            {"monomial.csw", "0.0", "clover (and twisted clover): Sheikholeslami-Wohlert coefficient c_sw"},
            {"monomial.kappa2", "0.0", "hasenbusch_ratio: kappa of the denominator quark (usually heavier: kappa2 < kappa); 0: kappa"},
            {"monomial.mu2", "0.0", "hasenbusch_ratio: twisted mass of the heavier (denominator) quark"},
            {"monomial.degree", "12", "rational: degree [n, n] of the approximation of (M^dag M)^(-1/2)"},
            {"monomial.lambda_min", "1e-4", "rational: lower end of the spectral range of M_hat^dag M_hat covered"},
            {"monomial.lambda_max", "5.0", "rational: upper end of the spectral range of M_hat^dag M_hat covered"},
            {"monomial.spectrum_check", "50",
             "rational: Lanczos steps per trajectory estimating M_hat^dag M_hat's extreme eigenvalues; a warning (log "
             "and JSON) when they leave [lambda_min, lambda_max]; 0 = off"},
            {"monomial.forecast", "0",
             "wilson, clover, twisted_mass, hasenbusch_ratio: initial guesses of the force solves from the last N "
             "solutions of the trajectory (chronological inversion, 0 = off, at most 16); the action's solve at the "
             "trajectory's end starts from it too and still meets solver.tolerance"},
            {"monomial.multigrid", "false",
             "wilson, clover, hasenbusch_ratio (its numerator quark), without twisted mass: the force solves by the "
             "multigrid of [multigrid] (two full-lattice solves of M per force, flexible GCR in double with the "
             "single-precision cycle, each to solver.force_tolerance) instead of CG; the heatbath's and the action's "
             "solves stay CG"},
            {"monomial.level", "0", "integration level (0 = outermost, largest step)"}},
           "[[monomial]]\ntype = \"gauge\"\nlevel = 1\n[[monomial]]\ntype = \"wilson\"\nkappa = 0.12\nlevel = 0\n"}};
}

namespace {

struct HmcInput {
  Dims dims{};
  GaugeAction action;
  IntegratorParams integrator;
  int trajectories = 0, thermalization = 0;
  std::uint64_t seed = 0;
  std::string start;
  bool reversibility = false, accept_thermalization = true;
  SolverParams solver;
  double force_tolerance = 0;  // 0: solver.tolerance
  HmcMultigridParams multigrid;  // for the monomials with multigrid = true
  std::string prefix, format;
  int precision = 64, save_every = 0, checkpoint_every = 0;
  std::string physics;  // the monomials and the gauge action in one line: checked on --resume
  StoutParams fermion_smearing;  // steps = 0: none
  FlowInput flow;
};

// [fermion_smearing]: checked by check_stout_params, whose errors name the key.
StoutParams read_fermion_smearing(const Config& c) {
  StoutParams p;
  const std::int64_t steps = c.integer("fermion_smearing.steps");
  if (steps > 100) c.fail_key("fermion_smearing.steps", fmt::format("expected at most 100 steps, got {}", steps));
  p.steps = int(std::max<std::int64_t>(steps, std::numeric_limits<int>::min()));  // a negative one is refused below
  p.rho = c.real("fermion_smearing.rho");
  try {
    check_stout_params(p, "fermion_smearing");
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  return p;
}

HmcInput read_input(const Config& c) {
  HmcInput in;
  in.dims = read_lattice_dims(c);
  const double beta = read_positive(c, "gauge.beta");
  try {
    in.action = GaugeAction::from_name(c.string("gauge.action"), beta);
    in.integrator.type = integrator_type_from_name(c.string("integrator.type"));
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  in.integrator.tau = read_positive(c, "integrator.tau");
  in.integrator.steps.clear();
  for (std::int64_t n : c.integers("integrator.steps")) {
    if (n < 1 || n > 1 << 20)
      c.fail_key("integrator.steps", fmt::format("expected step counts in [1, 1048576], got {}", n));
    in.integrator.steps.push_back(int(n));
  }
  if (in.integrator.steps.empty()) c.fail_key("integrator.steps", "expected at least one level, e.g. [10]");
  in.trajectories = int(read_integer(c, "hmc.trajectories", 0, 1 << 30));
  in.thermalization = int(read_integer(c, "hmc.thermalization", 0, 1 << 30));
  in.seed = std::uint64_t(read_integer(c, "hmc.seed", 0, std::numeric_limits<std::int64_t>::max()));
  in.start = c.string("hmc.start");
  std::error_code ec;  // a path that cannot be looked up (a symbolic link loop) is "not an existing file"
  if (in.start != "hot" && in.start != "cold" && !std::filesystem::is_regular_file(in.start, ec))
    c.fail_key("hmc.start", fmt::format("expected \"hot\", \"cold\" or an existing configuration file, got \"{}\"",
                                        in.start));
  in.reversibility = c.boolean("hmc.reversibility_check");
  in.accept_thermalization = c.boolean("hmc.accept_thermalization");
  in.solver.tolerance = read_positive(c, "solver.tolerance");
  if (in.solver.tolerance >= 1) c.fail_key("solver.tolerance", "expected a number in (0, 1)");
  in.solver.max_iterations = int(read_integer(c, "solver.max_iterations", 1, 100000000));
  in.solver.precision = read_solver_precision(c);
  in.solver.inner_tolerance = read_positive(c, "solver.inner_tolerance");
  if (in.solver.inner_tolerance >= 1) c.fail_key("solver.inner_tolerance", "expected a number in (0, 1)");
  in.solver.reliable_delta = c.real("solver.reliable_delta");
  if (!(in.solver.reliable_delta >= 0 && in.solver.reliable_delta < 1))
    c.fail_key("solver.reliable_delta", fmt::format("expected 0 (defect correction) or a number in (0, 1), got {}",
                                                     in.solver.reliable_delta));
  in.force_tolerance = c.real("solver.force_tolerance");
  if (!(in.force_tolerance >= 0 && in.force_tolerance < 1))
    c.fail_key("solver.force_tolerance", fmt::format("expected 0 (solver.tolerance) or a number in (0, 1), got {}",
                                                     in.force_tolerance));
  in.multigrid.multigrid = read_multigrid_params(c);
  in.multigrid.refresh_iterations = int(read_integer(c, "multigrid.refresh_iterations", 0, 1000));
  in.fermion_smearing = read_fermion_smearing(c);
  in.prefix = read_output_prefix(c);
  const SavedFormat saved = read_saved_format(c);
  in.format = saved.format;
  in.precision = saved.precision;
  in.save_every = int(read_integer(c, "output.save_every", 0, 1 << 30));
  in.checkpoint_every = int(read_integer(c, "output.checkpoint_every", 0, 1 << 30));
  in.flow = read_flow_input(c);
  return in;
}

// The monomials of the input, checked; `physics` gets their one-line description.
std::vector<std::unique_ptr<Monomial>> make_monomials(const Config& c, HmcInput& in) {
  std::vector<std::unique_ptr<Monomial>> ms;
  std::uint32_t stream = 0;
  int gauge = 0;
  for (const Config& m : c.entries("monomial")) {
    const std::string type = m.string("monomial.type");
    const std::int64_t level = m.integer("monomial.level");
    if (level < 0 || level >= std::int64_t(in.integrator.steps.size()))
      m.fail_key("monomial.level", fmt::format("level {} has no entry in integrator.steps (levels 0..{})", level,
                                               in.integrator.steps.size() - 1));
    const std::int64_t forecast = m.integer("monomial.forecast");
    if (forecast < 0 || forecast > ChronologicalGuess::kMaxDepth)
      m.fail_key("monomial.forecast", fmt::format("expected 0 (off) to {} kept solutions, got {}",
                                                  ChronologicalGuess::kMaxDepth, forecast));
    if (forecast != 0 && (type == "gauge" || type == "rational"))
      m.fail_key("monomial.forecast", fmt::format("is for the two-flavour fermion monomials, not type = \"{}\"", type));
    if (type == "gauge") {
      ms.push_back(std::make_unique<GaugeMonomial>(in.action));
      ++gauge;
    } else if (type == "wilson" || type == "clover" || type == "twisted_mass" || type == "hasenbusch_ratio") {
      WilsonParams w;
      w.kappa = m.real("monomial.kappa");
      w.mu = m.real("monomial.mu");
      const double csw = m.real("monomial.csw");
      if (!(w.kappa > 0) || !std::isfinite(w.kappa))
        m.fail_key("monomial.kappa", fmt::format("expected a positive number, got {}", w.kappa));
      if (!std::isfinite(w.mu)) m.fail_key("monomial.mu", "expected a finite number");
      if (!std::isfinite(csw)) m.fail_key("monomial.csw", "expected a finite number");
      if (type != "twisted_mass" && type != "hasenbusch_ratio" && w.mu != 0)
        m.fail_key("monomial.mu", "a twisted mass needs type = \"twisted_mass\"");
      if (type == "wilson" && csw != 0) m.fail_key("monomial.csw", "is only used with type = \"clover\" or \"twisted_mass\"");
      if (type == "hasenbusch_ratio") {
        EvenOddQuark heavy{w, csw};
        heavy.params.kappa = m.real("monomial.kappa2") == 0 ? w.kappa : m.real("monomial.kappa2");
        heavy.params.mu = m.real("monomial.mu2");
        if (!(heavy.params.kappa > 0) || !std::isfinite(heavy.params.kappa))
          m.fail_key("monomial.kappa2", "expected a positive number");
        if (!std::isfinite(heavy.params.mu)) m.fail_key("monomial.mu2", "expected a finite number");
        // Any two invertible quarks give a well-defined ratio: a heavier denominator is Hasenbusch's choice,
        // a lighter one or the same one (ratio 1) are unusual, not wrong. Only a ratio whose denominator
        // was never given (kappa2 and mu2 left at their defaults) is refused: that input forgot it.
        if (m.real("monomial.kappa2") == 0 && heavy.params.mu == w.mu)
          m.fail_key("monomial.kappa2", "the ratio needs its denominator quark: set kappa2 (e.g. kappa2 < kappa, a "
                                        "heavier quark) or mu2");
        ms.push_back(std::make_unique<HasenbuschRatioMonomial>(EvenOddQuark{w, csw}, heavy, in.solver, stream++,
                                                               int(forecast)));
      } else {
        ms.push_back(std::make_unique<TwoFlavourMonomial>(w, csw, in.solver, stream++, int(forecast)));
      }
    } else if (type == "rational") {
      EvenOddQuark q;
      q.params.kappa = m.real("monomial.kappa");
      q.csw = m.real("monomial.csw");
      if (!(q.params.kappa > 0) || !std::isfinite(q.params.kappa))
        m.fail_key("monomial.kappa", fmt::format("expected a positive number, got {}", q.params.kappa));
      if (!std::isfinite(q.csw)) m.fail_key("monomial.csw", "expected a finite number");
      if (m.real("monomial.mu") != 0) m.fail_key("monomial.mu", "the rational monomial takes no twisted mass");
      const std::int64_t degree = m.integer("monomial.degree");
      if (degree < 1 || degree > 64)
        m.fail_key("monomial.degree", fmt::format("expected an integer in [1, 64], got {}", degree));
      try {
        const RationalApproximation r = zolotarev_inverse_sqrt(int(degree),
                                                               m.real("monomial.lambda_min"),
                                                               m.real("monomial.lambda_max"));
        auto rational = std::make_unique<RationalMonomial>(q, r, in.solver, stream++);
        const std::int64_t lanczos = m.integer("monomial.spectrum_check");
        if (lanczos < 0 || lanczos > 10000)
          m.fail_key("monomial.spectrum_check", fmt::format("expected 0 (off) to 10000 Lanczos steps, got {}", lanczos));
        rational->check_spectrum(int(lanczos));
        ms.push_back(std::move(rational));
      } catch (const Error& e) {
        fail("{}: {}", m.source(), e.what());
      }
    } else {
      m.fail_key("monomial.type",
                 fmt::format("expected \"gauge\", \"wilson\", \"clover\", \"twisted_mass\", \"hasenbusch_ratio\" or "
                             "\"rational\", got \"{}\"",
                             type));
    }
    if (auto* f = dynamic_cast<PseudofermionMonomial*>(ms.back().get())) {
      f->set_force_tolerance(in.force_tolerance);
      if (m.boolean("monomial.multigrid")) {
        try {
          f->use_multigrid(in.multigrid);
        } catch (const Error& e) {
          fail("{}: {}", m.source(), e.what());
        }
      }
    } else if (m.boolean("monomial.multigrid")) {
      m.fail_key("monomial.multigrid", fmt::format("is for the fermion monomials, not type = \"{}\"", type));
    }
    if (type != "gauge" && in.fermion_smearing.steps > 0)  // after the force tolerance reached the inner monomial
      ms.back() = std::make_unique<SmearedFermionMonomial>(std::move(ms.back()), in.fermion_smearing);
    ms.back()->level = int(level);
    in.physics += (in.physics.empty() ? "" : "; ") + fmt::format("{} @ level {}", ms.back()->name(), level);
  }
  for (const Config& m : c.entries("monomial"))
    if (m.boolean("monomial.multigrid")) {
      check_multigrid_blocks(c, in.dims, in.multigrid.multigrid);
      break;
    }
  if (gauge != 1)
    c.fail_key("monomial.type", fmt::format("expected exactly one [[monomial]] with type = \"gauge\" (got {})", gauge));
  return ms;
}

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
  HmcInput in = read_input(c);
  std::vector<std::unique_ptr<Monomial>> monomials = make_monomials(c, in);
  return std::make_unique<Hmc>(std::move(monomials), in.integrator, in.seed);
}

void check_hmc_input(const Config& c) {
  HmcInput in = read_input(c);
  (void)make_monomials(c, in);  // builds the monomials' parameters only; no field is allocated
}

int run_hmc(const HmcCommandOptions& opt) {
  Config config(hmc_schema(), "hmc", hmc_repeated_sections());
  if (!opt.input.empty()) config.merge_file(opt.input);
  if (opt.print_config) {
    std::cout << config.to_toml();
    return 0;
  }
  HmcInput in = read_input(config);
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
  const std::string checkpoint = in.prefix + ".checkpoint.ildg";
  long done = 0;
  if (opt.resume) {
    std::vector<std::pair<std::string, std::string>> expected = {{"lqcd.seed", std::to_string(in.seed)}};
    if (!opt.force) expected.push_back({"lqcd.physics", in.physics});
    const auto meta = read_checkpoint(checkpoint, U, expected, "hmc");
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
    U.copy_from(load_configuration(in.start, load_policy_for(U)).field);
    // Projected to SU(3): the link updates keep the start's distance from SU(3), and a 32-bit file's links
    // are ~1e-7 off, which the 64-bit checkpoints' check (1e-10) would refuse on --resume.
    reunitarize(U);
  }
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
      plaquettes.push_back(o.plaquette);
      exp_dh.push_back(std::exp(-r.dH));
    }
    log.line("  {:>6} {:>13.6e} {:>4} {:>8.5f} {:>12.9f} {:>9} {:>10.2f} {:>8.3f}", traj, r.dH, r.accepted ? "yes" : "no",
             r.acceptance_probability, o.plaquette, iterations, r.seconds,
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

}  // namespace lqcd::app
