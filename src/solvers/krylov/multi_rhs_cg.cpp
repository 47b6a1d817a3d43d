// The lock-step CG of multi_rhs_cg.hpp. Per rhs j it is solve_cg_hermitian (cg.cpp) on A = M^dag M:
//   p = r, rho = ||r||^2;  repeat: t = M p (with ||t||^2), alpha = rho / ||t||^2, r -= alpha M^dag t
//                                  (with ||r||^2), x += alpha p and p = r + (||r||^2 / rho) p in one pass.
// The operator may fuse the norms and the residual update into its last pass (BlockOperator::
// apply_norm2, apply_dagger_axpy_norm2): then A p is never stored.
// A rhs whose iterated residual meets its tolerance gets alpha = beta = 0 from then on (frozen: x, r
// unchanged, p = r); when no rhs is left iterating the true residuals are recomputed, and the rhs that
// missed restart from p = r (reliable update) while the others stay frozen.
// Where stream_resident_solver says so (on a GPU by default) the iterations of a cycle run
// stream-resident (resident_cycle): the same arithmetic with the per-rhs scalars on the device and no
// host round trip per iteration, the same iterates bit for bit.
#include "solvers/krylov/multi_rhs_cg.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fields/spinor_block_blas.hpp"
#include "solvers/krylov/krylov_detail.hpp"
#include "solvers/krylov/resident_block_cg_kernels.hpp"
#include "solvers/krylov/resident_loop.hpp"
#include "solvers/solver.hpp"

namespace lqcd {

namespace {

using solver_detail::kAxpyFlops;
using solver_detail::kMaxStalls;
using solver_detail::kNorm2Flops;

template <typename Real>
void check_block(const BlockOperator<Real>& M, const SpinorBlockField<Real>& f, const char* what) {
  if (f.subset() != M.subset() || f.location() != M.location() || !(f.geometry() == M.geometry()) ||
      f.rhs() != M.rhs())
    fail("internal: multi-RHS solve: {} does not have the operator's shape (M.make_block())", what);
}

void check_params(const SolverParams& p) {
  if (p.type != SolverType::CG) fail("solver.type: the multi-RHS solver is CG (got \"{}\")", solver_type_name(p.type));
  if (!(p.tolerance > 0 && p.tolerance < 1))
    fail("solver.tolerance: expected a number between 0 and 1 (got {})", p.tolerance);
  if (p.max_iterations < 1) fail("solver.max_iterations: expected a positive number (got {})", p.max_iterations);
}

// The tolerance of each of the n rhs: `given` (one per rhs, each in (0, 1)), or p.tolerance for all.
std::vector<double> rhs_tolerances(const SolverParams& p, std::span<const double> given, int n) {
  if (given.empty()) return std::vector<double>(std::size_t(n), p.tolerance);
  if (given.size() != std::size_t(n)) fail("internal: {} tolerances for {} right-hand sides", given.size(), n);
  for (const double t : given)
    if (!(t > 0 && t < 1)) fail("internal: multi-RHS solve: a tolerance of {} (expected one in (0, 1))", t);
  return {given.begin(), given.end()};
}

// A = M^dag M on a block.
template <typename Real>
class NormalBlock {
 public:
  explicit NormalBlock(const BlockOperator<Real>& M) : M_(M), tmp_(M.make_block()) {}
  // r_j <- r_j - alpha_j A p_j, returning ||r_j||^2 (alpha_j = rho_j / ||M p_j||^2 from `step`, which
  // gets ||M p_j||^2 and returns the alphas; with fusing operators: two passes of the operator, no others).
  template <typename Step>
  std::vector<double> residual_step(SpinorBlockField<Real>& r, const SpinorBlockField<Real>& p, Step&& step) {
    const std::vector<double> alpha = step(M_.apply_norm2(tmp_, p));
    std::vector<double> minus(alpha.size());
    for (std::size_t j = 0; j < alpha.size(); ++j) minus[j] = -alpha[j];
    return M_.apply_dagger_axpy_norm2(minus, tmp_, r);
  }
  // The same on the device's scalars (resident_block_cg_kernels.hpp), queued: iteration k's alpha_j
  // and, after the residual update, its bookkeeping and report.
  void queue_residual_step(SpinorBlockField<Real>& r, const SpinorBlockField<Real>& p, solver_detail::BlockCgScalars* s,
                           solver_detail::ResidentProgress* progress, int k) {
    M_.apply_norm2_into(tmp_, p, s->sums);
    for_each(M_.location(), 1, solver_detail::BlockCgStepKernel{s});
    M_.apply_dagger_axpy_norm2_into(s->minus_alpha, tmp_, r, s->sums);
    for_each(M_.location(), 1, solver_detail::BlockCgResidualFinish{s, progress, k});
  }
  // r = b - A x, returning ||r_j||^2.
  std::vector<double> residual(SpinorBlockField<Real>& r, const SpinorBlockField<Real>& x,
                               const SpinorBlockField<Real>& b) {
    M_.apply(tmp_, x);
    M_.apply_dagger(r, tmp_);
    subtract_from(b, r);
    return norm2_each(r);
  }

