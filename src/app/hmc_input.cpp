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

#include "app/flow_input.hpp"
#include "app/input_values.hpp"
#include "app/multigrid_input.hpp"
#include "app/output.hpp"
#include "core/energy_meter.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "hmc/gauge_monomial.hpp"
#include "hmc/hasenbusch_ratio_monomial.hpp"
#include "hmc/hmc.hpp"
#include "hmc/rational_monomial.hpp"
#include "hmc/smeared_fermion_monomial.hpp"
#include "hmc/two_flavour_monomial.hpp"

namespace lqcd::app {

std::vector<KeySpec> hmc_schema() {
  std::vector<KeySpec> s = {
      {"lattice.dims", "[8, 8, 8, 8]", "extents (x, y, z, t), even"},
      {"gauge.beta", "5.6", "coupling beta = 6/g^2 of the gauge monomial"},
      {"gauge.action", "\"wilson\"", "wilson | symanzik | iwasaki | dbw2"},
      gauge_boundary_schema()[0],
      gauge_boundary_schema()[1],
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
  s.push_back({"multigrid.refresh_growth", fmt::format("{}", HmcMultigridParams{}.refresh_growth),
               "monomials with multigrid = true: also refresh inside a trajectory, before the solve after one that took "
               "more than this factor times the fewest outer iterations since the last refresh (0: at trajectory "
               "starts only; else 1 to 100)"});
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
            {"monomial.clover_field_strength", "\"traceless\"",
             "clover quarks: the clover term's field strength, \"traceless\" (QUDA, Chroma) or \"trace_kept\" "
             "((1/8)(Q - Q^dag) with its trace, as openQCD and MILC define it: another action at the same csw)"},
            {"monomial.c_F", "1.0",
             "with gauge.boundary = \"open\": the quarks' boundary coefficient c_F (openQCD's; 2 kappa (c_F - 1) on "
             "the diagonal at x0 = 1 and T - 1; needs csw > 0 unless 1)"},
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

}  // namespace

HmcInput read_hmc_input(const Config& c) {
  HmcInput in;
  in.dims = read_lattice_dims(c);
  const double beta = read_positive(c, "gauge.beta");
  try {
    in.action = GaugeAction::from_name(c.string("gauge.action"), beta);
    in.integrator.type = integrator_type_from_name(c.string("integrator.type"));
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  read_gauge_boundary(c, in.dims, in.action);
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
  in.multigrid.refresh_growth = c.real("multigrid.refresh_growth");
  try {  // the ranges as the force solver checks them (one place)
    check_hmc_multigrid_refresh(in.multigrid);
  } catch (const Error& e) {
    c.fail_in_table("multigrid", e.what());
  }
  in.fermion_smearing = read_fermion_smearing(c);
  in.prefix = read_output_prefix(c);
  const SavedFormat saved = read_saved_format(c);
  in.format = saved.format;
  in.precision = saved.precision;
  in.save_every = int(read_integer(c, "output.save_every", 0, 1 << 30));
  in.checkpoint_every = int(read_integer(c, "output.checkpoint_every", 0, 1 << 30));
  in.flow = read_flow_input(c, in.action.open());
  return in;
}

std::vector<std::unique_ptr<Monomial>> make_monomials(const Config& c, HmcInput& in) {
  std::vector<std::unique_ptr<Monomial>> ms;
  std::uint32_t stream = 0;
  int gauge = 0;
  for (const Config& m : c.entries("monomial")) {
    const std::string type = m.string("monomial.type");
    if (in.action.open() && type != "gauge" && in.fermion_smearing.steps > 0)
      c.fail_key("fermion_smearing.steps", "smeared quarks with gauge.boundary = \"open\" are not implemented; set 0");
    // The quarks' time boundary follows the gauge field's (openQCD's bc = 0 for both); the clover term's F.
    const double c_F = m.real("monomial.c_F");
    const std::string strength = m.string("monomial.clover_field_strength");
    if (type == "gauge" && (c_F != 1.0 || strength != "traceless"))
      m.fail_key(c_F != 1.0 ? "monomial.c_F" : "monomial.clover_field_strength", "is for the quark monomials, not type = \"gauge\"");
    if (!std::isfinite(c_F)) m.fail_key("monomial.c_F", "expected a finite number");
    if (c_F != 1.0 && !in.action.open())
      m.fail_key("monomial.c_F", "is the coefficient of open boundaries in time: set gauge.boundary = \"open\", or 1");
    if (c_F != 1.0 && m.real("monomial.csw") == 0)
      m.fail_key("monomial.c_F", "needs the clover term (csw > 0), whose site term carries it; or c_F = 1");
    if (strength != "traceless" && strength != "trace_kept")
      m.fail_key("monomial.clover_field_strength",
                 fmt::format("unknown value \"{}\" (expected \"traceless\" or \"trace_kept\")", strength));
    if (strength == "trace_kept" && m.real("monomial.csw") == 0)
      m.fail_key("monomial.clover_field_strength", "\"trace_kept\" changes only the clover term: set monomial.csw");
    // A quark of this monomial: its boundary and clover field strength with the given parameters.
    const auto quark = [&](const WilsonParams& w, double csw) {
      EvenOddQuark q{w, csw};
      q.time = QuarkTimeBoundary{in.action.open(), c_F, in.dims[kTimeDir] - 1};
      q.clover_trace_kept = strength == "trace_kept";
      return q;
    };
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
        EvenOddQuark heavy = quark(w, csw);
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
        ms.push_back(std::make_unique<HasenbuschRatioMonomial>(quark(w, csw), heavy, in.solver, stream++, int(forecast)));
      } else {
        ms.push_back(std::make_unique<TwoFlavourMonomial>(quark(w, csw), in.solver, stream++, int(forecast)));
      }
    } else if (type == "rational") {
      EvenOddQuark q = quark(WilsonParams{}, m.real("monomial.csw"));
      q.params.kappa = m.real("monomial.kappa");
      if (!(q.params.kappa > 0) || !std::isfinite(q.params.kappa))
        m.fail_key("monomial.kappa", fmt::format("expected a positive number, got {}", q.params.kappa));
      if (!std::isfinite(q.csw)) m.fail_key("monomial.csw", "expected a finite number");
      if (m.real("monomial.mu") != 0) m.fail_key("monomial.mu", "the rational monomial takes no twisted mass");
      const std::int64_t degree = m.integer("monomial.degree");
      if (degree < 1 || degree > 64)
        m.fail_key("monomial.degree", fmt::format("expected an integer in [1, 64], got {}", degree));
      // The approximation checks its spectral range and names lambda_min or lambda_max.
      const RationalApproximation r = [&] {
        try {
          return zolotarev_inverse_sqrt(int(degree), m.real("monomial.lambda_min"), m.real("monomial.lambda_max"));
        } catch (const Error& e) {
          m.fail_in_table("monomial", e.what());
        }
      }();
      try {
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
          m.fail_key("monomial.multigrid", e.what());
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

}  // namespace lqcd::app
