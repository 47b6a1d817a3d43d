#include "hmc/multigrid_force_solver.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/timer.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/clover_operator.hpp"
#include "dirac/wilson_operator.hpp"
#include "fields/spinor_blas.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

namespace {

void finish_device_work(Location loc) {
  if (loc == Location::Device) detail::device_synchronize();
}

// The full-lattice field (e, 0): a source whose solution has e's Schur solution on the even sites.
SpinorField<double> even_source(const SpinorField<double>& e) {
  SpinorField<double> full(e.geometry(), e.location(), Subset::Full);
  set_zero(full);
  full.set_parity_part(0, e);
  return full;
}

void apply_gamma5(SpinorField<double>& psi) { for_each(psi.location(), psi.sites(), Gamma5Kernel{psi.view()}); }

}  // namespace

void check_hmc_multigrid_refresh(const HmcMultigridParams& p) {
  if (p.refresh_iterations < 0 || p.refresh_iterations > 1000)
    fail("refresh_iterations: expected 0 to 1000 GCR steps per test vector, got {}", p.refresh_iterations);
  if (!(p.refresh_growth == 0 || (p.refresh_growth >= 1 && p.refresh_growth <= 100)))
    fail("refresh_growth: expected 0 (refresh at trajectory starts only) or a factor in [1, 100], got {}",
         p.refresh_growth);
}

MultigridForceSolver::MultigridForceSolver(const EvenOddQuark& q, const HmcMultigridParams& p)
    : quark_(q), params_(p) {
  if (q.params.mu != 0)
    fail("the multigrid force solves are for Wilson and clover quarks without twisted mass "
         "(M_hat^dag = gamma_5 M_hat gamma_5 needs mu = 0); got mu = {}",
         q.params.mu);
  if (q.time.open)
    fail("the multigrid force solves are not yet built for open boundaries in time (the coarse operator would "
         "be built from the uncut links); solve these monomials by CG");
  check_multigrid_params(p.multigrid);
  check_hmc_multigrid_refresh(p);
}

void MultigridForceSolver::bring_up_to_date(const GaugeField<double>& U, const SchurOperator<double>& M) {
  const Location loc = U.location();
  finish_device_work(loc);
  const Stopwatch clock;
  const bool first = !mg_;
  if (first) {
    links_.emplace(convert_precision<float>(U));
    if (quark_.csw != 0)
      fine_ = std::make_unique<WilsonCloverOperator<float>>(
          *links_, static_cast<const WilsonCloverEvenOddOperator<double>&>(M).full_operator());
    else
      fine_ = std::make_unique<WilsonOperator<float>>(*links_, quark_.params);
    mg_ = std::make_unique<MultigridPreconditioner<float>>(*fine_, params_.multigrid);
  } else {
    // In place: the smoother, the transfer and the coarse operator's builder refer to these fields.
    links_->copy_from(convert_precision<float>(U));
    if (quark_.csw != 0)
      static_cast<WilsonCloverOperator<float>&>(*fine_).update_from(
          static_cast<const WilsonCloverEvenOddOperator<double>&>(M).full_operator());
  }
  if (first || refresh_due_) {
    if (first)
      mg_->setup();
    else
      mg_->refresh(params_.refresh_iterations);
    refresh_due_ = false;
    fewest_iterations_ = 0;
    ++setups_;
    finish_device_work(loc);
    setup_seconds_ += clock.seconds();
  }
}

SpinorField<double> MultigridForceSolver::solve(const GaugeField<double>& U, const SchurOperator<double>& M,
                                                const SpinorField<double>& b, const SolverParams& p,
                                                Monomial::SolverStats& stats, const std::string& who,
                                                ChronologicalGuess* forecast) {
  const Stopwatch clock;
  SpinorField<double> X = M.make_field();
  try {
    const double setup_before = setup_seconds_;
    bring_up_to_date(U, M);
    stats.setup_seconds += setup_seconds_ - setup_before;
    // The double-precision full M of the outer solves (the clover one shares M_hat's clover field).
    std::optional<WilsonOperator<double>> wilson;
    if (quark_.csw == 0) wilson.emplace(U, quark_.params);
    const LinearOperator<double>& D =
        quark_.csw != 0 ? static_cast<const LinearOperator<double>&>(
                              static_cast<const WilsonCloverEvenOddOperator<double>&>(M).full_operator())
                        : *wilson;
    if (forecast)
      forecast->guess(NormalOperator<double>(M), X, b);
    else
      set_zero(X);
    const bool guessed = norm2(X) > 0;
    // Y = gamma_5 z_e, M z = (gamma_5 b, 0), from z_e = gamma_5 M_hat X_0.
    SpinorField<double> g5b = b.clone(b.location());
    apply_gamma5(g5b);
    const SpinorField<double> rhs1 = even_source(g5b);
    SpinorField<double> z(b.geometry(), b.location(), Subset::Full);
    set_zero(z);
    if (guessed) {
      SpinorField<double> z_e = M.make_field();
      M.apply(z_e, X);
      apply_gamma5(z_e);
      z = M.reconstruct(z_e, rhs1);
    }
    const SolverResult r1 = solve_multigrid(D, *mg_, z, rhs1, p);
    SpinorField<double> Y = z.parity_part(0);
    apply_gamma5(Y);
    // X = x_e, M x = (Y, 0), from x_e = X_0.
    const SpinorField<double> rhs2 = even_source(Y);
    SpinorField<double> x(b.geometry(), b.location(), Subset::Full);
    if (guessed)
      x = M.reconstruct(X, rhs2);
    else
      set_zero(x);
    const SolverResult r2 = solve_multigrid(D, *mg_, x, rhs2, p);
    X = x.parity_part(0);
    // With LQCD_MULTIGRID_TRACE (solvers/multigrid/multigrid_solve.cpp) one line per force solve as well:
    // whether the forecast gave a guess, and each of the two solves' outer iterations and seconds.
    if (std::getenv("LQCD_MULTIGRID_TRACE"))
      fmt::print(stderr, "multigrid force solve ({}): guess {}, M_hat^dag solve {} iterations {:.3f} s, M_hat solve {} iterations {:.3f} s\n",
                 who, guessed ? "forecast" : "zero", r1.iterations, r1.seconds, r2.iterations, r2.seconds);
    const int iterations = r1.iterations + r2.iterations;
    // (at least 1: a solve whose guess already met the tolerance would make every later one look slow)
    if (fewest_iterations_ == 0 || iterations < fewest_iterations_) fewest_iterations_ = std::max(iterations, 1);
    if (params_.refresh_growth > 0 && iterations > params_.refresh_growth * fewest_iterations_) refresh_due_ = true;
    stats.iterations += iterations;
    stats.multigrid_solves += 2;
    stats.multigrid_iterations += iterations;
  } catch (const SolverError& e) {
    throw SolverError(fmt::format("{} (multigrid force solve): {}", who, e.what()), e.result());
  }
  if (forecast) forecast->record(X);
  finish_device_work(b.location());
  stats.seconds += clock.seconds();
  return X;
}

}  // namespace lqcd
