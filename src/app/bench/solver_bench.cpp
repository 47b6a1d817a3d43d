#include "app/bench/solver_bench.hpp"
#include "app/bench/dirac_bench.hpp"
#include "app/bench/timing.hpp"
#include "app/bench_command.hpp"
#include "app/multigrid_input.hpp"

#include "app/output.hpp"

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

#include "comm/communicator.hpp"
#include "comm/process_grid.hpp"
#include "core/copy_stream.hpp"
#include "core/device_timeline.hpp"
#include "core/energy_meter.hpp"
#include "core/environment_switch.hpp"
#include "core/error.hpp"
#include "core/launch_tuning.hpp"
#include "core/profiler_range.hpp"
#include "core/timer.hpp"
#include "measure/distillation_contractions.hpp"
#include "measure/laplacian_eigenvectors.hpp"
#include "gauge/gradient_flow.hpp"
#include "measure/configuration.hpp"
#include "core/site_random.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "dirac/wilson_even_odd_multi_rhs.hpp"
#include "fields/spinor_block_blas.hpp"
#include "solvers/krylov/multi_rhs_cg.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "core/dispatch.hpp"
#include "fields/spinor_blas.hpp"
#include "fields/spinor_block_field.hpp"
#include "solvers/solver.hpp"

namespace lqcd::app::bench {

namespace {

// LQCD_PROFILE_SETUP=1: the profiler's marked range is the multigrid setup instead of the solves.
bool profiler_marks_the_setup() {
  static const bool on = switch_from_environment("LQCD_PROFILE_SETUP", false);
  return on;
}

// The system a solver benchmark solves with the double-precision even-odd operator M_hat and source b:
// M_hat x = b by CGNR (p.hermitian = false), or the normal equations A x = M_hat^dag b, A = M_hat^dag
// M_hat, by CG on A (p.hermitian = true, QUDA's "normal-operator" solve), whose tolerance is on A's
// residual. solve() runs it in double (M_sloppy is M) or with corrections by M_sloppy.
class SolveSystem {
 public:
  SolveSystem(const LinearOperator<double>& M, const SpinorField<double>& b, const SolverParams& p)
      : M_(M), A_(M), b_(M.make_field()), p_(p) {
    if (p.hermitian) M.apply_dagger(b_, b);
    else b_.copy_from(b);
  }
  template <typename Sloppy>
  SolverResult solve(SpinorField<double>& x, const LinearOperator<Sloppy>& M_sloppy) const {
    const LinearOperator<double>& outer = p_.hermitian ? static_cast<const LinearOperator<double>&>(A_) : M_;
    if constexpr (std::is_same_v<Sloppy, double>) {
      return lqcd::solve(outer, x, b_, p_);
    } else if (p_.hermitian) {
      const NormalOperator<Sloppy> A_sloppy(M_sloppy);
      return solve_mixed(outer, A_sloppy, x, b_, p_);
    } else {
      return solve_mixed(outer, M_sloppy, x, b_, p_);
    }
  }

