#include "app/quark_input.hpp"

#include "app/input_values.hpp"
#include "app/multigrid_input.hpp"

#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include "core/error.hpp"
#include "gauge/updates.hpp"
#include "measure/configuration.hpp"

namespace lqcd::app {

std::vector<KeySpec> quark_schema(const std::string& prefix) {
  std::vector<KeySpec> keys = {
      {"lattice.dims", "[8, 8, 8, 8]", "extents (x, y, z, t); with a configuration file: checked against the file when set"},
      {"gauge.config", "\"unit\"", "configuration file (ILDG/SciDAC, NERSC, MILC, openQCD; detected) or \"unit\" (free field)"},
      {"fermion.action", "\"wilson\"", "wilson | clover | twisted_mass (twisted_mass with csw > 0: twisted clover)"},
      {"fermion.kappa", "0.12", "hopping parameter kappa = 1/(2 m0 + 8)"},
      {"fermion.mass", "nan", "bare mass m0 instead of kappa (mass form D_W + m0 + csw (i/4) sigma.F + i mu gamma_5)"},
      {"fermion.csw", "0.0", "Sheikholeslami-Wohlert coefficient (clover, twisted clover)"},
      {"fermion.clover_field_strength", "\"traceless\"",
       "the clover term's F = (Q - Q^dag)/8: \"traceless\" (its traceless part: QUDA, Chroma) or "
       "\"trace_kept\" (as it is: MILC's clover_invert2, openQCD; another action at the same csw)"},
      {"fermion.mu", "0.0", "twisted mass mu (mass form); the hopping form has 2 i kappa mu gamma_5"},
      {"fermion.two_kappa_mu", "0.0", "2 kappa mu instead of mu"},
      {"fermion.boundary", "[\"periodic\", \"periodic\", \"periodic\", \"antiperiodic\"]",
       "fermion boundary conditions (x, y, z, t): periodic | antiperiodic; t also open (openQCD's open boundaries: "
       "the quark fields vanish on x0 = 0 and T = N0 - 1; spectrum and propagator)"},
      {"fermion.c_F", "1.0",
       "open boundaries: the boundary improvement coefficient c_F (openQCD's; 1 at tree level), added as c_F - 1 "
       "(mass form) at x0 = 1 and T - 1; needs action = \"clover\" (csw = 0 for Wilson quarks)"},
      {"solver.type", "\"cg\"",
       "cg (on the normal equations) | bicgstab | gcr | multigrid (flexible GCR with the [multigrid] preconditioner, "
       "full system; precision double or single)"},
      {"solver.tolerance", "1e-10", "stop when the true relative residual ||b - M x|| / ||b|| is below this"},
      {"solver.max_iterations", "10000", "fail (non-zero exit) when a solve has not converged after this many"},
      {"solver.precision", "\"double\"",
       "double | single | half: single and half = double-precision residual and solution, corrections solved in "
       "single precision or 16-bit fixed point (same tolerance; half: wilson and twisted_mass, even-odd)"},
      {"solver.inner_tolerance", "1e-5",
       "single, half: relative residual reduction of each correction (half: at least 1e-3)"},
      {"solver.even_odd", "true",
       "solve the even-odd (Schur) preconditioned system and reconstruct (not used by multigrid, which solves the "
       "full system)"},
      {"solver.gcr_restart", "16", "GCR restart length"},
      {"solver.multi_rhs", "false",
       "solve the 12 systems of a source together: with cg the multi-RHS CG, each link loaded once for all 12 "
       "(even-odd, wilson and twisted_mass, one process); with multigrid one setup and block cycles, the coarse "
       "grid solved for all 12 at once; the same tolerance on each ||b - M x|| / ||b||"},
      {"source.type", "\"point\"",
       "point | wall (1 on the time slice: needs gauge_fixing.gauge) | gaussian_wavefunction (exp(-r^2/r0^2) "
       "about source.position on its time slice, MILC's gaussian source: needs gauge_fixing.gauge) | z2_wall | "
       "z4_wall (12 solves: every source spin and colour)"},
      {"source.position", "[0, 0, 0, 0]",
       "point: the site (x, y, z, t); gaussian_wavefunction: the centre; walls: the time slice t"},
      {"source.radius", "2.0", "gaussian_wavefunction: r0 in lattice units (> 0; r the periodic spatial distance)"},
      {"source.seed", "1", "seed of the wall-source noise"},
      {"source.smearing", "\"none\"", "none | gaussian: Wuppertal smearing of the source"},
      {"source.smearing_kappa", "0.25",
       "Gaussian smearing in hopping form [(1 + kappa_G H)/(1 + 6 kappa_G)]^N, H the spatial hopping term (any "
       "kappa_G but -1/6; negative values too)"},
      {"source.smearing_width", "nan",
       "Gaussian smearing in width form (1 + w^2/(4N) Laplacian)^N as Chroma and MILC give it (width w in lattice "
       "units), instead of source.smearing_kappa; w = 2, N = 5 is kappa_G = -1"},
      {"source.smearing_iterations", "0", "Gaussian smearing steps N"},
      {"source.ape_alpha", "0.5", "APE smearing of the spatial links used by Gaussian smearing: (1-alpha) U + alpha/4 staples"},
      {"source.ape_iterations", "0", "APE smearing steps (0: the links as they are)"},
      {"sink.smearing", "\"none\"", "none | gaussian: smear the sink with the source's smearing parameters"},
      {"gauge_fixing.gauge", "\"none\"",
       "none | coulomb | landau: fix the configuration's gauge before the solves (lqcd gaugefix; wall sources need it)"},
      {"gauge_fixing.precision", "1e-12", "stop when theta = (1/3V) sum_x tr Delta(x)^2 is below this"},
      {"gauge_fixing.max_iterations", "20000", "fail (non-zero exit) when theta is not reached after this many"},
      {"gauge_fixing.method", "\"auto\"", "auto (fft on one process, else overrelaxation) | fft | overrelaxation"},
      {"output.prefix", "\"" + prefix + "\"", "PREFIX.log, PREFIX.jsonl and the command's data files"},
  };
  for (KeySpec& k : multigrid_schema()) keys.push_back(std::move(k));
  return keys;
}

namespace {

double finite(const Config& c, const std::string& key) {
  const double v = c.real(key);
  if (!std::isfinite(v)) c.fail_key(key, "expected a finite number");
  return v;
}

bool gaussian(const Config& c, const std::string& key) {
  const std::string s = c.string(key);
  if (s != "none" && s != "gaussian") c.fail_key(key, fmt::format("expected \"none\" or \"gaussian\", got \"{}\"", s));
  return s == "gaussian";
}

// With open boundaries in time the source's time slice must be in the bulk (the fields vanish on x0 = 0, T).
void check_open_boundary_source(const QuarkInput& in, const Dims& dims) {
  const int t = in.source.position[kTimeDir], T = dims[kTimeDir] - 1;
  if (in.fermion.open_time && (t == 0 || t == T))
    fail("source.position: with open boundaries in time (fermion.boundary) the source's time slice must be 1 .. {} "
         "(the quark fields vanish on x0 = 0 and {}), got {}",
         T - 1, T, t);
}

}  // namespace

void refuse_open_time_boundary(const Config& c, const QuarkInput& in) {
  if (in.fermion.open_time)
    c.fail_key("fermion.boundary", "open boundaries in time: lqcd spectrum and propagator only, so far; use "
                                   "\"periodic\" or \"antiperiodic\" here");
}

QuarkInput read_quark_input(const Config& c) {
  QuarkInput in;
  in.input_file = c.source();
  in.dims = read_lattice_dims(c);
  in.config = c.string("gauge.config");
  in.dims_set = in.config == "unit" || c.is_set("lattice.dims");
  if (in.config.empty()) c.fail_key("gauge.config", "expected a file name or \"unit\"");
  if (in.config != "unit") {
    // Checked here so that a missing file stops the run before any output is written.
    std::error_code ec;
    const auto status = std::filesystem::status(in.config, ec);
    if (status.type() == std::filesystem::file_type::not_found)
      c.fail_key("gauge.config", fmt::format("expected a configuration file or \"unit\"; {} does not exist", in.config));
    // Anything else that stops the look-up (a symbolic link loop, a directory without search permission)
    // is named as the system names it.
    if (ec)
      c.fail_key("gauge.config", fmt::format("expected a configuration file or \"unit\"; cannot open {} ({})",
                                             in.config, ec.message()));
    if (!std::filesystem::is_regular_file(status))
      c.fail_key("gauge.config", fmt::format("expected a configuration file or \"unit\"; {} is not a regular file",
                                             in.config));
  }

  FermionParams& f = in.fermion;
  try {
    f.action = fermion_action_from_name(c.string("fermion.action"), "fermion.action");
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  if (c.is_set("fermion.mass")) {
    if (c.is_set("fermion.kappa")) c.fail_key("fermion.mass", "set either fermion.kappa or fermion.mass, not both");
    const double m0 = finite(c, "fermion.mass");
    if (!(2 * m0 + 8 > 0)) c.fail_key("fermion.mass", fmt::format("m0 = {} gives no positive kappa (need m0 > -4)", m0));
    f.wilson.kappa = WilsonParams::kappa_of_mass(m0);
  } else {
    f.wilson.kappa = finite(c, "fermion.kappa");
    if (!(f.wilson.kappa > 0)) c.fail_key("fermion.kappa", fmt::format("expected a positive number, got {}", f.wilson.kappa));
  }
  f.csw = finite(c, "fermion.csw");
  if (f.action == FermionAction::Wilson && f.csw != 0)
    c.fail_key("fermion.csw", "is only used with action = \"clover\" or \"twisted_mass\"; set fermion.action");
  const std::string strength = c.string("fermion.clover_field_strength");
  if (strength != "traceless" && strength != "trace_kept")
    c.fail_key("fermion.clover_field_strength", fmt::format("unknown value \"{}\" (expected \"traceless\" or \"trace_kept\")", strength));
  f.clover_trace_kept = strength == "trace_kept";
  if (f.clover_trace_kept && f.csw == 0)
    c.fail_key("fermion.clover_field_strength", "\"trace_kept\" changes only the clover term: set fermion.csw");
  if (c.is_set("fermion.two_kappa_mu")) {
    if (c.is_set("fermion.mu")) c.fail_key("fermion.two_kappa_mu", "set either fermion.mu or fermion.two_kappa_mu, not both");
    f.wilson.mu = finite(c, "fermion.two_kappa_mu") / (2 * f.wilson.kappa);
  } else {
    f.wilson.mu = finite(c, "fermion.mu");
  }
  if (f.action != FermionAction::TwistedMass && f.wilson.mu != 0)
    c.fail_key(c.is_set("fermion.mu") ? "fermion.mu" : "fermion.two_kappa_mu",
               "a twisted mass needs action = \"twisted_mass\"");
  const std::vector<std::string> bc = c.strings("fermion.boundary");
  if (bc.size() != 4) c.fail_key("fermion.boundary", fmt::format("expected 4 entries (x, y, z, t), got {}", bc.size()));
  for (int mu = 0; mu < 4; ++mu) {
    if (mu == kTimeDir && bc[mu] == "open") {
      // No hop crosses x0 = T -> 0; a time phase of 1 also keeps the correlators' wrapped times (a sink
      // before the source) free of the antiperiodic sign, which they do not cross.
      f.open_time = true;
      f.wilson.boundary.phase[mu] = Complex<double>(1.0);
      continue;
    }
    if (bc[mu] != "periodic" && bc[mu] != "antiperiodic")
      c.fail_key("fermion.boundary", fmt::format("expected \"periodic\" or \"antiperiodic\"{}, got \"{}\"",
                                                 mu == kTimeDir ? " or \"open\"" : "", bc[mu]));
    f.wilson.boundary.phase[mu] = Complex<double>(bc[mu] == "periodic" ? 1.0 : -1.0);
  }
  f.c_F = finite(c, "fermion.c_F");
  if (f.c_F != 1.0 && !f.open_time)
    c.fail_key("fermion.c_F", "is the coefficient of open boundaries in time: set the t entry of fermion.boundary to \"open\"");
  if (f.c_F != 1.0 && f.action != FermionAction::Clover)
    c.fail_key("fermion.c_F", "the boundary term lives in the clover action's site term: set fermion.action = \"clover\" "
                              "(csw = 0 for Wilson quarks)");
  if (in.config == "unit" && !f.open_time) {  // (open boundaries: no translation symmetry in time to check)
    try {
      check_free_field_invertible(f.wilson, in.dims);
    } catch (const Error& e) {
      c.fail_in_table("fermion", e.what());
    }
  }

  try {
    in.solver.type = solver_type_from_name(c.string("solver.type"));
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  in.solver.tolerance = finite(c, "solver.tolerance");
  if (!(in.solver.tolerance > 0 && in.solver.tolerance < 1))
    c.fail_key("solver.tolerance", fmt::format("expected a number in (0, 1), got {}", in.solver.tolerance));
  in.solver.max_iterations = int(read_integer(c, "solver.max_iterations", 1, 100000000));
  in.solver.gcr_restart = int(read_integer(c, "solver.gcr_restart", 1, 1000));
  in.solver.precision = read_solver_precision(c);
  in.solver.inner_tolerance = finite(c, "solver.inner_tolerance");
  if (!(in.solver.inner_tolerance >= 1e-7 && in.solver.inner_tolerance < 1))
    c.fail_key("solver.inner_tolerance",
               fmt::format("expected a number in [1e-7, 1) (single precision), got {}", in.solver.inner_tolerance));
  in.even_odd = c.boolean("solver.even_odd");
  in.multi_rhs = c.boolean("solver.multi_rhs");
  if (in.multi_rhs && in.solver.type != SolverType::CG && in.solver.type != SolverType::Multigrid)
    c.fail_key("solver.multi_rhs",
               fmt::format("the multi-RHS solvers are cg and multigrid; set solver.type to one of them (got \"{}\")",
                           solver_type_name(in.solver.type)));
  if (in.solver.type == SolverType::Multigrid) {
    // The multigrid solves the full system (solver.even_odd is not used): its smoother and coarse grid
    // do what even-odd preconditioning does for the Krylov solvers.
    in.even_odd = false;
    if (in.solver.precision == SolverPrecision::Half)
      c.fail_key("solver.precision", "the multigrid cycle runs in \"double\" or \"single\" precision");
    in.multigrid = read_multigrid_params(c);
    if (in.dims_set) check_multigrid_blocks(c, in.dims, in.multigrid);
  }
  if (in.multi_rhs && in.solver.type == SolverType::CG && !in.even_odd)
    c.fail_key("solver.multi_rhs", "the multi-RHS CG works on the even-odd system; set solver.even_odd = true");

  try {
    in.source.type = source_type_from_name(c.string("source.type"));
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  const std::vector<std::int64_t> pos = c.integers("source.position");
  if (pos.size() != 4) c.fail_key("source.position", "expected 4 coordinates [x, y, z, t]");
  for (int mu = 0; mu < 4; ++mu) {
    // The bound here only keeps the int conversion exact (extents are at most 2^30); the check against the
    // lattice follows.
    if (pos[mu] < 0 || pos[mu] >= 1 << 30)
      c.fail_key("source.position", fmt::format("expected coordinates inside the lattice, got {} in direction {}",
                                                pos[mu], "xyzt"[mu]));
    in.source.position[std::size_t(mu)] = int(pos[mu]);
  }
  in.source.seed = std::uint64_t(read_integer(c, "source.seed", 0, std::numeric_limits<std::int64_t>::max()));
  in.source.radius = c.real("source.radius");
  if (!(std::isfinite(in.source.radius) && in.source.radius > 0))
    c.fail_key("source.radius", fmt::format("expected a finite number > 0, got {}", in.source.radius));
  if (in.dims_set) {
    try {
      check_source_position(in.source, in.dims);
      check_open_boundary_source(in, in.dims);
    } catch (const Error& e) {
      fail("{}: {}", c.source(), e.what());
    }
  }

  const std::string fix = c.string("gauge_fixing.gauge");
  if (fix != "none" && fix != "coulomb" && fix != "landau")
    c.fail_key("gauge_fixing.gauge", fmt::format("expected \"none\", \"coulomb\" or \"landau\", got \"{}\"", fix));
  if (fix != "none") {
    GaugeFixParams f;
    f.gauge = fix == "coulomb" ? GaugeCondition::Coulomb : GaugeCondition::Landau;
    f.precision = c.real("gauge_fixing.precision");
    f.max_iterations = int(read_integer(c, "gauge_fixing.max_iterations", 1, 1 << 30));
    const std::string method = c.string("gauge_fixing.method");
    if (method != "auto" && method != "fft" && method != "overrelaxation")
      c.fail_key("gauge_fixing.method",
                 fmt::format("expected \"auto\", \"fft\" or \"overrelaxation\", got \"{}\"", method));
    // auto: decided where the process grid is known (QuarkProblem); the method field holds fft until then.
    f.method = method == "overrelaxation" ? GaugeFixMethod::Overrelaxation : GaugeFixMethod::Fourier;
    in.gauge_fixing_auto = method == "auto";
    try {
      check_gauge_fix_params(f, "gauge_fixing");
    } catch (const Error& e) {
      fail("{}: {}", c.source(), e.what());
    }
    in.gauge_fixing = f;
  }
  if (in.source.type == SourceType::Wall && !in.gauge_fixing)
    c.fail_key("source.type", "a wall source (1 on the time slice) is not gauge invariant: set gauge_fixing.gauge = "
                              "\"coulomb\" (or use z2_wall / z4_wall noise walls)");
  // MILC uses its "gaussian" source in Coulomb gauge (quark_source.c): exp(-r^2/r0^2) weighs the sites of
  // the slice with no links between them, so like the wall it depends on the gauge.
  if (in.source.type == SourceType::GaussianWavefunction && !in.gauge_fixing)
    c.fail_key("source.type", "a gaussian_wavefunction source (exp(-r^2/r0^2) on the time slice) is not gauge "
                              "invariant: set gauge_fixing.gauge = \"coulomb\" (or, gauge covariant, use a point "
                              "source with source.smearing = \"gaussian\")");

  const bool smear_source = gaussian(c, "source.smearing"), smear_sink = gaussian(c, "sink.smearing");
  const std::int64_t n = read_integer(c, "source.smearing_iterations", 0, 100000);
  if ((smear_source || smear_sink) && n == 0)
    c.fail_key("source.smearing_iterations", "Gaussian smearing is switched on but has 0 iterations");
  if (c.is_set("source.smearing_width") && c.is_set("source.smearing_kappa"))
    c.fail_key("source.smearing_width", "set either source.smearing_width or source.smearing_kappa, not both");
  const bool width_form = c.is_set("source.smearing_width");
  const double kappa_G = width_form ? 0.0 : finite(c, "source.smearing_kappa");
  GaussianParams g;
  try {
    if (width_form)
      g = n > 0 ? GaussianParams::from_width(c.real("source.smearing_width"), int(n)) : GaussianParams{};
    else
      g = GaussianParams::from_kappa(kappa_G, int(n));
  } catch (const Error& e) {
    fail("{}: {}", c.source(), e.what());
  }
  if (smear_source) in.source_smearing = g;
  if (smear_sink) in.sink_smearing = g;
  in.ape.alpha = finite(c, "source.ape_alpha");
  if (in.ape.alpha < 0 || in.ape.alpha > 1) c.fail_key("source.ape_alpha", "expected a number in [0, 1]");
  in.ape.iterations = int(read_integer(c, "source.ape_iterations", 0, 100000));
  in.ape.spatial_only = true;
  in.prefix = read_output_prefix(c);
  return in;
}

std::string describe_quark_smearing(const GaussianParams& g) {
  if (g.iterations == 0) return "none";
  // (1 + alpha Laplacian)^N = (1 + w^2/(4N) Laplacian)^N: w = sqrt(4 N alpha) (Chroma's and MILC's width).
  return fmt::format("gaussian (Wuppertal): N = {} steps of (1 + alpha Laplacian), alpha = {:.10g}{}, kappa_G = {:.10g}",
                     g.iterations, g.alpha,
                     g.alpha >= 0 ? fmt::format(", width w = {:.10g}", std::sqrt(4 * g.iterations * g.alpha)) : "",
                     g.kappa());
}

std::string describe_link_smearing(const QuarkInput& in) {
  if (in.source_smearing.iterations == 0 && in.sink_smearing.iterations == 0) return "none";
  if (in.ape.iterations == 0) return "none (the smearing uses the unsmeared links)";
  return fmt::format("APE, alpha = {:.10g}, {} iterations, {} links", in.ape.alpha, in.ape.iterations,
                     in.ape.spatial_only ? "spatial" : "all");
}

std::string describe_fermion(const FermionParams& f) {
  const WilsonParams& w = f.wilson;
  std::string s = fmt::format("{}, kappa = {:.10g} (m0 = {:.10g})",
                              f.action == FermionAction::Wilson        ? "wilson"
                              : f.action == FermionAction::Clover      ? "clover"
                                                                       : "twisted_mass",
                              w.kappa, w.mass());
  if (f.csw != 0) s += fmt::format(", csw = {:.10g}", f.csw);
  if (f.clover_trace_kept) s += " (field strength with its trace kept, MILC's)";
  if (f.action == FermionAction::TwistedMass)
    s += fmt::format(", mu = {:.10g} (2 kappa mu = {:.10g})", w.mu, 2 * w.kappa * w.mu);
  s += ", boundary (";
  for (int mu = 0; mu < 4; ++mu)
    s += fmt::format("{}{}", mu ? ", " : "",
                     mu == kTimeDir && f.open_time ? "open" : w.boundary.phase[mu].re > 0 ? "p" : "a");
  if (f.open_time) s += fmt::format("; c_F = {:.10g}", f.c_F);
  return s + ")";
}

void log_input(RunLog& log, const Config& c) {
  log.line("# input ({}):", c.source());
  std::istringstream lines(c.to_toml(false));
  for (std::string l; std::getline(lines, l);) log.line("#   {}", l);
}

namespace {
// What a quark command holds at least: the gauge field and the 12 columns of a propagator, and with the
// multigrid its hierarchy (multigrid_bytes_per_site).
constexpr double kQuarkBytesPerSite = kGaugeBytesPerSite + 12 * kSpinorBytesPerSite;

void check_quark_fits(const QuarkInput& in, const Geometry& g, Location loc, const std::string& where) {
  if (in.solver.type != SolverType::Multigrid) {
    check_lattice_fits(g, kQuarkBytesPerSite, loc, where, "the gauge field and the 12 columns of the propagator");
    return;
  }
  const int real_bytes = in.solver.precision == SolverPrecision::Double ? 8 : 4;
  check_lattice_fits(g,
                     kQuarkBytesPerSite +
                         multigrid_bytes_per_site(in.multigrid, real_bytes, g.processes(), in.multi_rhs ? 12 : 1),
                     loc,
                     where,
                     "the gauge field, the propagator and the multigrid: " + multigrid_memory_summary(in.multigrid),
                     "use fewer multigrid.test_vectors, a smaller multigrid.outer_restart (8 fits a 48^4 lattice on "
                     "80 GB), or split the lattice over more processes (mpirun, --grid)");
}
}  // namespace

void check_quark_lattice_fits(const QuarkInput& in, const Config& c, Location loc, const std::string& grid) {
  if (!in.dims_set) return;  // the file's lattice, checked when its header has been read
  check_quark_fits(in, decompose_over_run(in.dims, grid, "lattice.dims"), loc, c.source() + ": lattice.dims");
}

QuarkProblem::QuarkProblem(const QuarkInput& in, Location loc, const std::string& grid) : fermion_(in.fermion) {
  if (in.config == "unit") {
    const Geometry geom = decompose_over_run(in.dims, grid, "lattice.dims");
    check_quark_fits(in, geom, loc, "lattice.dims");
    U_ = std::make_unique<GaugeField<double>>(geom, loc);
    set_unit_gauge(*U_);
    description_ = fmt::format("unit gauge field (free quarks), {}", dims_string(in.dims));
  } else {
    LoadPolicy policy;
    policy.location = loc;
    policy.decompose = [&](const Dims& global) {
      // Checked here, with the header read and nothing allocated, so that the message names the key.
      if (in.dims_set && global != in.dims)
        fail("{}: lattice.dims: expected the lattice of gauge.config, {} holds {} (got {})", in.input_file, in.config,
             dims_string(global), dims_string(in.dims));
      const Geometry geom = decompose_over_run(global, grid, in.config);
      check_quark_fits(in, geom, loc, in.config);
      return geom;
    };
    LoadedConfiguration loaded = load_configuration(in.config, policy);
    U_ = std::make_unique<GaugeField<double>>(std::move(loaded.field));
    description_ = fmt::format("{} ({}, {}, {}-bit)", in.config, loaded.info.format, dims_string(loaded.info.dims),
                               loaded.info.precision_bits);
    // A gauge fixed to theta ~ 1e-12 needs links that are SU(3) beyond 32-bit rounding (lqcd gaugefix).
    if (in.gauge_fixing && loaded.info.precision_bits == 32) reunitarize(*U_);
  }
  if (in.gauge_fixing) {
    GaugeFixParams f = *in.gauge_fixing;
    if (in.gauge_fixing_auto)
      f.method = U_->geometry().grid == Dims{1, 1, 1, 1} ? GaugeFixMethod::Fourier : GaugeFixMethod::Overrelaxation;
    const GaugeFixResult r = fix_gauge(*U_, f);
    if (!r.converged)
      fail("{}: gauge_fixing.precision: theta = {:.3e} after {} iterations, not below {:g} (raise "
           "gauge_fixing.max_iterations)",
           in.input_file, r.final.theta, r.iterations, f.precision);
    description_ += fmt::format(", fixed to {} gauge ({}, theta = {:.2e} after {} iterations)", to_string(f.gauge),
                                to_string(f.method), r.final.theta, r.iterations);
  }
  observables_ = gauge_observables(*U_);
  try {
    check_source_position(in.source, U_->geometry().global);
    check_open_boundary_source(in, U_->geometry().global);
  } catch (const Error& e) {
    fail("{}: {}", in.config, e.what());
  }
  if (in.source_smearing.iterations > 0 || in.sink_smearing.iterations > 0)
    smeared_ = std::make_unique<GaugeField<double>>(ape_smear(*U_, in.ape));
  sloppy_ = sloppy_precision_of(in.solver.precision);
  block_rhs_ = in.multi_rhs && in.solver.type == SolverType::CG ? 12 : 0;  // the block operators of the multi-RHS CG
  ops_ = make_dirac_operators(*U_, fermion_, sloppy_, block_rhs_);
}

SloppyPrecision sloppy_precision_of(SolverPrecision p) {
  return p == SolverPrecision::Single ? SloppyPrecision::Single
         : p == SolverPrecision::Half ? SloppyPrecision::Half
                                      : SloppyPrecision::None;
}

DiracOperators QuarkProblem::operators_with_mu(double mu) const {
  FermionParams f = fermion_;
  f.wilson.mu = mu;
  return make_dirac_operators(*U_, f, sloppy_, block_rhs_);
}

DiracOperators QuarkProblem::operators_with_kappa(double kappa) const {
  FermionParams f = fermion_;
  f.wilson.kappa = kappa;
  return make_dirac_operators(*U_, f, sloppy_, block_rhs_);
}

std::vector<std::array<int, 3>> read_momenta(const Config& c, const std::string& key) {
  std::vector<std::array<int, 3>> momenta;
  for (const auto& p : c.integer_arrays(key, 3)) {
    for (const std::int64_t n : p)
      if (n < -(1 << 20) || n > (1 << 20)) c.fail_key(key, fmt::format("momentum component {} is out of range [-2^20, 2^20]", n));
    const std::array<int, 3> n{int(p[0]), int(p[1]), int(p[2])};
    for (const auto& m : momenta)
      if (m == n) c.fail_key(key, fmt::format("[{}, {}, {}] is listed twice", n[0], n[1], n[2]));
    momenta.push_back(n);
  }
  if (momenta.empty()) c.fail_key(key, "expected at least one momentum, e.g. [[0, 0, 0]]");
  return momenta;
}

PropagatorOptions QuarkProblem::solve_options(const QuarkInput& in, RunLog& log, JsonLines& jsonl,
                                              const std::string& label) const {
  PropagatorOptions o;
  o.solver = in.solver;
  o.smearing_links = smeared_.get();
  o.source_smearing = in.source_smearing;
  o.sink_smearing = in.sink_smearing;
  o.multi_rhs = in.multi_rhs;
  o.multigrid = in.multigrid;
  o.multigrid_cache = multigrid_;
  o.on_multigrid_setup = [&log, &jsonl, label](const MultigridPreconditionerInfo& info) {
    log.line("  {} {}", label, info.summary());
    jsonl.write({{"record", "multigrid_setup"},
                 {"quark", label},
                 {"block", info.block},
                 {"coarse", info.coarse},
                 {"coarse_components", info.coarse_dof},
                 {"levels", info.levels},
                 {"coarse_even_odd", info.coarse_even_odd},
                 {"coarse_distributed", info.coarse_distributed},
                 {"precision", info.precision},
                 {"seconds", info.timings.setup()},
                 {"seconds_test_vectors", info.timings.setup_vectors},
                 {"seconds_coarse_operator", info.timings.setup_coarse}});
  };
  return o;
}

PointPropagator QuarkProblem::propagator(const QuarkInput& in, const DiracOperators& ops, RunLog& log,
                                         JsonLines& jsonl, const std::string& label) const {
  PropagatorOptions o = solve_options(in, log, jsonl, label);
  if (&ops != &ops_) o.multigrid_cache = nullptr;  // another quark (-mu, a strange kappa): a setup of its own
  // The 12 solves of the source (spin x colour) on the terminal while they run.
  CountProgress progress(!log.quiet(), fmt::format("{} solves", label), 12);
  long solved = 0;
  return compute_propagator(
      ops, in.even_odd, in.source, o, [&](const PropagatorSolve& s) {
        progress.done(++solved);
        log.line("  {} spin {} colour {}: {}{}; full-operator residual {:.3e}", label, s.spin, s.colour,
                 s.result.summary(),
                 s.block_rhs ? fmt::format(" (in a block of {}, {} round{}: 1/{} of its time)", s.block_rhs,
                                           s.block_rounds, s.block_rounds == 1 ? "" : "s", s.block_rhs)
                             : "",
                 s.full_residual);
        jsonl.write({{"record", "solve"},
                     {"quark", label},
                     {"spin", s.spin},
                     {"colour", s.colour},
                     {"solver", solver_type_name(in.solver.type)},
                     {"precision", solver_precision_name(in.solver.precision)},
                     {"even_odd", in.even_odd},
                     {"multi_rhs", in.multi_rhs},
                     {"block_rounds", s.block_rounds},
                     {"iterations", s.result.iterations},
                     {"true_residual", s.result.true_residual},
                     {"full_residual", s.full_residual},
                     {"seconds", s.result.seconds},
                     {"gflops", s.result.gflops},
                     {"residual_history", s.result.residual_history}});
      });
}

}  // namespace lqcd::app
