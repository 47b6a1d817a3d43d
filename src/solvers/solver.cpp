#include "solvers/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "solvers/krylov_detail.hpp"

namespace lqcd {

SolverType solver_type_from_name(const std::string& name, const std::string& key) {
  if (name == "cg") return SolverType::CG;
  if (name == "bicgstab") return SolverType::BiCGStab;
  if (name == "gcr") return SolverType::GCR;
  fail("{}: expected \"cg\", \"bicgstab\" or \"gcr\" (got \"{}\")", key, name);
}

std::string solver_type_name(SolverType type) {
  switch (type) {
    case SolverType::CG: return "cg";
    case SolverType::BiCGStab: return "bicgstab";
    case SolverType::GCR: return "gcr";
  }
  return "unknown";
}

SolverPrecision solver_precision_from_name(const std::string& name, const std::string& key) {
  if (name == "double") return SolverPrecision::Double;
  if (name == "single") return SolverPrecision::Single;
  fail("{}: expected \"double\" or \"single\" (double-precision residuals with single-precision inner solves; got "
       "\"{}\")",
       key, name);
}

std::string solver_precision_name(SolverPrecision precision) {
  return precision == SolverPrecision::Single ? "single" : "double";
}

std::string SolverResult::summary() const {
  const std::string secs = seconds >= 0.01 ? fmt::format("{:.2f}", seconds) : fmt::format("{:.2g}", seconds);
  const std::string mixed =
      precision == SolverPrecision::Single
          ? fmt::format(" (double/single, {} correction{})", corrections, corrections == 1 ? "" : "s")
          : "";
  return fmt::format("{}{}: {} {} iteration{}, true residual {:.2g}, {} s, {:.1f} GFLOPS", solver_type_name(type), mixed,
                     converged ? "converged in" : "not converged after", iterations, iterations == 1 ? "" : "s",
                     true_residual, secs, gflops);
}

namespace solver_detail {

template <typename Real>
void Krylov<Real>::fail_limit() const {
  throw_error(fmt::format("{}: not converged in {} iterations (solver.max_iterations): true residual {:.2g}, "
                          "tolerance {:.2g}; raise solver.max_iterations, or kappa may be beyond critical",
                          name_, iterations_, true_rel_, p_.tolerance));
}

template <typename Real>
void Krylov<Real>::fail_nan() {
  true_rel_ = std::numeric_limits<double>::quiet_NaN();
  throw_error(fmt::format("{}: NaN/Inf in the residual at iteration {}; check the input fields (source, initial "
                          "guess, gauge links)",
                          name_, iterations_));
}

template <typename Real>
std::string Krylov<Real>::fmt_breakdown(const std::string& hint) const {
  return fmt::format("{}: breakdown at iteration {} ({}) after {} restarts without progress, true residual {:.2g}; {}",
                     name_, iterations_, breakdown_what_, kMaxBreakdownRestarts, true_rel_, hint);
}

template <typename Real>
std::string Krylov<Real>::fmt_stagnation() const {
  return fmt::format("{}: the true residual stagnates at {:.2g} above the tolerance {:.2g} (iteration {}) while "
                     "the iterated one falls below it; raise solver.tolerance (the operator's precision limits the "
                     "residual)",
                     name_, true_rel_, p_.tolerance, iterations_);
}

template class Krylov<double>;
template class Krylov<float>;

}  // namespace solver_detail

namespace {

void check_params(const SolverParams& p) {
  if (!(p.tolerance > 0) || !std::isfinite(p.tolerance))
    fail("solver.tolerance: expected a positive number (got {})", p.tolerance);
  if (p.max_iterations < 0) fail("solver.max_iterations: expected a non-negative integer (got {})", p.max_iterations);
  if (p.type == SolverType::GCR && p.gcr_restart < 1)
    fail("solver.gcr_restart: expected a positive integer (got {})", p.gcr_restart);
}

template <typename Real, typename Field>
bool fits(const LinearOperator<Real>& M, const Field& f) {
  return f.subset() == M.subset() && f.location() == M.location() && f.geometry() == M.geometry();
}

}  // namespace

template <typename Real>
SolverResult solve(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                   const SolverParams& p) {
  check_params(p);
  if (p.precision != SolverPrecision::Double)
    fail("internal: solve: single-precision inner solves need the single-precision operator (solve_mixed)");
  if (!fits(M, x) || !fits(M, b))
    fail("internal: solve: the solution and source fields must have the operator's shape (M.make_field())");
  switch (p.type) {
    case SolverType::CG: return solver_detail::solve_cg(M, x, b, p);
    case SolverType::BiCGStab: return solver_detail::solve_bicgstab(M, x, b, p);
    case SolverType::GCR: return solver_detail::solve_gcr(M, x, b, p);
  }
  fail("internal: solve: unknown solver type");
}

template SolverResult solve<double>(const LinearOperator<double>&, SpinorField<double>&, const SpinorField<double>&,
                                    const SolverParams&);
template SolverResult solve<float>(const LinearOperator<float>&, SpinorField<float>&, const SpinorField<float>&,
                                   const SolverParams&);

template <typename Real>
SolverResult solve_hermitian(const LinearOperator<Real>& A, SpinorField<Real>& x, const SpinorField<Real>& b,
                             const SolverParams& p) {
  check_params(p);
  if (!fits(A, x) || !fits(A, b))
    fail("internal: solve_hermitian: the solution and source fields must have the operator's shape");
  return solver_detail::solve_cg_hermitian(A, x, b, p);
}

template SolverResult solve_hermitian<double>(const LinearOperator<double>&, SpinorField<double>&,
                                              const SpinorField<double>&, const SolverParams&);
template SolverResult solve_hermitian<float>(const LinearOperator<float>&, SpinorField<float>&,
                                             const SpinorField<float>&, const SolverParams&);

SolverResult solve_mixed(const LinearOperator<double>& M, const LinearOperator<float>& M_single,
                         SpinorField<double>& x, const SpinorField<double>& b, const SolverParams& p) {
  check_params(p);
  if (!(p.inner_tolerance > 0 && p.inner_tolerance < 1))
    fail("solver.inner_tolerance: expected a number between 0 and 1 (got {})", p.inner_tolerance);
  if (!fits(M, x) || !fits(M, b) || !fits(M_single, b))
    fail("internal: solve_mixed: the fields and both operators must have one shape");
  const auto start = std::chrono::steady_clock::now();
  const double sites = double(b.sites());
  SolverResult res;
  res.type = p.type;
  res.precision = SolverPrecision::Single;
  double flops = 0;
  auto finish = [&](bool converged) {
    res.converged = converged;
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    res.gflops = res.seconds > 0 ? flops / res.seconds * 1e-9 : 0.0;
    return res;
  };
  auto fail_with = [&](const std::string& message) {
    throw SolverError(fmt::format("{} (double/single): {}", solver_type_name(p.type), message), finish(false));
  };

  const double b2 = norm2(b);
  if (!std::isfinite(b2)) fail_with("NaN/Inf in the source");
  if (b2 == 0) {
    set_zero(x);
    res.residual_history = {0.0};
    return finish(true);
  }
  SpinorField<double> r = M.make_field(), e = M.make_field();
  SpinorField<float> r_single = M_single.make_field(), e_single = M_single.make_field();
  // r = b - M x in double: the residual every correction is measured by.
  auto true_residual = [&]() {
    M.apply(r, x);
    xpay(b, Complex<double>(-1.0), r);
    flops += (M.flops_per_site() + solver_detail::kAxpyFlops + solver_detail::kNorm2Flops) * sites;
    const double r2 = norm2(r);
    if (!std::isfinite(r2)) fail_with(fmt::format("NaN/Inf in the residual after {} corrections", res.corrections));
    res.true_residual = std::sqrt(r2 / b2);
    return r2;
  };
  double r2 = true_residual();
  res.residual_history = {res.true_residual};
  SolverParams inner = p;
  inner.precision = SolverPrecision::Double;  // the inner solve works in M_single's own precision
  while (!(res.true_residual <= p.tolerance)) {
    if (res.iterations >= p.max_iterations)
      fail_with(fmt::format("not converged in {} iterations (solver.max_iterations): true residual {:.2g}, tolerance "
                            "{:.2g}; raise solver.max_iterations, or kappa may be beyond critical",
                            res.iterations, res.true_residual, p.tolerance));
    // Aim a little below what is still needed, but never below what single precision can reach.
    inner.tolerance = std::max(p.inner_tolerance, 0.5 * p.tolerance / res.true_residual);
    inner.max_iterations = p.max_iterations - res.iterations;
    convert_precision(r_single, r);
    set_zero(e_single);
    SolverResult c;
    try {
      c = solve(M_single, e_single, r_single, inner);
    } catch (const SolverError& err) {
      // A single-precision solve that stalls, breaks down or runs out of iterations may still have
      // improved x; the double-precision residual below decides.
      c = err.result();
    }
    flops += c.gflops * c.seconds * 1e9;
    convert_precision(e, e_single);
    axpy(Complex<double>(1.0), e, x);
    flops += solver_detail::kAxpyFlops * sites;
    ++res.corrections;
    res.iterations += c.iterations;
    const double scale = res.true_residual;
    const double r2_new = true_residual();
    for (std::size_t k = 1; k + 1 < c.residual_history.size(); ++k)
      res.residual_history.push_back(scale * c.residual_history[k]);
    res.residual_history.push_back(res.true_residual);
    if (!(r2_new <= 0.25 * r2) && !(res.true_residual <= p.tolerance))
      fail_with(fmt::format("a single-precision correction reduced the residual by less than a factor 2, to {:.2g} "
                            "(tolerance {:.2g}); use solver.precision = \"double\"",
                            res.true_residual, p.tolerance));
    r2 = r2_new;
  }
  return finish(true);
}

}  // namespace lqcd