 private:
  const LinearOperator<double>& M_;
  NormalOperator<double> A_;
  SpinorField<double> b_;
  SolverParams p_;
};

// The even-odd Wilson / twisted-mass CG of solver_bench with links of LC complex components in every
// precision: returns the median seconds per solve and the last result.
template <int LC>
double wilson_solver_seconds(const BenchCommandOptions& opt, const GaugeField<double>& U, const WilsonParams& prm,
                             const SolverParams& p, const SpinorField<double>& b, SpinorField<double>& x,
                             SolverResult& last, RegionEnergy& energy) {
  const Location loc = U.location();
  const GaugeField<double, LC> Ud = convert_links<double, LC>(U);
  const WilsonEvenOddOperator<double, LC> M(Ud, prm);
  // --system normal: CG on M_hat^dag M_hat x = M_hat^dag b (p.hermitian); matpc: CGNR on M_hat x = b.
  const SolveSystem system(M, b, p);
  auto time_solves = [&](const auto& M_sloppy) {
    return median_seconds(
        loc, opt.repetitions,
        [&] {
          set_zero(x);
          last = system.solve(x, M_sloppy);
        },
        &energy);
  };
  if (opt.precision == "single") {
    const GaugeField<float, LC> Uf = convert_links<float, LC>(U);
    return time_solves(WilsonEvenOddOperator<float, LC>(Uf, prm));
  }
  if (opt.precision == "half") {
    if constexpr (LC != 9) {
      const GaugeField<Half, LC> Uh = convert_links<Half, LC>(U);
      return time_solves(WilsonEvenOddOperator<Half, LC>(Uh, prm));
    }
    fail("internal: half precision with 18-real links");
  }
  return time_solves(M);
}

// The multi-RHS CG (solvers/krylov/multi_rhs_cg.hpp) on N = opt.rhs sources at once against the same N
// solves one at a time, on the normal equations M_hat^dag M_hat x_j = M_hat^dag b_j (--system normal),
// 12-real links, Wilson or twisted mass, double or double with single / half corrections: median
// seconds per call of the block solve and of the N one-field solves (SolveSystem), and their ratio
// per solve. The block solver's per-rhs iteration counts should equal the one-field ones.
nlohmann::json multi_rhs_solver_bench(const BenchCommandOptions& opt, const GaugeField<double>& U,
                                      const FermionParams& f, const SolverParams& p, EnergyMeter& meter) {
  const int n = opt.rhs;
  const Geometry& geom = U.geometry();
  const Location loc = U.location();
  const GaugeField<double, 6> Ud = convert_links<double, 6>(U);
  const WilsonEvenOddOperator<double, 6> M(Ud, f.wilson);
  const WilsonEvenOddMultiRHS<double, 6> Mb(Ud, f.wilson, n);
  std::vector<SpinorField<double>> b;  // M_hat^dag b_j: the normal equations' sources
  SpinorBlockField<double> bb = Mb.make_block(), xb = Mb.make_block();
  for (int j = 0; j < n; ++j) {
    const SpinorField<double> g = gaussian_spinor(geom, loc, 9 + std::uint64_t(j)).parity_part(0);
    b.push_back(M.make_field());
    M.apply_dagger(b.back(), g);
    pack_rhs(bb, j, b.back());
  }
  SolverResult block_result, one_result;
  std::vector<int> one_iterations(std::size_t(n), 0);
  RegionEnergy e_block{meter, geom.grid}, e_one{meter, geom.grid};
  SpinorField<double> x = M.make_field();
  SolverParams one = p;  // one field at a time: CG on A = M_hat^dag M_hat (SolveSystem with b already M_hat^dag b)
  one.hermitian = true;
  const NormalOperator<double> A(M);
  auto time_both = [&]<typename Sloppy>(const WilsonEvenOddMultiRHS<Sloppy, 6>& Mb_sloppy,
                                        const WilsonEvenOddOperator<Sloppy, 6>& M_sloppy) {
    const double t_block = median_seconds(
        loc, opt.repetitions,
        [&] {
          set_zero(xb);
          if constexpr (std::is_same_v<Sloppy, double>) block_result = solve_normal_multi_rhs(Mb, xb, bb, p);
          else block_result = solve_normal_multi_rhs_mixed(Mb, Mb_sloppy, xb, bb, p);
        },
        &e_block);
    const NormalOperator<Sloppy> A_sloppy(M_sloppy);
    const double t_one = median_seconds(
        loc, opt.repetitions,
        [&] {
          for (int j = 0; j < n; ++j) {
            set_zero(x);
            if constexpr (std::is_same_v<Sloppy, double>) one_result = lqcd::solve(A, x, b[std::size_t(j)], one);
            else one_result = solve_mixed(A, A_sloppy, x, b[std::size_t(j)], one);
            one_iterations[std::size_t(j)] = one_result.iterations;
          }
        },
        &e_one);
    return std::pair{t_block, t_one};
  };
  std::pair<double, double> t;
  if (opt.precision == "single") {
    const GaugeField<float, 6> Uf = convert_links<float, 6>(U);
    t = time_both(WilsonEvenOddMultiRHS<float, 6>(Uf, f.wilson, n), WilsonEvenOddOperator<float, 6>(Uf, f.wilson));
  } else if (opt.precision == "half") {
    const GaugeField<Half, 6> Uh = convert_links<Half, 6>(U);
    t = time_both(WilsonEvenOddMultiRHS<Half, 6>(Uh, f.wilson, n), WilsonEvenOddOperator<Half, 6>(Uh, f.wilson));
  } else {
    t = time_both(Mb, M);
  }
  const auto [t_block, t_one] = t;
  const std::string precision = opt.precision == "double" ? "double" : "double/" + opt.precision;
  nlohmann::json r = {{"action", opt.action},
                      {"precision", precision},
                      {"reconstruct", 12},
                      {"kappa", opt.kappa},
                      {"tolerance", opt.tolerance},
                      {"inner_tolerance", p.precision == SolverPrecision::Double ? nlohmann::json(nullptr)
                                                                                   : nlohmann::json(p.inner_tolerance)},
                      {"system", "normal: M_hat^dag M_hat x_j = M_hat^dag b_j, tolerance on each residual"},
                      {"rhs", n},
                      {"seconds_per_call", t_block},
                      {"seconds_per_solve", t_block / n},
                      {"seconds_per_solve_one_at_a_time", t_one / n},
                      {"speedup_per_solve", t_one / t_block},
                      {"iterations", block_result.iterations},
                      {"rhs_iterations", block_result.rhs_iterations},
                      {"one_at_a_time_iterations", one_iterations},
                      {"true_residual", block_result.true_residual},
                      {"corrections", block_result.corrections},
                      {"GFLOPS", block_result.gflops},
                      {"stream_resident", stream_resident_solver(loc, geom.processes())}};
  r.update(energy_fields("", e_block, block_result.gflops));  // energy_joules: per call (N solves)
  return r;
}

}  // namespace

// The [multigrid] table of --solver multigrid: defaults overridden by the --multigrid KEY=VALUE settings.
MultigridParams bench_multigrid_params(const BenchCommandOptions& opt) {
  Config c(multigrid_schema(), "bench");
  std::string text;
  for (const std::string& kv : opt.multigrid) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      fail("--multigrid {}: expected KEY=VALUE with a key of the [multigrid] table (e.g. test_vectors=32)", kv);
    text += "multigrid." + kv.substr(0, eq) + " = " + kv.substr(eq + 1) + "\n";
  }
  c.merge_text(text, "--multigrid");
  return read_multigrid_params(c);
}

