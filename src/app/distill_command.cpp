#include "app/distill_command.hpp"

#include <memory>

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <span>

#include "app/device_choice.hpp"
#include "app/json_values.hpp"
#include "app/observables_json.hpp"
#include "app/quark_input.hpp"
#include "app/version.hpp"
#include "comm/communicator.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "io/crc32.hpp"
#include "io/hdf5_datasets.hpp"
#include "measure/gevp.hpp"
#include "measure/perambulator.hpp"

namespace lqcd::app {

namespace {

using C = Complex<double>;

std::string slice_name(int t) { return fmt::format("eigenvectors/t_{:04d}", t); }

// PREFIX.eigvecs.h5: the eigenvalues [T][nv] and per slice [nv][3 V3][2] with its CRC32, written slice by
// slice; root attributes name the lattice, the links (configuration, plaquette, smearing) they belong to.
struct EigenvectorOrigin {
  std::string config, links;
  double plaquette = 0;
};

// Slice t (global) of E as host numbers on every process of `grid`: broadcast from the process that holds
// it (found as the largest rank that holds it, the only one), or from here on one process.
std::vector<C> slice_on_every_process(const LaplacianEigenvectors& E, int t, const Dims& grid) {
  std::vector<C> h(std::size_t(E.rows()) * E.nv, C(0.0));
  if (E.holds(t)) detail::copy_bytes(h.data(), Location::Host, E.slice(t - E.t_begin), E.location(), h.size() * sizeof(C));
  if (process_count(grid) > 1) {
    const int owner = int(comm::max(grid, E.holds(t) ? double(comm::rank()) : -1.0));
    comm::broadcast(grid, h.data(), h.size() * sizeof(C), owner);
  }
  return h;
}

// The numbers per slice of all T slices on every process (each process knows its own slices').
std::vector<double> on_every_process(const LaplacianEigenvectors& E, const std::vector<double>& local, std::size_t per_slice,
                                     const Dims& grid) {
  std::vector<double> all(std::size_t(E.dims[3]) * per_slice, 0.0);
  std::copy(local.begin(), local.end(), all.begin() + std::ptrdiff_t(std::size_t(E.t_begin) * per_slice));
  if (process_count(grid) > 1) comm::sum(grid, std::span<double>(all));
  return all;
}

// Collective on a time-split lattice (every process sends its slices in turn); rank 0 writes.
void save_eigenvectors(const std::string& path, const LaplacianEigenvectors& E, const EigenvectorOrigin& origin,
                       const Dims& grid) {
  io::Hdf5Datasets f;
  f.string_attributes = {{"program", version_string()},
                         {"gauge_config", origin.config},
                         {"links", origin.links},
                         {"layout", "[v][3 * (x + Lx (y + Ly z)) + colour][re, im]; -Laplacian v = lambda v"}};
  f.number_attributes = {{"nv", E.nv},         {"Lx", E.dims[0]}, {"Ly", E.dims[1]},
                         {"Lz", E.dims[2]},    {"Lt", E.dims[3]}, {"plaquette", origin.plaquette}};
  f.datasets.push_back({"eigenvalues", {std::uint64_t(E.dims[3]), std::uint64_t(E.nv)},
                        on_every_process(E, E.eigenvalues, std::size_t(E.nv), grid), {}, {}});
  const std::int64_t n = E.rows();
  const auto dataset = [&](std::size_t t) {
    const std::vector<C> h = slice_on_every_process(E, int(t), grid);
    std::vector<double> v(2 * h.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
      v[2 * i] = h[i].re;
      v[2 * i + 1] = h[i].im;
    }
    const double crc = io::crc32(v.data(), v.size() * sizeof(double));
    return io::Hdf5Dataset{slice_name(int(t)), {std::uint64_t(E.nv), std::uint64_t(n), 2}, std::move(v), {}, {{"crc32", crc}}};
  };
  if (comm::rank() == 0) {
    io::write_datasets_hdf5(path, f, std::size_t(E.dims[3]), dataset);
  } else {
    for (int t = 0; t < E.dims[3]; ++t) slice_on_every_process(E, t, grid);  // the same collective sums as rank 0's
  }
}

// The first nv eigenvectors of a file save_eigenvectors wrote, checked against the lattice, the links they
// belong to and the CRC32s: the slices t_begin .. t_begin + local_nt - 1 (each process reads its own).
LaplacianEigenvectors load_eigenvectors(const std::string& path, const Dims& dims, int t_begin, int local_nt, int nv,
                                        Location loc, const EigenvectorOrigin& origin) {
  const std::string key = "distillation.eigenvectors_in";
  const io::Hdf5Datasets root = io::read_root_attributes_hdf5(path);
  const auto number = [&](const char* k) {
    const auto it = root.number_attributes.find(k);
    if (it == root.number_attributes.end()) fail("{}: {}: not an lqcd eigenvector file (no attribute {})", key, path, k);
    return it->second;
  };
  const auto text = [&](const char* k) {
    const auto it = root.string_attributes.find(k);
    if (it == root.string_attributes.end()) fail("{}: {}: not an lqcd eigenvector file (no attribute {})", key, path, k);
    return it->second;
  };
  const Dims file_dims{int(number("Lx")), int(number("Ly")), int(number("Lz")), int(number("Lt"))};
  if (file_dims != dims)
    fail("{}: {} holds eigenvectors of a {}x{}x{}x{} lattice; this run's is {}x{}x{}x{}", key, path, file_dims[0],
         file_dims[1], file_dims[2], file_dims[3], dims[0], dims[1], dims[2], dims[3]);
  if (text("links") != origin.links)
    fail("{}: {} was made with links \"{}\"; this run smears \"{}\"", key, path, text("links"), origin.links);
  if (std::abs(number("plaquette") - origin.plaquette) > 1e-12)
    fail("{}: {} belongs to a configuration of plaquette {:.12f} ({}); this run's is {:.12f}", key, path,
         number("plaquette"), text("gauge_config"), origin.plaquette);
  const io::Hdf5Dataset lambda = io::read_dataset_hdf5(path, "eigenvalues");
  if (lambda.shape.size() != 2 || lambda.shape[0] != std::uint64_t(dims[3]) || lambda.shape[1] < std::uint64_t(nv))
    fail("{}: {} holds {} eigenvectors on {} time slices; this run needs {} on {}", key, path,
         lambda.shape.size() == 2 ? lambda.shape[1] : 0, lambda.shape.empty() ? 0 : lambda.shape[0], nv, dims[3]);
  LaplacianEigenvectors E;
  E.dims = dims;
  E.nv = nv;
  E.t_begin = t_begin;
  E.local_nt = local_nt;
  const std::int64_t n = E.rows();
  E.vectors = Buffer<C>(std::size_t(n) * nv * local_nt, loc);
  const std::size_t file_nv = std::size_t(lambda.shape[1]);
  for (int t = t_begin; t < t_begin + local_nt; ++t) {
    const io::Hdf5Dataset d = io::read_dataset_hdf5(path, slice_name(t));
    if (d.shape != std::vector<std::uint64_t>{file_nv, std::uint64_t(n), 2})
      fail("{}: {}: {} has the wrong shape for a {}x{}x{} slice", key, path, d.name, dims[0], dims[1], dims[2]);
    const auto crc = d.number_attributes.find("crc32");
    if (crc == d.number_attributes.end() || crc->second != double(io::crc32(d.values.data(), d.values.size() * sizeof(double))))
      fail("{}: {}: {}: CRC32 mismatch (the file is damaged)", key, path, d.name);
    detail::copy_bytes(E.slice(t - t_begin), loc, d.values.data(), Location::Host, std::size_t(n) * nv * sizeof(C));
    for (int v = 0; v < nv; ++v) {
      E.eigenvalues.push_back(lambda.values[std::size_t(t) * file_nv + std::size_t(v)]);
      E.residuals.push_back(std::nan(""));
    }
  }
  return E;
}

// C[t][i][j] as [T][N][N][2].
io::Hdf5Dataset matrix_dataset(const std::string& name, const std::vector<C>& values, int nt, int nops) {
  io::Hdf5Dataset d{name, {std::uint64_t(nt), std::uint64_t(nops), std::uint64_t(nops), 2}, {}, {}, {}};
  for (const C& c : values) {
    d.values.push_back(c.re);
    d.values.push_back(c.im);
  }
  return d;
}

}  // namespace

int run_distill(const DistillCommandOptions& opt) {
  Config config(distill_schema(), "distill");
  if (!opt.input.empty()) config.merge_file(opt.input);
  if (opt.print_config) {
    std::cout << config.to_toml();
    return 0;
  }
  const DistillInput in = read_distill_input(config);
  const QuarkInput& q = in.quark;
  const Location loc = choose_location(opt.device);
  check_quark_lattice_fits(q, config, loc, opt.grid);
  const OutputPrefixLock output_lock(q.prefix, "output.prefix");
  const Stopwatch clock;
  const QuarkProblem problem(q, loc, opt.grid);
  const Geometry& geom = problem.links().geometry();
  // Eigenvectors, elementals and the projections of the solutions are per time slice: each process
  // keeps whole slices (the solves themselves are distributed as in every other command).
  check_whole_time_slices(geom, opt.grid.empty() ? std::string("lqcd distill") : "lqcd distill --grid " + opt.grid);
  const Dims& grid = geom.grid;
  const bool split = geom.distributed();
  const Dims dims = geom.global;
  const int T = dims[3];
  check_laplacian_eigen_params(in.eigen, dims, config.source() + ": distillation.");
  for (int t0 : in.source_times)
    if (t0 >= T) config.fail_key("distillation.source_times", fmt::format("time {} is outside 0..{}", t0, T - 1));
  if (in.gevp_t0 >= T) config.fail_key("distillation.gevp_t0", fmt::format("expected 0..{}", T - 1));
  RunLog log(q.prefix + ".log", false, opt.quiet || opt.json);
  JsonLines jsonl(q.prefix + ".jsonl", false);
  log.line("# {}", version_string());
  log.line("# lqcd distill: distillation (Peardon et al. 2009) with nv = {} Laplacian eigenvectors per time slice", in.eigen.nv);
  log.line("# gauge: {}; plaquette {:.12f}", problem.gauge_description(), problem.observables().plaquette);
  log.line("# quark: {}", describe_fermion(q.fermion));
  log.line("# backend: {}", loc == Location::Device ? "CUDA, " + device_description() : "CPU (OpenMP)");
  if (split)
    log.line("# lattice split over {} MPI ranks along t, process grid {} (x,y,z,t): each holds {} time slices", geom.processes(),
             dims_string(grid), geom.local[3]);
  log.line("# conventions: C_ij(t) = <O_i(t0 + t) O_j(t0)^dag>, O = dbar~ G D e^{{-i p.x}} u~ summed over the slice, "
           "q~ = V V^dag q; t relative to the source time, averaged over the source times; DeGrand-Rossi gammas "
           "named by their literal product; p = 2 pi n / L; D = 1 or the symmetric covariant derivative");
  log_input(log, config);

  // Eigenvectors.
  const std::string links = fmt::format("3D stout, {} steps, rho {}", in.stout.steps, in.stout.rho);
  const EigenvectorOrigin origin{q.config, links, problem.observables().plaquette};
  const GaugeField<double> smeared = stout_smear(problem.links(), in.stout);
  LaplacianEigenvectors E;
  if (!in.eigenvectors_in.empty()) {
    E = load_eigenvectors(in.eigenvectors_in, dims, geom.offset[3], geom.local[3], in.eigen.nv, loc, origin);
    log.line("# eigenvectors: read from {} (CRC32 checked)", in.eigenvectors_in);
  } else {
    log.line("# eigenvectors of -Laplacian ({} links), Chebyshev-filtered subspace iteration, degree {}:", links,
             in.eigen.chebyshev_degree);
    const auto row = [&](int t, double iterations, double lambda_min, double lambda_max, double residual, double seconds) {
      log.line("  {:>3} {:>5} {:12.6e} {:12.6e} {:12.3e} {:9.3f}", t, iterations, lambda_min, lambda_max, residual, seconds);
    };
    log.line("# {:>3} {:>5} {:>12} {:>12} {:>12} {:>9}", "t", "iter", "lambda_min", "lambda_nv", "max_resid", "seconds");
    CountProgress slices(!log.quiet(), split ? "eigenvectors: this rank's time slices" : "eigenvectors: time slices",
                         geom.local[3]);
    long slices_done = 0;
    const Stopwatch eigen_clock;
    E = laplacian_eigenvectors(smeared, in.eigen, [&](const LaplacianSliceInfo& s) {
      slices.done(++slices_done);
      if (!split) row(s.t, s.iterations, s.lambda_min, s.lambda_max, s.max_residual, s.seconds);
    });
    if (split) {  // every slice's row, from the process that computed it
      std::vector<double> local;
      for (const auto& s : E.slices)
        local.insert(local.end(), {double(s.iterations), s.lambda_min, s.lambda_max, s.max_residual, s.seconds});
      const std::vector<double> all = on_every_process(E, local, 5, grid);
      for (int t = 0; t < T; ++t) {
        const double* r = all.data() + 5 * std::size_t(t);
        row(t, r[0], r[1], r[2], r[3], r[4]);
      }
    }
    jsonl.write({{"record", "eigenvectors"}, {"nv", E.nv}, {"seconds", eigen_clock.seconds()},
                 {"eigenvalues", on_every_process(E, E.eigenvalues, std::size_t(E.nv), grid)}});
    if (in.save_eigenvectors) {
      save_eigenvectors(q.prefix + ".eigvecs.h5", E, origin, grid);
      log.line("# eigenvectors written to {}.eigvecs.h5", q.prefix);
    }
  }
  const std::vector<ElementalKind> kinds = in.kinds();
  const std::vector<DistillationOperator> ops = in.operators();
  const int N = int(ops.size());
  Stopwatch elemental_clock;
  const Elementals phi = meson_elementals(smeared, E, kinds);
  log.line("# elementals: {} kinds (momenta x displacements) in {:.3f} s", kinds.size(), elemental_clock.seconds());

  // Perambulators and correlators per source time.
  PropagatorOptions o;
  o.solver = q.solver;
  o.multi_rhs = q.multi_rhs;
  o.multigrid = q.multigrid;
  o.multigrid_cache = std::make_shared<MultigridCache>();  // solver.type = "multigrid": one setup for all source times
  o.on_multigrid_setup = [&](const MultigridPreconditionerInfo& info) { log.line("# {}", info.summary()); };
  io::Hdf5Datasets file;
  std::vector<C> average(std::size_t(T) * N * N, C(0.0));
  CountProgress source_times(!log.quiet(), "perambulators and contractions: source times", long(in.source_times.size()));
  long source_times_done = 0;
  for (int t0 : in.source_times) {
    const Perambulator tau = perambulator(problem.operators(), q.even_odd, E, t0, o);
    const CorrelatorMatrix Cm = distillation_correlators(tau, phi, ops);
    log.line("# t0 = {}: perambulator {} solves, {} iterations, {:.3f} s; contraction {:.3f} s ({:.1f} GFLOP in GEMMs)",
             t0, tau.solves, tau.iterations, tau.seconds, Cm.seconds, Cm.gemm_flops * 1e-9);
    jsonl.write({{"record", "source_time"}, {"t0", t0}, {"solves", tau.solves}, {"iterations", tau.iterations},
                 {"perambulator_seconds", tau.seconds}, {"contraction_seconds", Cm.seconds},
                 {"contraction_gflop", Cm.gemm_flops * 1e-9}});
    for (std::size_t k = 0; k < average.size(); ++k) average[k] += Cm.values[k] * (1.0 / double(in.source_times.size()));
    file.datasets.push_back(matrix_dataset(fmt::format("distillation/t0_{:04d}/C", t0), Cm.values, T, N));
    source_times.done(++source_times_done);
  }
  source_times.finish();
  std::string names;
  for (const auto& op : ops) {
    if (!names.empty()) names += ',';
    names += operator_name(op);
  }
  io::Hdf5Dataset avg = matrix_dataset("distillation/C", average, T, N);
  avg.string_attributes = {{"operators", names},
                           {"convention", "C[t][i][j] = <O_i(t0 + t) O_j(t0)^dag>, [re, im], averaged over the source times"}};
  file.datasets.push_back(std::move(avg));
  file.datasets.push_back({"distillation/eigenvalues", {std::uint64_t(T), std::uint64_t(E.nv)},
                           on_every_process(E, E.eigenvalues, std::size_t(E.nv), grid), {}, {}});

  // GEVP per channel and momentum, undisplaced operators.
  nlohmann::json gevp_json = nlohmann::json::array();
  for (const GevpChannel& ch : in.gevp)
    for (const auto& p : in.momenta) {
      std::vector<int> index;
      for (int g : ch.gammas)
        for (int i = 0; i < N; ++i)
          if (ops[std::size_t(i)].gamma == g && ops[std::size_t(i)].kind == ElementalKind{p, -1}) index.push_back(i);
      if (index.empty()) continue;  // no undisplaced operators
      const int n = int(index.size());
      std::vector<std::vector<C>> values(std::size_t(T), std::vector<C>(std::size_t(n) * n));
      for (int t = 0; t < T; ++t)
        for (int a = 0; a < n; ++a)
          for (int b = 0; b < n; ++b)
            values[std::size_t(t)][std::size_t(a * n + b)] =
                average[(std::size_t(t) * N + std::size_t(index[std::size_t(a)])) * N + std::size_t(index[std::size_t(b)])];
      const std::string label = fmt::format("{}_p{},{},{}", ch.name, p[0], p[1], p[2]);
      GevpResult r;
      try {
        r = solve_gevp(values, n, in.gevp_t0);
      } catch (const Error& e) {
        log.line("# GEVP {}: not solved: {}", label, e.what());
        continue;
      }
      log.line("# GEVP {} (t0 = {}): effective energies E_n(t) = log(lambda_n(t) / lambda_n(t+1)), lattice units:", label,
               in.gevp_t0);
      std::vector<double> flat_l, flat_e;
      for (int t = 0; t < T; ++t) {
        std::string row = fmt::format("  {:>3}", t);
        for (int k = 0; k < n; ++k) {
          flat_l.push_back(r.lambda[std::size_t(t)][std::size_t(k)]);
          const double e = t + 1 < T ? r.effective_energy[std::size_t(t)][std::size_t(k)] : std::nan("");
          flat_e.push_back(e);
          row += std::isfinite(e) ? fmt::format(" {:12.6f}", e) : fmt::format(" {:>12}", "-");
        }
        log.line("{}", row);
      }
      io::Hdf5Dataset l{"distillation/gevp/" + label + "/lambda", {std::uint64_t(T), std::uint64_t(n)}, flat_l, {}, {}};
      l.number_attributes = {{"t0", in.gevp_t0}};
      file.datasets.push_back(std::move(l));
      file.datasets.push_back(
          {"distillation/gevp/" + label + "/effective_energy", {std::uint64_t(T), std::uint64_t(n)}, flat_e, {}, {}});
      nlohmann::json energies = nlohmann::json::array();
      for (int k = 0; k < n; ++k) {
        std::vector<double> e;
        for (int t = 0; t + 1 < T; ++t) e.push_back(r.effective_energy[std::size_t(t)][std::size_t(k)]);
        energies.push_back(finite_or_null(e));
      }
      gevp_json.push_back({{"channel", label}, {"t0", in.gevp_t0}, {"effective_energies", energies}});
    }
  file.string_attributes = {{"program", version_string()},
                            {"gauge_config", q.config},
                            {"quark", describe_fermion(q.fermion)},
                            {"links", links},
                            {"operators", names},
                            {"gamma_basis", "DeGrand-Rossi (Chroma/QDP++)"}};
  file.number_attributes = {{"nv", E.nv}, {"kappa", q.fermion.wilson.kappa}, {"csw", q.fermion.csw},
                            {"plaquette", problem.observables().plaquette}};
  const std::string h5 = q.prefix + ".h5";
  if (comm::rank() == 0) io::write_datasets_hdf5(h5, file);  // the matrices are sums over the ranks, on every rank
  log.line("# correlator matrices ({} operators: {}) in {}", N, names, h5);
  nlohmann::json summary = {{"record", "distill"},   {"config", q.config}, {"dims", dims},
                            {"nv", E.nv},             {"operators", names}, {"source_times", in.source_times},
                            {"gevp", gevp_json},      {"hdf5", h5},         {"seconds", clock.seconds()}};
  jsonl.write(summary);
  if (opt.json && comm::rank() == 0) std::cout << summary.dump() << std::endl;
  log.line("# done in {}", format_duration(clock.seconds()));
  return 0;
}

Command add_distill_command(CLI::App& lqcd) {
  auto o = std::make_shared<DistillCommandOptions>();
  CLI::App* c = lqcd.add_subcommand(
      "distill",
      "Distillation on one configuration (one process): Laplacian eigenvectors per time slice (3D-stout-smeared\n"
      "links), perambulators for the source times, meson elementals, the correlator matrix of every operator\n"
      "pair (PREFIX.h5, /distillation/C[t][i][j][re,im]) and the GEVP effective energies of the requested\n"
      "channels (log, PREFIX.jsonl, --json).");
  add_toml_input(c, o->input, o->print_config);
  c->add_flag("--json", o->json, "print one JSON object (GEVP effective energies) on stdout");
  add_device_option(c, o->device);
  c->add_option("--grid", o->grid,
                      "processes per direction 1,1,1,T (run under mpirun -np T, one GPU per rank): the time slices "
                      "are shared out, each rank computes its slices' eigenvectors, elementals and sink times, the "
                      "solves are distributed; default under mpirun: all along t");
  add_quiet_option(c, o->quiet, "no log on stdout (files are still written)");
  return {c, [o] { return run_distill(*o); }};
}

}  // namespace lqcd::app