 private:
  const BlockOperator<Real>& M_;
  SpinorBlockField<Real> tmp_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double largest(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

// x_j <- 0 where b_j = 0 (x_j - x_j: callers pass finite guesses).
template <typename Real>
void zero_where_source_is_zero(SpinorBlockField<Real>& x, const std::vector<double>& b2) {
  std::vector<double> a(b2.size(), 0.0);
  bool any = false;
  for (std::size_t j = 0; j < b2.size(); ++j)
    if (b2[j] == 0) a[j] = -1.0, any = true;
  if (any) axpy_each<Real>(a, x, x);
}

// What both solvers keep about a block solve: the result with its per-rhs counts and true residuals,
// the clock, the FLOPs, and the SolverError that carries the result so far.
class BlockSolveRecord {
 public:
  BlockSolveRecord(std::string label, int n) : label_(std::move(label)), start_(std::chrono::steady_clock::now()) {
    res_.type = SolverType::CG;
    res_.rhs_iterations.assign(std::size_t(n), 0);
    res_.rhs_true_residuals.assign(std::size_t(n), 0.0);
  }
  SolverResult& result() { return res_; }
  void add_flops(double f) { flops_ += f; }
  SolverResult finish(bool converged) {
    res_.converged = converged;
    res_.true_residual = largest(res_.rhs_true_residuals);
    res_.seconds = seconds_since(start_);
    res_.set_flops(flops_);
    return res_;
  }
  [[noreturn]] void fail(const std::string& message) { throw SolverError(label_ + ": " + message, finish(false)); }
  // Sources with NaN/Inf norms are errors.
  void check_sources(const std::vector<double>& b2) {
    for (std::size_t j = 0; j < b2.size(); ++j)
      if (!std::isfinite(b2[j])) fail(fmt::format("NaN/Inf in source {}", j));
  }
  // The relative true residuals from ||b_j - A x_j||^2 and ||b_j||^2; NaN/Inf is an error.
  void record_true_residuals(const std::vector<double>& r2, const std::vector<double>& b2) {
    for (std::size_t j = 0; j < r2.size(); ++j) {
      if (!std::isfinite(r2[j])) fail(fmt::format("NaN/Inf in the residual of right-hand side {}", j));
      res_.rhs_true_residuals[j] = b2[j] > 0 ? std::sqrt(r2[j] / b2[j]) : 0.0;
    }
  }

 private:
  std::string label_;
  std::chrono::steady_clock::time_point start_;
  SolverResult res_;
  double flops_ = 0;
};

// One cycle of the lock-step CG, stream-resident (resident_block_cg_kernels.hpp): from p = r the open
// rhs iterate until none does or the iteration limit is reached, as lockstep_cg's host loop, with the
// scalars in memory of the fields' location. The host queues iteration k + 1 once iteration k has
// reported, which it does before its last kernel (the x and p updates, a pass over three blocks): so
// the stream does not wait for the host, and unlike the one-field cycles (resident_loop.hpp) no
// iteration is queued past the cycle's end, where a block iteration would cost more than the host's
// reaction saves over a whole cycle.
template <typename Real>
void resident_cycle(NormalBlock<Real>& A, SpinorBlockField<Real>& x, SpinorBlockField<Real>& r,
                    SpinorBlockField<Real>& p, const std::vector<double>& r2, const std::vector<double>& target,
                    const std::vector<double>& b2, const std::vector<char>& active, int max_iterations,
                    double flops_per_rhs_iteration, BlockSolveRecord& record) {
  using namespace solver_detail;
  const Location loc = r.location();
  const int n = r.rhs();
  SolverResult& res = record.result();
  BlockCgStart start{};
  start.n = n;
  for (int j = 0; j < n; ++j) {
    const std::size_t u = std::size_t(j);
    start.rho[j] = r2[u];
    start.target[j] = target[u];
    start.b2[j] = b2[u];
    start.active[j] = active[u] ? 1 : 0;
  }
  BlockCgScalars* const s = resident_memory<BlockCgScalars>(loc);
  ResidentProgress* const progress = resident_progress_page();
  for_each(loc, 1, BlockCgStartKernel{s, start});

  const int budget = max_iterations - res.iterations;
  int status = kResidentRunning;
  for (int c = 0; c < budget; ++c) {
    A.queue_residual_step(r, p, s, progress, c);
    axpy_xpay_each<Real>(s->alpha, p, x, r, s->beta);  // x += alpha p, then p = r + beta p
    wait_for_count(progress->completed, c + 1, "the stream-resident multi-RHS CG");
    const int slot = c % kResidentProgressRing;
    status = progress->status[slot];
    ++res.iterations;
    if (status == kResidentNotFinite) break;
    res.residual_history.push_back(progress->r2[slot]);
    if (status != kResidentRunning) break;
  }
  // After every queued iteration: only what the host reads (the slots past n were never written, and
  // compute-sanitizer's initcheck rightly reports copying them).
  BlockCgScalars cycle;
  detail::copy_bytes(cycle.iterations, Location::Host, s->iterations, loc, std::size_t(n) * sizeof(int));
  detail::copy_bytes(&cycle.not_finite_rhs, Location::Host, &s->not_finite_rhs, loc, sizeof(int));
  for (int j = 0; j < n; ++j) {
    res.rhs_iterations[std::size_t(j)] += cycle.iterations[j];
    record.add_flops(cycle.iterations[j] * flops_per_rhs_iteration);
  }
  if (status == kResidentNotFinite)
    record.fail(fmt::format("NaN/Inf in the iterated residual of right-hand side {}", cycle.not_finite_rhs));
}

// The lock-step CG to the relative tolerances tol[j] on ||b_j - A x_j|| / ||b_j||.
template <typename Real>
SolverResult lockstep_cg(const BlockOperator<Real>& M, SpinorBlockField<Real>& x, const SpinorBlockField<Real>& b,
                         const std::vector<double>& tol, int max_iterations) {
  const int n = M.rhs();
  const std::size_t un = std::size_t(n);
  const double sites = double(M.geometry().half_volume()) * M.geometry().processes();
  const double a_flops = 2 * M.flops_per_site();
  BlockSolveRecord record(fmt::format("multi-RHS cg ({}, {} right-hand sides)", precision_name<Real>(), n), n);
  SolverResult& res = record.result();

  const std::vector<double> b2 = norm2_each(b);
  record.check_sources(b2);
  zero_where_source_is_zero(x, b2);
  std::vector<double> target(un);  // tol_j^2 ||b_j||^2
  for (std::size_t j = 0; j < un; ++j) target[j] = tol[j] * tol[j] * b2[j];

  NormalBlock<Real> A(M);
  const bool resident = stream_resident_solver(M.location(), M.geometry().processes());
  // One rhs's iteration: A p (two operator passes with their fused norm and axpy), x and p updated.
  const double rhs_iteration_flops = (a_flops + kNorm2Flops + kAxpyFlops + kNorm2Flops + 2 * kAxpyFlops) * sites;
  SpinorBlockField<Real> r = M.make_block(), p = M.make_block();
  set_zero(p);  // finite, so that p = r + 0 p starts every cycle
  auto true_residual = [&] {
    std::vector<double> r2 = A.residual(r, x, b);
    record.add_flops(double(n) * (a_flops + kAxpyFlops + kNorm2Flops) * sites);
    record.record_true_residuals(r2, b2);
    return r2;
  };
  std::vector<double> r2 = true_residual();
  res.residual_history.push_back(largest(res.rhs_true_residuals));
  std::vector<char> done(un);
  for (std::size_t j = 0; j < un; ++j) done[j] = b2[j] == 0 || r2[j] <= target[j];
  std::vector<int> stalls(un, 0);
  std::vector<double> last_failed(un, HUGE_VAL);
  const std::vector<double> zeros(un, 0.0);

  for (;;) {
    std::vector<std::size_t> open;
    for (std::size_t j = 0; j < un; ++j)
      if (!done[j]) open.push_back(j);
    if (open.empty()) return record.finish(true);
    if (res.iterations >= max_iterations)
      record.fail(fmt::format("right-hand side {} not converged in {} iterations (solver.max_iterations): true "
                            "residual {:.2g}, tolerance {:.2g}; raise solver.max_iterations, or kappa may be beyond "
                            "critical",
                            open.front(), res.iterations, res.rhs_true_residuals[open.front()], tol[open.front()]));
    // A cycle: p = r and rho = ||r||^2 for every rhs still open (the frozen ones keep x and r).
    axpy_xpay_each<Real>(zeros, p, x, r, zeros);
    record.add_flops(double(n) * 2 * kAxpyFlops * sites);
    std::vector<double> rho = r2, alpha(un), beta(un);
    std::vector<char> active(un);
    int iterating = 0;
    for (std::size_t j : open) active[j] = 1, ++iterating;
    if (resident)
      resident_cycle(A, x, r, p, r2, target, b2, active, max_iterations, rhs_iteration_flops, record);
    while (!resident && iterating > 0 && res.iterations < max_iterations) {
      const std::vector<double> r2_new = A.residual_step(r, p, [&](const std::vector<double>& pap) {
        for (std::size_t j = 0; j < un; ++j) {
          alpha[j] = 0;
          if (!active[j]) continue;
          if (pap[j] > 0 && std::isfinite(pap[j])) {
            alpha[j] = rho[j] / pap[j];
          } else {  // breakdown: <p, A p> <= 0; this rhs waits for the true-residual check
            active[j] = 0;
            --iterating;
          }
        }
        return alpha;
      });
      ++res.iterations;
      record.add_flops(double(iterating) * rhs_iteration_flops);
      double worst = 0;
      for (std::size_t j = 0; j < un; ++j) {
        beta[j] = 0;
        if (!active[j]) continue;
        if (!std::isfinite(r2_new[j])) record.fail(fmt::format("NaN/Inf in the iterated residual of right-hand side {}", j));
        ++res.rhs_iterations[j];
        worst = std::max(worst, std::sqrt(r2_new[j] / b2[j]));
        r2[j] = r2_new[j];
        if (r2_new[j] <= target[j]) {  // its estimate has converged: frozen after this x update
          active[j] = 0;
          --iterating;
        } else {
          beta[j] = r2_new[j] / rho[j];
          rho[j] = r2_new[j];
        }
      }
      res.residual_history.push_back(worst);
      axpy_xpay_each<Real>(alpha, p, x, r, beta);  // x += alpha p, then p = r + beta p
    }
    r2 = true_residual();
    for (std::size_t j : open) {
      if (r2[j] <= target[j]) {
        done[j] = 1;
        continue;
      }
      // Missed after its estimate met the tolerance or after a breakdown: restart, but give up once
      // kMaxStalls restarts in a row gained less than a factor 2 (the floating-point limit).
      stalls[j] = r2[j] > 0.25 * last_failed[j] ? stalls[j] + 1 : 0;
      last_failed[j] = r2[j];
      if (stalls[j] >= kMaxStalls)
        record.fail(fmt::format("right-hand side {} stagnates at true residual {:.2g} (tolerance {:.2g}): the "
                              "tolerance is below what {} precision reaches on this system",
                              j, res.rhs_true_residuals[j], tol[j], precision_name<Real>()));
    }
  }
}

}  // namespace

template <typename Real>
SolverResult solve_normal_multi_rhs(const BlockOperator<Real>& M, SpinorBlockField<Real>& x,
                                    const SpinorBlockField<Real>& b, const SolverParams& p,
                                    std::span<const double> tolerances) {
  check_params(p);
  if (p.precision != SolverPrecision::Double)
    fail("internal: solve_normal_multi_rhs works in the operator's precision (solve_normal_multi_rhs_mixed)");
  check_block(M, x, "the solution");
  check_block(M, b, "the source");
  return lockstep_cg(M, x, b, rhs_tolerances(p, tolerances, M.rhs()), p.max_iterations);
}

template <typename Sloppy>
SolverResult solve_normal_multi_rhs_mixed(const BlockOperator<double>& M, const BlockOperator<Sloppy>& M_sloppy,
                                          SpinorBlockField<double>& x, const SpinorBlockField<double>& b,
                                          const SolverParams& p, std::span<const double> tolerances) {
  constexpr bool half = is_fixed_point_v<Sloppy>;
  check_params(p);
  if (!(p.inner_tolerance > 0 && p.inner_tolerance < 1))
    fail("solver.inner_tolerance: expected a number between 0 and 1 (got {})", p.inner_tolerance);
  check_block(M, x, "the solution");
  check_block(M, b, "the source");
  if (M_sloppy.rhs() != M.rhs() || !(M_sloppy.geometry() == M.geometry()) || M_sloppy.location() != M.location())
    fail("internal: multi-RHS solve: the two operators must act on blocks of one shape");
  const int n = M.rhs();
  const std::size_t un = std::size_t(n);
  const std::vector<double> tol = rhs_tolerances(p, tolerances, n);
  const double sites = double(M.geometry().half_volume()) * M.geometry().processes();
  BlockSolveRecord record(fmt::format("multi-RHS cg (double/{}, {} right-hand sides)", precision_name<Sloppy>(), n), n);
  SolverResult& res = record.result();
  res.precision = half ? SolverPrecision::Half : SolverPrecision::Single;

  const std::vector<double> b2 = norm2_each(b);
  record.check_sources(b2);
  zero_where_source_is_zero(x, b2);
  NormalBlock<double> A(M);
  SpinorBlockField<double> r = M.make_block(), e = M.make_block();
  SpinorBlockField<Sloppy> r_sloppy = M_sloppy.make_block(), e_sloppy = M_sloppy.make_block();
  auto true_residual = [&] {
    std::vector<double> r2 = A.residual(r, x, b);
    record.add_flops(double(n) * (2 * M.flops_per_site() + kAxpyFlops + kNorm2Flops) * sites);
    record.record_true_residuals(r2, b2);
    return r2;
  };
  std::vector<double> r2 = true_residual();
  res.residual_history = {largest(res.rhs_true_residuals)};
  auto met = [&](std::size_t j) { return b2[j] == 0 || res.rhs_true_residuals[j] <= tol[j]; };
  for (;;) {
    std::vector<double> inner(un, 0.5), zero_met(un, 0.0);
    bool open = false;
    for (std::size_t j = 0; j < un; ++j) {
      if (met(j)) {
        zero_met[j] = -1.0;  // its correction is zero: r_j <- 0
      } else {
        open = true;
        // Aim a little below what is still needed, never below what the inner precision reaches.
        inner[j] = std::max({p.inner_tolerance, half ? kHalfInnerTolerance : 0.0,
                             0.5 * tol[j] / res.rhs_true_residuals[j]});
      }
    }
    if (!open) return record.finish(true);
    if (res.iterations >= p.max_iterations) {
      std::size_t worst = 0;  // the rhs furthest from its tolerance
      for (std::size_t j = 0; j < un; ++j)
        if (res.rhs_true_residuals[j] / tol[j] > res.rhs_true_residuals[worst] / tol[worst]) worst = j;
      record.fail(fmt::format("right-hand side {} not converged in {} iterations (solver.max_iterations): true "
                              "residual {:.2g}, tolerance {:.2g}; raise solver.max_iterations, or kappa may be beyond "
                              "critical",
                              worst, res.iterations, res.rhs_true_residuals[worst], tol[worst]));
    }
    axpy_each<double>(zero_met, r, r);
    convert_precision(r_sloppy, r);
    set_zero(e_sloppy);
    SolverResult c;
    try {
      c = lockstep_cg(M_sloppy, e_sloppy, r_sloppy, inner, p.max_iterations - res.iterations);
    } catch (const SolverError& err) {
      c = err.result();  // the double-precision residual below decides whether it helped
    }
    record.add_flops(c.flops);
    convert_precision(e, e_sloppy);
    axpy_each<double>(std::vector<double>(un, 1.0), e, x);
    record.add_flops(double(n) * kAxpyFlops * sites);
    ++res.corrections;
    res.iterations += c.iterations;
    for (std::size_t j = 0; j < un && j < c.rhs_iterations.size(); ++j) res.rhs_iterations[j] += c.rhs_iterations[j];
    const std::vector<double> before = res.rhs_true_residuals;
    const std::vector<double> r2_new = true_residual();
    for (std::size_t j = 1; j < c.residual_history.size(); ++j)
      res.residual_history.push_back(largest(before) * c.residual_history[j]);
    for (std::size_t j = 0; j < un; ++j)
      if (!(before[j] <= tol[j]) && b2[j] > 0 && !(r2_new[j] <= 0.25 * r2[j]) && !met(j))
        record.fail(fmt::format("a {}-precision correction reduced the residual of right-hand side {} by less than a "
                              "factor 2, to {:.2g} (tolerance {:.2g}); use solver.precision = \"double\"",
                              precision_name<Sloppy>(), j, res.rhs_true_residuals[j], tol[j]));
    r2 = r2_new;
  }
}

template SolverResult solve_normal_multi_rhs<double>(const BlockOperator<double>&, SpinorBlockField<double>&,
                                                     const SpinorBlockField<double>&, const SolverParams&,
                                                     std::span<const double>);
template SolverResult solve_normal_multi_rhs<float>(const BlockOperator<float>&, SpinorBlockField<float>&,
                                                    const SpinorBlockField<float>&, const SolverParams&,
                                                    std::span<const double>);
template SolverResult solve_normal_multi_rhs_mixed<float>(const BlockOperator<double>&, const BlockOperator<float>&,
                                                          SpinorBlockField<double>&, const SpinorBlockField<double>&,
                                                          const SolverParams&, std::span<const double>);
template SolverResult solve_normal_multi_rhs_mixed<Half>(const BlockOperator<double>&, const BlockOperator<Half>&,
                                                         SpinorBlockField<double>&, const SpinorBlockField<double>&,
                                                         const SolverParams&, std::span<const double>);

}  // namespace lqcd
