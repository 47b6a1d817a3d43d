// lqcd: one program, one subcommand per job (DESIGN.md). Every failure the user can fix ends in a
// one-line "lqcd: error: ..." on stderr and a non-zero exit status.
#include <csignal>
#include <iostream>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "app/bench_command.hpp"
#include "app/openmp_defaults.hpp"
#include "app/convert_command.hpp"
#include "app/heatbath_command.hpp"
#include "app/hmc_command.hpp"
#include "app/flow_command.hpp"
#include "app/measure_command.hpp"
#include "app/smear_command.hpp"
#include "app/gaugefix_command.hpp"
#include "app/propagator_command.hpp"
#include "app/distill_command.hpp"
#include "app/analysis_command.hpp"
#include "app/gevp_command.hpp"
#include "app/spectrum_command.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"

namespace {

// The options the commands share, declared once (each command adds them where its --help lists them).
// A TOML-driven command's INPUT file and --print-config.
template <typename Options>
void add_toml_input(CLI::App* command, Options& o) {
  command->add_option("input", o.input, "TOML input file (lqcd " + command->get_name() + " --print-config shows every key)")
      ->check(CLI::ExistingFile);
  command->add_flag("--print-config", o.print_config, "print the full input with every key, its value and help");
}
template <typename Options>
void add_device_option(CLI::App* command, Options& o) {
  command->add_option("--device", o.device, "auto | cpu | gpu")->capture_default_str();
}
template <typename Options>
void add_grid_option(CLI::App* command, Options& o) {
  command->add_option("--grid", o.grid,
                      "processes per direction X,Y,Z,T (run under mpirun -np X*Y*Z*T, one GPU per rank; default: all "
                      "along t)");
}

// The error report is one line whatever it quotes (a file name, a TOML parser's description of a binary
// file): control characters are written as \xNN.
std::string one_line(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out;
}

// An error on one rank of a multi-process run would leave the others waiting in a collective: report
// it with the rank and stop them all.
int report_error(const char* kind, const char* raw, int code) {
  const std::string what = one_line(raw);
  if (lqcd::comm::size() > 1) {
    std::cerr << "lqcd: " << kind << " (rank " << lqcd::comm::rank() << " of " << lqcd::comm::size() << "): " << what
              << std::endl;
    lqcd::comm::abort_all(code);
  }
  std::cerr << "lqcd: " << kind << ": " << what << std::endl;
  return code;
}

// MPI is initialised only where it can matter: under an MPI launcher, or with --grid (so that a grid
// of several processes started without mpirun gets the usual error rather than running serially).
// A serial run from a shell never pays for MPI's start-up nor prints what it may print then.
bool wants_mpi(int argc, char** argv) {
  if (lqcd::comm::started_by_mpi_launcher()) return true;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]).starts_with("--grid")) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace lqcd::app;
  // Sleeping OpenMP waits where the cores are shared (may run the program again: first of all).
  choose_openmp_wait_policy(argv);
  // A write beyond the file-size limit (ulimit -f, batch systems) would otherwise kill the program with
  // SIGXFSZ in the middle of a file; ignored, the write fails with EFBIG and the writer reports it
  // naming the file, with the previous files intact (issue 26), like a full disk.
  std::signal(SIGXFSZ, SIG_IGN);
  lqcd::comm::Session mpi(&argc, &argv, wants_mpi(argc, argv));
  // One GPU per rank: the node-local rank picks it.
  if (lqcd::comm::size() > 1) lqcd::select_device(lqcd::comm::local_rank());
  CLI::App app{"lqcd: lattice QCD on CPUs and NVIDIA GPUs.\n"
               "Conventions: directions (x,y,z,t) = 0..3, lexicographic x fastest; plaquette normalised to 1 "
               "for the unit field.\nRun 'lqcd <command> --help' for the options of a command.",
               "lqcd"};
  app.set_version_flag("--version", version_string());
  app.require_subcommand(1);

  HeatbathCommandOptions hb;
  CLI::App* heatbath = app.add_subcommand(
      "heatbath",
      "Quenched SU(3) ensemble: Cabibbo-Marinari heatbath + overrelaxation.\n"
      "Without INPUT it runs a built-in default (8^4, Wilson action, beta = 6.0) and prints the plaquette history.\n"
      "Writes PREFIX.log (human), PREFIX.jsonl (one JSON object per measurement) and saved configurations.");
  add_toml_input(heatbath, hb);
  heatbath->add_flag("--resume", hb.resume, "continue from PREFIX.checkpoint.ildg exactly as if never stopped");
  add_device_option(heatbath, hb);
  add_grid_option(heatbath, hb);
  heatbath->add_flag("-q,--quiet", hb.quiet, "no log on stdout and no progress line (files are still written)");

  MeasureCommandOptions ms;
  CLI::App* measure = app.add_subcommand(
      "measure",
      "Gauge observables of stored configurations (format detected from the content: ILDG/SciDAC LIME, NERSC, "
      "MILC, openQCD).\nChecksums and header plaquettes are verified; a mismatch is an error unless --no-verify.");
  measure->add_option("files", ms.files, "configuration files")->required();
  measure->add_flag("--json", ms.json, "one JSON object per file on stdout");
  measure->add_flag("--no-verify", ms.no_verify, "report checksum/header mismatches instead of failing");
  add_device_option(measure, ms);
  measure->add_option("--loops", ms.loops,
                      "RMAX,TMAX (each 1..8): also the planar Wilson loops W(R, T) = <Re tr W>/3, R along the "
                      "spatial axes (averaged), T along time (smear the spatial links first with --ape-steps for the "
                      "static potential)");
  measure->add_option("--ape-steps", ms.ape_steps,
                      "with --loops: APE-smear the spatial links of a copy this many times first (ground-state "
                      "overlap for the static potential; 20 is usual)")
      ->capture_default_str();
  measure->add_option("--ape-alpha", ms.ape_alpha, "with --ape-steps: the APE parameter")->capture_default_str();
  measure->add_option("--hyp-steps", ms.hyp_steps,
                      "with --loops: 3D-HYP-smear the spatial links of a copy this many times first (alpha = 0.75, "
                      "0.6; instead of --ape-steps)")
      ->capture_default_str();
  measure->add_flag("--off-axis", ms.off_axis,
                    "with --loops: also the off-axis loops W(r, T) for r = (a, b, c), a >= b >= 1, |r| <= RMAX (staircase "
                    "paths averaged over the cubic images; JSON wilson_loops_off_axis)");
  add_grid_option(measure, ms);

  FlowCommandOptions fl;
  CLI::App* flow = app.add_subcommand(
      "flow",
      "Gradient flow (Wilson, Symanzik or Zeuthen) of stored configurations (Luscher's RK3 integrator): E(t) from the plaquette and the clover "
      "field strength, t^2 E, the topological charge Q (clover), and the scales t0/a^2 (t^2 E = 0.3) and w0/a "
      "(t d/dt t^2 E = 0.3). Lattice units: t/a^2, E a^4.");
  flow->add_option("files", fl.files, "configuration files")->required();
  flow->add_option("--action", fl.action,
                   "wilson (plaquette action) | symanzik (Luscher-Weisz, c1 = -1/12) | zeuthen (Symanzik, O(a^2)-improved "
                   "at tree level; Ramos and Sint 2016)")
      ->capture_default_str();
  flow->add_option("--epsilon", fl.epsilon, "flow step in t/a^2")->capture_default_str()->check(CLI::Range(1e-6, 0.5));
  flow->add_option("--t-max", fl.t_max,
                   "flow until this t/a^2; 0: until t0 and w0 are passed (at most t = L_min^2 / 32)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  flow->add_option("--tolerance", fl.tolerance,
                   "0: fixed steps of --epsilon; > 0: adaptive steps (Fritzsch-Ramos) with this error bound per step "
                   "(1e-5 is usual), --epsilon the first")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.5));
  flow->add_option("--every", fl.measure_every, "steps between measurements")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 30));
  flow->add_flag("--improved-charge", fl.improved_charge,
                 "also the O(a^2)-improved topological charge Q_improved: the field strength 5/3 F(1x1) - 1/3 "
                 "(F(1x2) + F(2x1)) from plaquette and rectangle clover leaves (Bilson-Thompson, Leinweber, Williams "
                 "2003); several times the cost of the clover measurement");
  flow->add_flag("--json", fl.json, "one JSON object per file on stdout (the whole history, t0, w0)");
  flow->add_option("--hdf5", fl.hdf5,
                   "also every history into this HDF5 file: /flow/cfg_KKKKKK/history [n][7] (t, steps, E_plaq, "
                   "E_clover, t2E_plaq, t2E_clover, Q; [n][8] with Q_improved under --improved-charge) with "
                   "attributes file, t0, w0");
  flow->add_flag("--force", fl.force, "replace an existing --hdf5 file");
  flow->add_flag("--no-verify", fl.no_verify, "report checksum/header mismatches instead of failing");
  add_device_option(flow, fl);
  add_grid_option(flow, fl);

  GaugefixCommandOptions gf;
  CLI::App* gaugefix = app.add_subcommand(
      "gaugefix",
      "Fix a stored configuration to the Landau or Coulomb gauge and write it: Fourier-accelerated steepest "
      "descent (FFTW / cuFFT, one process) or overrelaxation (also with --grid), until theta = (1/3V) sum_x tr "
      "Delta(x)^2 < --precision, Delta = sum_mu d_mu A_mu. The plaquette is unchanged; the file is written only "
      "when the precision is reached.");
  gaugefix->add_option("input", gf.input, "configuration to read (any supported format)")->required();
  gaugefix->add_option("output", gf.output, "file to write")->required();
  gaugefix->add_option("--gauge", gf.gauge, "landau | coulomb")->capture_default_str();
  gaugefix->add_option("--method", gf.method, "auto (fft on one process, else overrelaxation) | fft | overrelaxation")
      ->capture_default_str();
  gaugefix->add_option("--precision", gf.precision, "stop when theta is below this")->capture_default_str();
  gaugefix->add_option("--max-iterations", gf.max_iterations, "give up (and write nothing) after this many")
      ->capture_default_str();
  gaugefix->add_option("--alpha", gf.alpha, "fft: steepest-descent step")->capture_default_str();
  gaugefix->add_option("--omega", gf.omega, "overrelaxation: exponent in [1, 2)")->capture_default_str();
  gaugefix->add_option("--every", gf.every, "iterations between progress lines")->capture_default_str();
  gaugefix->add_option("--bits", gf.bits, "precision of the written file: 64 | 32")->capture_default_str();
  gaugefix->add_option("--format", gf.format, "ildg | nersc | openqcd")->capture_default_str();
  gaugefix->add_flag("--force", gf.force, "replace OUTPUT if it exists");
  gaugefix->add_flag("--no-verify", gf.no_verify, "report checksum/header mismatches of the input instead of failing");
  gaugefix->add_flag("--json", gf.json, "one JSON object on stdout (iterations, theta, F, plaquette, seconds)");
  gaugefix->add_flag("-q,--quiet", gf.quiet, "no progress lines");
  add_device_option(gaugefix, gf);
  add_grid_option(gaugefix, gf);

  SmearCommandOptions sm;
  CLI::App* smear = app.add_subcommand(
      "smear",
      "Smear a stored configuration (stout: Morningstar-Peardon; APE: Albanese et al.; HYP: Hasenfratz-Knechtli; projected to SU(3)) and "
      "write it atomically, in the input's precision (openqcd: 64-bit); prints the plaquette before and after.");
  smear->add_option("input", sm.input, "configuration to read (any supported format)")->required();
  smear->add_option("output", sm.output, "file to write")->required();
  smear->add_option("--method", sm.method, "stout | ape | hyp")->capture_default_str();
  smear->add_option("--steps", sm.steps, "smearing steps")->capture_default_str();
  smear->add_option("--rho", sm.rho, "stout: rho of every plane")->capture_default_str();
  smear->add_option("--alpha", sm.alpha, "ape: alpha (weight of the staples)")->capture_default_str();
  smear->add_option("--alpha1", sm.alpha1, "hyp: alpha1 (the outer level)")->capture_default_str();
  smear->add_option("--alpha2", sm.alpha2, "hyp: alpha2")->capture_default_str();
  smear->add_option("--alpha3", sm.alpha3, "hyp: alpha3 (the inner level; not used by 3D HYP)")->capture_default_str();
  smear->add_flag("--spatial", sm.spatial,
                  "smear only the spatial links, with spatial staples (3D; hyp: two levels within the cubes of a time "
                  "slice)");
  smear->add_option("--format", sm.format, "ildg | nersc | openqcd")->capture_default_str();
  smear->add_flag("--force", sm.force, "replace OUTPUT if it exists");
  smear->add_flag("--no-verify", sm.no_verify, "report checksum/header mismatches of the input instead of failing");
  add_device_option(smear, sm);
  add_grid_option(smear, sm);

  ConvertCommandOptions cv;
  CLI::App* convert = app.add_subcommand(
      "convert", "Convert a configuration to another format; the input is verified first, writes are atomic.");
  convert->add_option("input", cv.input, "configuration to read (any supported format)")->required();
  convert->add_option("output", cv.output, "file to write")->required();
  convert->add_option("--format", cv.format, "ildg | nersc | openqcd")->capture_default_str();
  convert->add_option("--precision", cv.precision, "32 | 64 bits per real (default: as stored in the input)");
  convert->add_option("--tile", cv.tile,
                      "NX,NY,NZ,NT: repeat the lattice this many times per direction (e.g. 2,2,2,2 makes 16^4 "
                      "into 32^4; the plaquette is unchanged)");
  convert->add_flag("--force", cv.force, "replace an existing output file");

  HmcCommandOptions hm;
  CLI::App* hmc = app.add_subcommand(
      "hmc",
      "Dynamical-fermion ensemble by Hybrid Monte Carlo / RHMC: a gauge action (Wilson, Symanzik, Iwasaki, DBW2)\n"
      "with any set of fermion monomials, each even-odd preconditioned: two flavours of Wilson, clover, twisted-mass\n"
      "or twisted-clover quarks, Hasenbusch ratios det M(kappa) / det M(kappa2), and single flavours by a rational\n"
      "approximation (Nf = 2+1). Nested multi-level integrators: leapfrog, Omelyan (2nd and 4th order),\n"
      "force-gradient. Without INPUT: a short Nf = 2 Wilson run on 8^4.\n"
      "Writes PREFIX.log, PREFIX.jsonl (one object per trajectory: dH, accepted, plaquette, ...) and configurations.");
  add_toml_input(hmc, hm);
  hmc->add_flag("--resume", hm.resume, "continue from PREFIX.checkpoint.ildg exactly as if never stopped");
  hmc->add_flag("--force", hm.force, "with --resume: accept a checkpoint written with other physics parameters");
  add_device_option(hmc, hm);
  add_grid_option(hmc, hm);
  hmc->add_flag("-q,--quiet", hm.quiet, "no log on stdout and no progress line (files are still written)");

  PropagatorCommandOptions pr;
  CLI::App* propagator = app.add_subcommand(
      "propagator",
      "Quark propagator of one source (12 spin-colour solves) on a configuration or the free field, saved as\n"
      "PREFIX.prop.lime (SciDAC/QIO LIME). Solver residuals are checked with the full operator.");
  add_toml_input(propagator, pr);
  add_device_option(propagator, pr);
  add_grid_option(propagator, pr);
  propagator->add_flag("--force", pr.force, "replace an existing PREFIX.prop.lime");
  propagator->add_flag("-q,--quiet", pr.quiet, "no log on stdout (files are still written)");

  SpectrumCommandOptions sp;
  CLI::App* spectrum = app.add_subcommand(
      "spectrum",
      "Meson two-point functions: propagator of one source, contracted for all 16 gamma structures at the\n"
      "requested momenta (PREFIX.h5), with pion, rho, a0, PCAC mass and effective masses in the log,\n"
      "PREFIX.jsonl and (--json) on stdout.");
  add_toml_input(spectrum, sp);
  spectrum->add_flag("--json", sp.json, "print one JSON object (correlators, effective masses) on stdout");
  add_device_option(spectrum, sp);
  add_grid_option(spectrum, sp);
  spectrum->add_flag("-q,--quiet", sp.quiet, "no log on stdout (files are still written)");

  DistillCommandOptions ds;
  CLI::App* distill = app.add_subcommand(
      "distill",
      "Distillation on one configuration (one process): Laplacian eigenvectors per time slice (3D-stout-smeared\n"
      "links), perambulators for the source times, meson elementals, the correlator matrix of every operator\n"
      "pair (PREFIX.h5, /distillation/C[t][i][j][re,im]) and the GEVP effective energies of the requested\n"
      "channels (log, PREFIX.jsonl, --json).");
  add_toml_input(distill, ds);
  distill->add_flag("--json", ds.json, "print one JSON object (GEVP effective energies) on stdout");
  add_device_option(distill, ds);
  distill->add_option("--grid", ds.grid,
                      "processes per direction 1,1,1,T (run under mpirun -np T, one GPU per rank): the time slices "
                      "are shared out, each rank computes its slices' eigenvectors, elementals and sink times, the "
                      "solves are distributed; default under mpirun: all along t");
  distill->add_flag("-q,--quiet", ds.quiet, "no log on stdout (files are still written)");

  GevpCommandOptions gv;
  CLI::App* gevp = app.add_subcommand(
      "gevp",
      "The GEVP C(t) v = lambda C(t0) v of a correlator matrix written by lqcd distill (PREFIX.h5): principal\n"
      "correlators and effective energies for a reference time and a subset of the operators.");
  gevp->add_option("file", gv.file, "HDF5 file of lqcd distill (PREFIX.h5)")->required()->check(CLI::ExistingFile);
  gevp->add_option("--t0", gv.t0, "reference time t0")->capture_default_str();
  gevp->add_option("--operators", gv.operators,
                   "operators to use, comma-separated as in the file (e.g. g5_p0,0,0,gxgygz_p0,0,0); default all");
  gevp->add_option("--dataset", gv.dataset, "the correlator matrix [T][N][N][re, im] in the file")->capture_default_str();
  gevp->add_flag("--json", gv.json, "one JSON object (lambda and effective energies per state) on stdout");

  AnalysisCommandOptions an;
  an.mode = "run";
  CLI::App* analyse = app.add_subcommand(
      "analyse",
      "Error analysis of a heatbath or HMC run (PREFIX.jsonl): every scalar observable after thermalisation with\n"
      "its Gamma-method error (Wolff 2004) and integrated autocorrelation time, the acceptance and <exp(-dH)>.\n"
      "Runs python3 -m lqcd.analysis run (Debian's python3-numpy and python3-scipy).");
  analyse->add_option("run", an.run, "PREFIX.jsonl of lqcd heatbath or lqcd hmc, or PREFIX")->required();
  analyse->add_option("--therm", an.therm, "records to drop (default: those the run did not mark thermalised)");
  AnalysisCommandOptions pl;
  pl.mode = "plot";
  CLI::App* plot = app.add_subcommand(
      "plot",
      "Plots of a heatbath or HMC run (PREFIX.jsonl), next to it: PREFIX.<observable>.history.png (history and\n"
      "histogram with the mean and its error band) and PREFIX.<observable>.autocorrelation.png. Runs python3 -m\n"
      "lqcd.analysis plot (Debian's python3-matplotlib).");
  plot->add_option("run", pl.run, "PREFIX.jsonl of lqcd heatbath or lqcd hmc, or PREFIX")->required();
  plot->add_option("--observables", pl.observables, "comma-separated (default: plaquette, and dH when present)");
  plot->add_option("--therm", pl.therm, "records to drop (default: those the run did not mark thermalised)");
  plot->add_option("--format", pl.format, "png | pdf")->capture_default_str();

  BenchCommandOptions bn;
  CLI::App* bench = app.add_subcommand(
      "bench", "Performance harness: measures the copy bandwidth, then the kernel; prints median times, GB/s and "
               "the fraction of the copy bandwidth. On a GPU also the energy of each timed loop from the driver's "
               "counter (NVML, loaded at run time; LQCD_NVML_LIBRARY names another library): energy_joules per "
               "call, average_watts, gflops_per_watt (prefixed matpc_/mdagm_/heatbath_/overrelaxation_ where a "
               "benchmark times several things); null, with energy_note saying why, where it is not measured.");
  bench->add_option("kernel", bn.kernel, "heatbath | flow | gaugefix | distill | copy | dslash | matpc | solver")->capture_default_str();
  bench->add_option("--dims", bn.dims, "lattice X,Y,Z,T")->capture_default_str();
  bench->add_option("--grid", bn.grid,
                    "dslash, matpc, solver: processes per direction X,Y,Z,T (run under mpirun -np X*Y*Z*T; one GPU "
                    "per rank); default: all along t");
  add_device_option(bench, bn);
  bench->add_option("--action", bn.action,
                    "heatbath: gauge action; dslash, matpc, solver: wilson | clover | twisted_mass")
      ->capture_default_str();
  bench->add_option("--precision", bn.precision, "double | single | half (16-bit fixed point; solver: single, half = double outer, single / half inner)")
      ->capture_default_str();
  bench->add_option("--reconstruct", bn.reconstruct, "reals stored per link: 18 | 12 | 8 (12 and 8: Wilson and twisted mass; half: 12 or 8)")->capture_default_str();
  bench->add_option("--rhs", bn.rhs,
                    "right-hand sides per call (dslash: 1 to 64, one kernel for all; solver: 2 to 32, the multi-RHS "
                    "CG against the same solves one at a time; solver --solver multigrid: 2 to 64 solved together "
                    "through block cycles, against one at a time)")
      ->capture_default_str();
  bench->add_option("--kappa", bn.kappa, "hopping parameter of the Dirac benchmarks")->capture_default_str();
  bench->add_option("--mu", bn.mu, "twisted mass (twisted_mass)")->capture_default_str();
  bench->add_option("--csw", bn.csw, "clover coefficient (clover)")->capture_default_str();
  bench->add_option("--tolerance", bn.tolerance, "solver: true relative residual")->capture_default_str();
  bench->add_option("--max-iterations", bn.max_iterations,
                    "solver --solver multigrid: outer iterations per right-hand side before the solve counts as failed")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  bench->add_option("--inner-tolerance", bn.inner_tolerance,
                    "solver, --precision single|half: residual reduction of each lower-precision correction "
                    "(half: at least 1e-3)")
      ->check(CLI::Range(1e-12, 0.5))
      ->capture_default_str();
  bench->add_option("--timing", bn.timing,
                    "device calls: events = CUDA events between back-to-back calls (the device's time per call); "
                    "batched = CUDA events around batches of " + std::to_string(kTimingBatch) +
                        " back-to-back calls, none between them (as in a solver's loop); wall = host clock around "
                        "each call, synchronised after it (adds launch and sync latency)")
      ->check(CLI::IsMember({"events", "batched", "wall"}))
      ->capture_default_str();
  bench->add_option("--system", bn.system,
                    "solver: normal = CG on M^dag M x = M^dag b with the tolerance on that residual (as QUDA's "
                    "CG test); matpc = --solver on M x = b, tolerance on ||b - M x|| / ||b||")
      ->capture_default_str();
  bench->add_option("--solver", bn.solver,
                    "solver, --system matpc: cg (CGNR, on the normal equations) | bicgstab | gcr (on M itself); "
                    "multigrid: flexible GCR with the multigrid cycle on the full system M x = b (--system not used; "
                    "the setup timed apart)")
      ->capture_default_str();
  bench->add_option("--multigrid", bn.multigrid,
                    "solver --solver multigrid: KEY=VALUE settings of the [multigrid] table, repeatable "
                    "(e.g. --multigrid test_vectors=32 --multigrid block=[4,4,4,4]); see lqcd propagator --print-config");
  bench->add_option("--config", bn.config,
                    "dslash, matpc, solver: gauge configuration to use (ILDG, SciDAC, NERSC, MILC, openQCD; its dims "
                    "must be --dims) instead of Haar-random links");
  bench->add_option("--rotation-sets", bn.rotation_sets,
                    "dslash: copies of links and fields that the timed calls take in turn, so that each call reads "
                    "DRAM (0: enough copies to exceed twice the L2; 1: the same inputs every call, L2-resident on "
                    "small lattices)")
      ->capture_default_str();
  bench->add_option("--nv", bn.nv, "distill: Laplacian eigenvectors per time slice")->capture_default_str();
  bench->add_option("--repetitions", bn.repetitions, "timed repetitions (the median is reported)")->capture_default_str();
  bench->add_flag("--json", bn.json, "one JSON object on stdout");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // A wrong command line is reported like every other user error: one "lqcd: error:" line naming the
    // option (CLI11's own report is two lines without the program's name), exit status 1.
    std::string where;
    for (const CLI::App* sub : app.get_subcommands()) where = " " + sub->get_name();
    return report_error("error", fmt::format("{} (see lqcd{} --help)", e.what(), where).c_str(), 1);
  }
  try {
    if (*heatbath) return run_heatbath(hb);
    if (*measure) return run_measure(ms);
    if (*flow) return run_flow(fl);
    if (*smear) return run_smear(sm);
    if (*gaugefix) return run_gaugefix(gf);
    if (*convert) return run_convert(cv);
    if (*hmc) return run_hmc(hm);
    if (*propagator) return run_propagator(pr);
    if (*spectrum) return run_spectrum(sp);
    if (*distill) return run_distill(ds);
    if (*gevp) return run_gevp(gv);
    if (*bench) return run_bench(bn);
    if (*analyse) return run_analysis(an);
    if (*plot) return run_analysis(pl);
  } catch (const lqcd::Error& e) {
    return report_error("error", e.what(), 1);
  } catch (const std::exception& e) {
    return report_error("internal error", e.what(), 2);
  }
  return 0;
}