namespace {

// --rhs N with the multigrid: N Gaussian sources solved together (solve_multigrid on a block; issue 46)
// with the same setup, median time per block solve, against N times the single solve's t_single.
template <typename Real>
nlohmann::json multigrid_block_bench(const BenchCommandOptions& opt, const DiracOperators& ops,
                                     MultigridPreconditioner<Real>& mg, const SolverParams& p, double t_single,
                                     double setup_seconds) {
  const int n = opt.rhs;
  const Geometry& geom = ops.full->geometry();
  const Location loc = ops.full->location();
  std::vector<SpinorField<double>> b, x;
  for (int j = 0; j < n; ++j) {
    b.push_back(gaussian_spinor(geom, loc, 9 + std::uint64_t(j)));
    x.push_back(ops.full->make_field());
  }
  std::vector<SolverResult> last;
  mg.reset_solve_timings();
  int solves = 0;
  // the block solves alone, for a profiler (the setup instead with LQCD_PROFILE_SETUP=1)
  const bool mark = loc == Location::Device && !profiler_marks_the_setup();
  if (mark) device_profiler_range(true);
  const double t = median_seconds(loc, opt.repetitions, [&] {
    for (SpinorField<double>& xj : x) set_zero(xj);
    last = solve_multigrid(*ops.full, mg, x, b, p);
    ++solves;
  });
  if (mark) device_profiler_range(false);
  const MultigridTimings& s = mg.timings();
  const double per = 1.0 / solves;
  int lo = last[0].iterations, hi = lo;
  double worst = 0;
  for (const SolverResult& r : last) {
    lo = std::min(lo, r.iterations);
    hi = std::max(hi, r.iterations);
    worst = std::max(worst, r.true_residual);
  }
  return {{"rhs", n},
          {"seconds_block_solve", t},
          {"seconds_per_rhs_block", t / n},
          {"seconds_setup_plus_rhs_block", setup_seconds + t},
          {"block_speedup_per_rhs", n * t_single / t},
          {"block_iterations_min", lo},
          {"block_iterations_max", hi},
          {"block_true_residual_max", worst},
          {"block_coarse_iterations_per_cycle", s.cycles > 0 ? double(s.coarse_iterations) / double(s.cycles) : 0.0},
          {"seconds_per_block_solve_smoother", per * s.smoother},
          {"seconds_per_block_solve_transfer", per * s.transfer},
          {"seconds_per_block_solve_coarse_solves", per * s.coarse_solve},
          {"seconds_per_block_solve_coarsest", per * s.coarsest},
          {"seconds_per_block_solve_coarse_smoothing", per * s.coarse_smoothing},
          {"block_coarsest_iterations_per_coarse_iteration",
           s.coarse_iterations > 0 ? double(s.coarsest_iterations) / double(s.coarse_iterations) : 0.0},
          {"seconds_per_block_solve_outer_gcr", t - per * (s.smoother + s.transfer + s.coarse_solve)}};
}

// The multigrid (solvers/multigrid/multigrid.hpp) on the full system M x = b, b Gaussian random, from x = 0 to
// the tolerance on ||b - M x|| / ||b||, with the cycle in the --precision asked (double or single):
// the setup timed once (its parts apart), then the median time per solve; where a solve's time goes
// (fine smoother, transfers, coarse solves, the outer flexible GCR); the rates of the coarse operator
// and of the smoother's fine operator against the copy bandwidth, and the coarse operator on a block of
// 12 right-hand sides against 12 single applications (coarse_operator_block12_*; issue 46).
// setup_plus_12_solves is what one propagator costs one at a time; with --rhs N, the N solved together
// (multigrid_block_bench).
nlohmann::json multigrid_solver_bench(const BenchCommandOptions& opt, const GaugeField<double>& U,
                                      const FermionParams& f, const SolverParams& p, double copy_gbps,
                                      EnergyMeter& meter) {
  const Location loc = U.location();
  const Geometry& geom = U.geometry();
  const bool single = opt.precision == "single";
  const MultigridParams mp = bench_multigrid_params(opt);
  const DiracOperators ops = make_dirac_operators(U, f, single ? SloppyPrecision::Single : SloppyPrecision::None);
  const SpinorField<double> b = gaussian_spinor(geom, loc, 9);
  SpinorField<double> x = ops.full->make_field();
  RegionEnergy energy{meter, geom.grid};
  auto run = [&]<typename Real>(const LinearOperator<Real>& D) {
    MultigridPreconditioner<Real> mg(D, mp);
    const bool mark_setup = loc == Location::Device && profiler_marks_the_setup();
    if (mark_setup) device_profiler_range(true);
    mg.setup();
    if (mark_setup) device_profiler_range(false);
    const MultigridTimings setup = mg.timings();
    SolverResult last;
    mg.reset_solve_timings();
    int solves = 0;
    // With one source the single solves are the profiler's window (with --rhs N the block solves are).
    const bool mark_solves = loc == Location::Device && opt.rhs <= 1 && !profiler_marks_the_setup();
    if (mark_solves) device_profiler_range(true);
    const double t = median_seconds(
        loc, opt.repetitions,
        [&] {
          set_zero(x);
          last = solve_multigrid(*ops.full, mg, x, b, p);
          ++solves;
        },
        &energy);
    if (mark_solves) device_profiler_range(false);
    const MultigridTimings& s = mg.timings();
    const double per = 1.0 / solves;
    // The operators' rates: the coarse operator (9 blocks per site) and the smoother's fine operator.
    const CoarseOperator<Real>& Dc = mg.coarse_operator();
    SpinorField<Real> fin(geom, loc), fout(geom, loc);
    convert_precision(fin, b);  // a copy for Real = double
    CoarseField<Real> cin = Dc.make_field(), cout = Dc.make_field();
    mg.restrict_to_coarse(cin, fin);
    const double t_coarse = median_seconds(loc, opt.repetitions, [&] { Dc.apply(cout, cin); });
    // The same operator on a block of 12 right-hand sides in one application (issue 46: each link word
    // read once for all of them), against 12 single applications.
    constexpr int kBlockRhs = 12;
    CoarseBlockField<Real> bin(Dc.lattice(), Dc.dof(), kBlockRhs, loc), bout(Dc.lattice(), Dc.dof(), kBlockRhs, loc);
    for (int j = 0; j < kBlockRhs; ++j) pack_rhs(bin, j, cin);
    // (A coarse level split over the processes has no block application: 0, here and for its even-odd form.)
    const double t_coarse_block =
        Dc.distributed() ? 0.0 : median_seconds(loc, opt.repetitions, [&] { Dc.apply(bout, bin); });
    const auto per_second = [](double amount, double seconds) { return seconds > 0 ? amount / seconds : 0.0; };
    // The even-odd coarse operator that the coarse solves apply, likewise (0 where they run on the whole
    // coarse lattice); its traffic floor is its hopping blocks (CoarseSchurComplement::hop_bytes).
    const CoarseSchurComplement<Real>* schur = mg.coarse_schur();
    double t_schur = 0, t_schur_block = 0;
    if (schur != nullptr) {
      t_schur = median_seconds(loc, opt.repetitions, [&] { schur->apply(cout, cin); });
      if (!Dc.distributed()) t_schur_block = median_seconds(loc, opt.repetitions, [&] { schur->apply(bout, bin); });
    }
    const double t_fine = median_seconds(loc, opt.repetitions, [&] { D.apply(fout, fin); });
    const double coarse_bytes = Dc.bytes_per_site() * double(Dc.lattice().sites);
    // The fine operator's minimal traffic: 8 links (18 reals), input and output spinors, and with a
    // clover term its 72 reals.
    const double fine_bytes = double(geom.volume()) * sizeof(Real) *
                              (4 * 18 + 2 * 24 + (f.action == FermionAction::Clover ? 72 : 0));
    const double coarse_iterations_per_cycle = s.cycles > 0 ? double(s.coarse_iterations) / double(s.cycles) : 0.0;
    const double outer = t - per * (s.smoother + s.transfer + s.coarse_solve);
    nlohmann::json r = {
        {"action", opt.action},
        {"precision", single ? "double/single" : "double"},
        {"kappa", opt.kappa},
        {"mu", f.wilson.mu},
        {"tolerance", opt.tolerance},
        {"solver", "multigrid"},
        {"system", "full: M x = b by flexible GCR with the multigrid cycle, tolerance on ||b - M x|| / ||b||"},
        {"multigrid", {{"block", mp.block},
                       {"test_vectors", mp.test_vectors},
                       {"coarse", mg.info().coarse},
                       {"coarse_distributed", Dc.distributed()},
                       {"coarse_components", Dc.dof()},
                       {"setup_iterations", mp.setup_iterations},
                       {"setup_sweeps", mp.setup_sweeps},
                       {"adaptive_cycles", mp.adaptive_cycles},
                       {"smoother", mp.smoother == MultigridSmoother::Schwarz ? "sap" : "mr"},
                       {"block_iterations", mp.block_iterations},
                       {"pre_smoothing", mp.pre_smoothing},
                       {"post_smoothing", mp.post_smoothing},
                       {"coarse_tolerance", mp.coarse_tolerance},
                       {"coarse_max_iterations", mp.coarse_max_iterations},
                       {"outer_restart", mp.outer_restart},
                       {"outer_recycle", mp.outer_recycle},
                       {"outer_double_restart", mp.outer_double_restart},
                       {"coarse_mu_factor", mp.coarse_mu_factor},
                       {"coarse_even_odd", mg.info().coarse_even_odd},
                       {"coarse_half", mp.coarse_half},
                       {"transfer_half", mp.transfer_half},
                       {"coarse_deflation", mp.coarse_deflation},
                       {"levels", mg.info().levels},
                       {"coarse_block", mp.coarse_block},
                       {"coarse_test_vectors", mp.coarse_test_vectors},
                       {"coarse_setup_iterations", mp.coarse_setup_iterations},
                       {"coarse_smoothing", mp.coarse_smoothing},
                       {"coarsest", mg.info().coarsest},
                       {"coarsest_components", mg.info().coarsest_dof},
                       {"coarsest_tolerance", mp.coarsest_tolerance},
                       {"coarsest_max_iterations", mp.coarsest_max_iterations},
                       {"coarsest_direct", mg.info().coarsest_direct}}},
        {"seconds_setup", setup.setup()},
        {"seconds_setup_test_vectors", setup.setup_vectors},
        {"seconds_setup_coarse_operator", setup.setup_coarse},
        {"seconds_setup_orthonormalise", setup.setup_orthonormalise},
        {"seconds_setup_third_level", setup.setup_third_level},
        {"seconds_setup_cycles", setup.setup_cycles},
        {"seconds_per_solve", t},
        {"seconds_setup_plus_12_solves", setup.setup() + 12 * t},
        {"iterations", last.iterations},
        {"true_residual", last.true_residual},
        {"coarse_iterations_per_cycle", coarse_iterations_per_cycle},
        {"coarsest_iterations_per_coarse_iteration",
         s.coarse_iterations > 0 ? double(s.coarsest_iterations) / double(s.coarse_iterations) : 0.0},
        {"seconds_per_solve_smoother", per * s.smoother},
        {"seconds_per_solve_transfer", per * s.transfer},
        {"seconds_per_solve_coarse_solves", per * s.coarse_solve},
        {"seconds_per_solve_coarsest", per * s.coarsest},
        {"seconds_per_solve_coarse_smoothing", per * s.coarse_smoothing},
        {"seconds_per_solve_outer_gcr", outer},
        {"coarse_operator_seconds", t_coarse},
        {"coarse_operator_GBps", coarse_bytes / t_coarse * 1e-9},
        {"coarse_operator_fraction_of_copy", coarse_bytes / t_coarse * 1e-9 / copy_gbps},
        {"coarse_operator_GFLOPS", Dc.flops_per_site() * double(Dc.lattice().sites) / t_coarse * 1e-9},
        {"coarse_operator_block12_seconds", t_coarse_block},
        {"coarse_operator_block12_GBps", per_second(Dc.bytes_per_site(kBlockRhs) * double(Dc.lattice().sites) * 1e-9, t_coarse_block)},
        {"coarse_operator_block12_GFLOPS",
         per_second(kBlockRhs * Dc.flops_per_site() * double(Dc.lattice().sites) * 1e-9, t_coarse_block)},
        {"coarse_operator_block12_speedup_per_rhs", per_second(kBlockRhs * t_coarse, t_coarse_block)},
        {"coarse_schur_seconds", t_schur},
        {"coarse_schur_block12_seconds", t_schur_block},
        {"coarse_schur_block12_speedup_per_rhs", per_second(kBlockRhs * t_schur, t_schur_block)},
        {"coarse_schur_fraction_of_copy", schur != nullptr ? schur->hop_bytes() / t_schur * 1e-9 / copy_gbps : 0.0},
        {"coarse_schur_block12_fraction_of_copy",
         schur != nullptr ? per_second(schur->hop_bytes() * 1e-9 / copy_gbps, t_schur_block) : 0.0},
        {"coarse_schur_block12_GFLOPS",
         // two passes over half the sites, 8 FLOPs per complex multiply-add
         per_second(kBlockRhs * 8.0 * (kStencilDirections - 1) * Dc.dof() * Dc.dof() * double(Dc.lattice().sites) * 1e-9,
                    t_schur_block)},
        {"fine_operator_seconds", t_fine},
        {"fine_operator_GBps", fine_bytes / t_fine * 1e-9},
        {"fine_operator_fraction_of_copy", fine_bytes / t_fine * 1e-9 / copy_gbps},
        {"GFLOPS", last.gflops}};
    r.update(energy_fields("", energy, last.gflops));
    if (opt.rhs > 1) r.update(multigrid_block_bench(opt, ops, mg, p, t, setup.setup()));
    return r;
  };
  if (single) return run(*ops.full_single);
  return run(*ops.full);
}

}  // namespace

