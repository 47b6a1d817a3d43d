#include "measure/propagator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <span>
#include <vector>

#include "core/error.hpp"
#include "fields/spinor_blas.hpp"
#include "fields/spinor_block_field.hpp"
#include "solvers/krylov/multi_rhs_cg.hpp"

namespace lqcd {

namespace {

double relative_residual(const LinearOperator<double>& M, const SpinorField<double>& x, const SpinorField<double>& b) {
  SpinorField<double> r = b.like();
  M.apply(r, x);
  xpay(b, Complex<double>(-1.0), r);  // r = b - M x
  const double nb = norm2(b);
  return nb > 0 ? std::sqrt(norm2(r) / nb) : std::sqrt(norm2(r));
}

void smear(SpinorField<double>& psi, const PropagatorOptions& o, const GaussianParams& g) {
  if (o.smearing_links && g.iterations > 0) gaussian_smear(psi, *o.smearing_links, g);
}

// In double precision, or with single- or half-precision corrections by A_single or A_half (the
// same operator).
SolverResult solve_in_precision(const LinearOperator<double>& A, const LinearOperator<float>* A_single,
                                const LinearOperator<Half>* A_half, SpinorField<double>& x,
                                const SpinorField<double>& b, const SolverParams& p) {
  if (p.precision == SolverPrecision::Double) return solve(A, x, b, p);
  if (p.precision == SolverPrecision::Half) {
    if (!A_half)
      fail("solver.precision = \"half\": the half-precision operator is even-odd only; set solver.even_odd = true");
    return solve_mixed(A, *A_half, x, b, p);
  }
  if (!A_single) fail("internal: compute_propagator: single precision needs the single-precision operators");
  return solve_mixed(A, *A_single, x, b, p);
}

// The tolerance of the Schur system for one source: its residual is the even part of the full one
// (the odd part vanishes by construction), so ||b_e^ - M^ x_e|| <= tol ||eta|| keeps the full
// residual below tol.
double schur_tolerance(double tolerance, const SpinorField<double>& eta, const SpinorField<double>& eta_even) {
  const double n_full = std::sqrt(norm2(eta)), n_even = std::sqrt(norm2(eta_even));
  return n_even > 0 ? std::min(tolerance, tolerance * n_full / n_even) : tolerance;
}

// The end of every solve: psi checked against the full operator, smeared at the sink, handed on and
// logged.
void finish_column(int j, const LinearOperator<double>& M, SpinorField<double>& psi, const SpinorField<double>& eta,
                   const PropagatorOptions& options, PropagatorSolve& log, const SolutionSink& on_solution,
                   const std::function<void(const PropagatorSolve&)>& on_solve) {
  log.full_residual = relative_residual(M, psi, eta);
  // Rounding in the reconstruction may add a little; more than that is a wrong solution.
  if (!(log.full_residual <= 10 * options.solver.tolerance))
    throw SolverError(fmt::format("propagator (spin {}, colour {}): the full-operator residual {:.3g} exceeds the "
                                  "tolerance {:.3g}; the solution is not trusted",
                                  log.spin, log.colour, log.full_residual, options.solver.tolerance));
  smear(psi, options, options.sink_smearing);
  on_solution(j, psi);
  if (on_solve) on_solve(log);
}

// The block solve of the normal equations in the solver's precision.
SolverResult solve_block(const DiracOperators& ops, SpinorBlockField<double>& x, const SpinorBlockField<double>& b,
                         const SolverParams& p, std::span<const double> tolerances) {
  SolverParams q = p;
  q.precision = SolverPrecision::Double;  // the block operators are in the named precision
  if (p.precision == SolverPrecision::Double) return solve_normal_multi_rhs(*ops.even_odd_block, x, b, q, tolerances);
  if (p.precision == SolverPrecision::Half) {
    if (!ops.even_odd_block_half) fail("internal: compute_propagator: no half-precision block operator");
    return solve_normal_multi_rhs_mixed(*ops.even_odd_block, *ops.even_odd_block_half, x, b, q, tolerances);
  }
  if (!ops.even_odd_block_single) fail("internal: compute_propagator: no single-precision block operator");
  return solve_normal_multi_rhs_mixed(*ops.even_odd_block, *ops.even_odd_block_single, x, b, q, tolerances);
}

// The 12 even-odd systems M^ x_j = b^_j solved together (options.multi_rhs) by the multi-RHS CG on
// the normal equations (solvers/krylov/multi_rhs_cg.hpp), which loads each link once for all 12. That solver
// stops on the normal equations' residual, but the tolerance is on ||b^_j - M^ x_j||, as in the
// one-at-a-time CGNR solves, and the two are not proportional (at most a factor of M^'s condition
// number apart; on the beta = 6.0 8^4 configuration a normal residual of 5e-11 left 1.3e-10). So the
// solution is built by corrections, as solve_mixed builds it, and checked with M^ itself: each round
// solves M^dag M^ e_j = M^dag r_j for the residual r_j = b^_j - M^ x_j, recomputed in double, to the
// reduction that r_j still needs, divided by how much less r_j than the normal residual fell in the
// previous round (learnt per system). A correction's own tolerance stays far above double precision's
// rounding, whatever the condition number. The systems that have met the tolerance get a zero source
// (frozen at once, multi_rhs_cg.hpp).
// The first round asks the normal residual for 1/20 of the reduction r_j needs: with point sources on
// the beta = 6.0 8^4 configuration, 1/2 left r_j 1.3 times above the tolerance (a second round, and a
// restarted Krylov space), 1/20 met it in one round.
constexpr int kMaxBlockRounds = 8;
constexpr double kFirstLag = 10;

void solve_in_block(const DiracOperators& ops, int count, const SourceMaker& make, const PropagatorOptions& options,
                    const SolutionSink& on_solution, const std::function<void(const PropagatorSolve&)>& on_solve) {
  const LinearOperator<double>& M = *ops.full;
  const SchurOperator<double>& schur = *ops.even_odd;
  if (!ops.even_odd_block || ops.even_odd_block->rhs() != 12)
    fail("internal: compute_propagator: multi_rhs needs the operators made with block_rhs = 12");
  const BlockOperator<double>& Mb = *ops.even_odd_block;
  constexpr std::size_t n = 12;
  std::vector<SpinorField<double>> eta, eta_even, x_even, r_even;
  std::vector<double> tolerance(n), residual(n, 1.0), b_norm(n), lag(n, kFirstLag);
  for (std::size_t j = 0; j < n; ++j) {
    if (int(j) < count) {
      eta.push_back(make(int(j)));
      smear(eta.back(), options, options.source_smearing);
    } else {  // padding of a short block: a zero source, met at once
      eta.push_back(M.make_field());
      set_zero(eta.back());
    }
    eta_even.push_back(schur.prepare_source(eta.back()));
    tolerance[j] = schur_tolerance(options.solver.tolerance, eta.back(), eta_even.back());
    b_norm[j] = std::sqrt(norm2(eta_even.back()));
    if (b_norm[j] == 0) residual[j] = 0;
    x_even.push_back(schur.make_field());
    set_zero(x_even.back());
    r_even.push_back(eta_even.back().clone(M.location()));
  }
  SpinorBlockField<double> b = Mb.make_block(), e = Mb.make_block();
  SpinorField<double> t = schur.make_field();
  std::vector<double> normal_tolerance(n, 0.5);
  std::vector<PropagatorSolve> logs(n);
  const auto start = std::chrono::steady_clock::now();
  double flops = 0;
  int corrections = 0;
  const auto met = [&](std::size_t j) { return residual[j] <= tolerance[j]; };
  int rounds = 0;      // block solves made
  int iterations = 0;  // their lock-step iterations
  for (;;) {
    ++rounds;
    for (std::size_t j = 0; j < n; ++j) {
      if (met(j)) {
        set_zero(t);
      } else {
        schur.apply_dagger(t, r_even[j]);  // the normal equations' source
        normal_tolerance[j] = std::clamp(0.5 * tolerance[j] / residual[j] / lag[j], 1e-13, 0.5);
      }
      pack_rhs(b, int(j), t);
    }
    SolverParams p = options.solver;  // the iterations left to the rounds (lock-step iterations)
    p.max_iterations -= iterations;
    if (p.max_iterations < 1)
      throw SolverError(fmt::format("propagator: multi-RHS CG not converged in {} iterations (solver.max_iterations); "
                                    "raise solver.max_iterations, or kappa may be beyond critical",
                                    iterations));
    set_zero(e);
    const SolverResult r = solve_block(ops, e, b, p, normal_tolerance);
    iterations += r.iterations;
    flops += r.flops;
    corrections += r.corrections;
    bool all_met = true;
    for (std::size_t j = 0; j < n; ++j) {
      if (met(j)) continue;
      logs[j].result.iterations += r.rhs_iterations[j];
      unpack_rhs(t, e, int(j));
      axpy(Complex<double>(1.0), t, x_even[j]);
      schur.apply(r_even[j], x_even[j]);
      xpay(eta_even[j], Complex<double>(-1.0), r_even[j]);  // r = b^ - M^ x, in double
      const double before = residual[j];
      residual[j] = std::sqrt(norm2(r_even[j])) / b_norm[j];
      if (met(j)) continue;
      all_met = false;
      if (!(residual[j] <= 0.5 * before) || rounds == kMaxBlockRounds)
        throw SolverError(fmt::format(
            "propagator (spin {}, colour {}): multi-RHS solve {} of the normal equations left the even-odd residual at "
            "{:.3g} (tolerance {:.3g}); set solver.multi_rhs = false",
            j / 3, j % 3, rounds, residual[j], tolerance[j]));
      // How much less the normal residual fell than this one: the next round asks for that much more.
      lag[j] = std::max(lag[j], (residual[j] / before) / std::max(r.rhs_true_residuals[j], 1e-300));
    }
    if (all_met) break;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (std::size_t j = 0; j < std::size_t(count); ++j) {
    PropagatorSolve& log = logs[j];
    log.spin = int(j) / 3;
    log.colour = int(j) % 3;
    log.block_rhs = count;  // the sources solved (a short block is padded with zero sources)
    log.block_rounds = rounds;
    SolverResult& r = log.result;
    r.type = SolverType::CG;
    r.precision = options.solver.precision;
    r.converged = true;
    r.corrections = corrections;
    r.true_residual = residual[j];
    r.seconds = seconds / double(count);  // its share of the rounds' time and of the block solves' FLOPs
    r.set_flops(flops / double(count));
    SpinorField<double> psi = schur.reconstruct(x_even[j], eta[j]);
    finish_column(int(j), M, psi, eta[j], options, log, on_solution, on_solve);
  }
}

// The multigrid on D_mg (ops.full in double, or ops.full_single), set up once for the 12 solves.
template <typename Real>
std::unique_ptr<MultigridPreconditioner<Real>> make_multigrid(const LinearOperator<Real>& D_mg,
                                                              const PropagatorOptions& options) {
  auto mg = std::make_unique<MultigridPreconditioner<Real>>(D_mg, options.multigrid);
  mg->setup();
  if (options.on_multigrid_setup) options.on_multigrid_setup(mg->info());
  return mg;
}

// The count sources solved together by the multigrid (solve_multigrid on a block: one setup, block
// cycles whose coarse solves serve every source at once); each source's log carries its share of the time.
void solve_multigrid_together(const LinearOperator<double>& M, MultigridPreconditioner<float>* mg_single,
                              MultigridPreconditioner<double>* mg_double, int count, const SourceMaker& make,
                              const PropagatorOptions& options, const SolutionSink& on_solution,
                              const std::function<void(const PropagatorSolve&)>& on_solve) {
  std::vector<SpinorField<double>> eta, psi;
  for (int j = 0; j < count; ++j) {
    eta.push_back(make(j));
    smear(eta.back(), options, options.source_smearing);
    psi.push_back(M.make_field());
    set_zero(psi.back());
  }
  const std::vector<SolverResult> results = mg_single ? solve_multigrid(M, *mg_single, psi, eta, options.solver)
                                                      : solve_multigrid(M, *mg_double, psi, eta, options.solver);
  for (int j = 0; j < count; ++j) {
    PropagatorSolve log;
    log.spin = j / 3;
    log.colour = j % 3;
    log.result = results[std::size_t(j)];
    log.result.seconds /= double(count);  // its share of the block's time
    log.block_rhs = count;
    log.block_rounds = 1;
    finish_column(j, M, psi[std::size_t(j)], eta[std::size_t(j)], options, log, on_solution, on_solve);
  }
}

}  // namespace

void solve_sources(const DiracOperators& ops, bool even_odd, int count, const SourceMaker& make,
                   const PropagatorOptions& options, const SolutionSink& on_solution,
                   const std::function<void(const PropagatorSolve&)>& on_solve) {
  const LinearOperator<double>& M = *ops.full;
  const SchurOperator<double>* schur = even_odd ? ops.even_odd.get() : nullptr;
  if (count < 1 || count > 12) fail("internal: solve_sources: 1..12 sources, got {}", count);
  if (options.multi_rhs && options.solver.type != SolverType::Multigrid) {
    if (!schur) fail("solver.multi_rhs = true solves the even-odd system; set solver.even_odd = true");
    solve_in_block(ops, count, make, options, on_solution, on_solve);
    return;
  }
  // The full system's solver: the Krylov solver asked for, or the multigrid (the full system whatever
  // even_odd says), set up once for the sources.
  // One setup serves every solve of this call, and of later calls that pass the same cache.
  MultigridCache local;
  MultigridCache& mg = options.multigrid_cache ? *options.multigrid_cache : local;
  MultigridPreconditioner<float>* mg_single = nullptr;
  MultigridPreconditioner<double>* mg_double = nullptr;
  if (options.solver.type == SolverType::Multigrid) {
    schur = nullptr;
    if (options.solver.precision == SolverPrecision::Half)
      fail("solver.precision = \"half\": the multigrid cycle runs in double or single precision");
    if (options.solver.precision == SolverPrecision::Single) {
      if (!ops.full_single) fail("internal: compute_propagator: a single-precision multigrid needs ops.full_single");
      if (!mg.single) mg.single = make_multigrid(*ops.full_single, options);
      mg_single = mg.single.get();
    } else {
      if (!mg.double_) mg.double_ = make_multigrid(M, options);
      mg_double = mg.double_.get();
    }
  }
  if (options.multi_rhs) {  // the multigrid on all the sources together (issue 46)
    solve_multigrid_together(M, mg_single, mg_double, count, make, options, on_solution, on_solve);
    return;
  }
  const auto solve_full = [&](SpinorField<double>& psi, const SpinorField<double>& eta) {
    if (mg_single) return solve_multigrid(M, *mg_single, psi, eta, options.solver);
    if (mg_double) return solve_multigrid(M, *mg_double, psi, eta, options.solver);
    return solve_in_precision(M, ops.full_single.get(), nullptr, psi, eta, options.solver);
  };
  for (int j = 0; j < count; ++j) {
    SpinorField<double> eta = make(j);
    smear(eta, options, options.source_smearing);
    PropagatorSolve log;
    log.spin = j / 3;
    log.colour = j % 3;
    SpinorField<double> psi = M.make_field();
    if (schur) {
      const SpinorField<double> eta_even = schur->prepare_source(eta);
      SolverParams p = options.solver;
      p.tolerance = schur_tolerance(p.tolerance, eta, eta_even);
      SpinorField<double> x_even = schur->make_field();
      set_zero(x_even);
      log.result = solve_in_precision(*schur, ops.even_odd_single.get(), ops.even_odd_half.get(), x_even, eta_even, p);
      psi = schur->reconstruct(x_even, eta);
    } else {
      set_zero(psi);
      log.result = solve_full(psi, eta);
    }
    finish_column(j, M, psi, eta, options, log, on_solution, on_solve);
  }
}

PointPropagator compute_propagator(const DiracOperators& ops, bool even_odd, const SourceSpec& source,
                                   const PropagatorOptions& options,
                                   const std::function<void(const PropagatorSolve&)>& on_solve) {
  const LinearOperator<double>& M = *ops.full;
  const Geometry& geom = M.geometry();
  check_source_position(source, geom.global);
  PointPropagator S;
  S.geometry = geom;
  S.source = source.position;
  solve_sources(
      ops, even_odd, 12, [&](int j) { return make_source(source, geom, M.location(), j / 3, j % 3); }, options,
      [&](int j, SpinorField<double>& psi) { S.column[std::size_t(j)] = to_local_lexicographic(psi); }, on_solve);
  return S;
}

}  // namespace lqcd
