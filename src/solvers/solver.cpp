#include "solvers/solver.hpp"

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

std::string SolverResult::summary() const {
  const std::string secs = seconds >= 0.01 ? fmt::format("{:.2f}", seconds) : fmt::format("{:.2g}", seconds);
  return fmt::format("{}: {} {} iteration{}, true residual {:.2g}, {} s, {:.1f} GFLOPS", solver_type_name(type),
                     converged ? "converged in" : "not converged after", iterations, iterations == 1 ? "" : "s",
                     true_residual, secs, gflops);
}

namespace solver_detail {

void Krylov::fail_limit() const {
  throw_error(fmt::format("{}: not converged in {} iterations (solver.max_iterations): true residual {:.2g}, "
                          "tolerance {:.2g}; raise solver.max_iterations, or kappa may be beyond critical",
                          name_, iterations_, true_rel_, p_.tolerance));
}

void Krylov::fail_nan() {
  true_rel_ = std::numeric_limits<double>::quiet_NaN();
  throw_error(fmt::format("{}: NaN/Inf in the residual at iteration {}; check the input fields (source, initial "
                          "guess, gauge links)",
                          name_, iterations_));
}

std::string Krylov::fmt_breakdown(const std::string& hint) const {
  return fmt::format("{}: breakdown at iteration {} ({}) after {} restarts without progress, true residual {:.2g}; {}",
                     name_, iterations_, breakdown_what_, kMaxBreakdownRestarts, true_rel_, hint);
}

std::string Krylov::fmt_stagnation() const {
  return fmt::format("{}: the true residual stagnates at {:.2g} above the tolerance {:.2g} (iteration {}) while "
                     "the iterated one falls below it; raise solver.tolerance (the operator's precision limits the "
                     "residual)",
                     name_, true_rel_, p_.tolerance, iterations_);
}

}  // namespace solver_detail

SolverResult solve(const LinearOperator& M, SpinorField<double>& x, const SpinorField<double>& b,
                   const SolverParams& p) {
  if (!(p.tolerance > 0) || !std::isfinite(p.tolerance))
    fail("solver.tolerance: expected a positive number (got {})", p.tolerance);
  if (p.max_iterations < 0) fail("solver.max_iterations: expected a non-negative integer (got {})", p.max_iterations);
  if (p.type == SolverType::GCR && p.gcr_restart < 1)
    fail("solver.gcr_restart: expected a positive integer (got {})", p.gcr_restart);
  auto fits = [&M](const SpinorField<double>& f) {
    return f.subset() == M.subset() && f.location() == M.location() && f.geometry() == M.geometry();
  };
  if (!fits(x) || !fits(b))
    fail("internal: solve: the solution and source fields must have the operator's shape (M.make_field())");
  switch (p.type) {
    case SolverType::CG: return solver_detail::solve_cg(M, x, b, p);
    case SolverType::BiCGStab: return solver_detail::solve_bicgstab(M, x, b, p);
    case SolverType::GCR: return solver_detail::solve_gcr(M, x, b, p);
  }
  fail("internal: solve: unknown solver type");
}

}  // namespace lqcd