// CG on the even-odd normal equations (as QUDA's test; --system, SolveSystem) from x = 0 to the tolerance, in
// double or in double with single- or half-precision corrections; median time per solve after one
// warm-up solve. Wilson and twisted mass use links with --reconstruct reals in every precision; clover
// 18-real links, double or single.
nlohmann::json solver_bench(const BenchCommandOptions& opt, const Geometry& geom, Location loc, double copy_gbps,
                            EnergyMeter& meter) {
  GaugeField<double> U = benchmark_links(opt, geom, loc);
  FermionParams f;
  f.action = fermion_action_from_name(opt.action, "--action");
  f.wilson.kappa = opt.kappa;
  if (f.action == FermionAction::TwistedMass) f.wilson.mu = opt.mu;
  if (f.action == FermionAction::Clover) f.csw = opt.csw;
  check_fermion_params(f);
  const bool single = opt.precision == "single";
  SolverParams p;
  p.type = solver_type_from_name(opt.solver, "--solver");
  p.tolerance = opt.tolerance;
  p.inner_tolerance = opt.inner_tolerance;
  p.precision = solver_precision_from_name(opt.precision, "--precision");
  p.hermitian = opt.system == "normal";
  if (p.type == SolverType::Multigrid) {
    p.max_iterations = opt.max_iterations;  // a multigrid that needs more has failed: its error then says so
    return multigrid_solver_bench(opt, U, f, p, copy_gbps, meter);
  }
  if (opt.rhs > 1) return multi_rhs_solver_bench(opt, U, f, p, meter);
  const SpinorField<double> b = gaussian_spinor(geom, loc, 9).parity_part(0);
  SpinorField<double> x(geom, loc, Subset::Even);
  SolverResult last;
  RegionEnergy energy{meter, geom.grid};
  double t = 0;
  if (f.action == FermionAction::Clover) {
    const DiracOperators ops = make_dirac_operators(U, f, single ? SloppyPrecision::Single : SloppyPrecision::None);
    const SolveSystem system(*ops.even_odd, b, p);
    t = median_seconds(
        loc, opt.repetitions,
        [&] {
          set_zero(x);
          last = single ? system.solve(x, *ops.even_odd_single) : system.solve(x, *ops.even_odd);
        },
        &energy);
  } else {
    const int lc = opt.reconstruct / 2;
    t = lc == 9   ? wilson_solver_seconds<9>(opt, U, f.wilson, p, b, x, last, energy)
        : lc == 6 ? wilson_solver_seconds<6>(opt, U, f.wilson, p, b, x, last, energy)
                  : wilson_solver_seconds<4>(opt, U, f.wilson, p, b, x, last, energy);
  }
  const std::string precision = opt.precision == "double" ? "double" : "double/" + opt.precision;
  nlohmann::json r = {{"action", opt.action},         {"precision", precision},
                      {"reconstruct", opt.reconstruct}, {"kappa", opt.kappa},
                      {"mu", f.wilson.mu},
                      {"tolerance", opt.tolerance},     {"seconds_per_solve", t},
                      {"inner_tolerance", p.precision == SolverPrecision::Double ? nlohmann::json(nullptr)
                                                                                   : nlohmann::json(p.inner_tolerance)},
                      {"solver", opt.solver},
                      {"system", p.hermitian ? "normal: M_hat^dag M_hat x = M_hat^dag b, tolerance on its residual"
                                 : fmt::format("matpc: M_hat x = b by {}, tolerance on ||b - M_hat x|| / ||b||",
                                               p.type == SolverType::CG ? "CGNR" : solver_type_name(p.type))},
                      {"iterations", last.iterations},  {"true_residual", last.true_residual},
                      {"corrections", last.corrections}, {"GFLOPS", last.gflops},
                      // The solver with its scalars on the device (solvers/solver.hpp).
                      {"stream_resident", p.type != SolverType::GCR && stream_resident_solver(loc, geom.processes())}};
  r.update(energy_fields("", energy, last.gflops));  // energy_joules: per solve
  return r;
}

}  // namespace lqcd::app::bench
