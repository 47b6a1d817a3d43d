// Mixed-precision CG with reliable updates (solver.hpp: solve_cg_reliable). The iteration is CG on
// A_sloppy with the partial solution x_s and the residual r_s in the sloppy precision; x and the true
// residual r live in double:
//   q = A_s p, alpha = rho / <p, q>, x_s += alpha p, r_s -= alpha q (one pass, with rho' = ||r_s||^2 and
//   <q, r_s>), then either
//     p = r_s + beta p, beta = <r_s', r_s' - r_s> / rho (Polak-Ribiere)          (an ordinary iteration)
//   or, when sqrt(rho') < delta * (largest ||r_s|| since the last update) or rho' meets the tolerance,
//     x += x_s, x_s = 0;  r = b - A x, r_s = r;                                  (the reliable update)
//     p -= (<r_s, p> / ||r_s||^2) r_s;  p = r_s + (||r||^2 / rho) p.
// The update removes the drift between the iterated and the true residual that rounding in the sloppy
// precision builds up; making p orthogonal to the new residual restores the CG relation the replaced
// residual broke (QUDA's invertCG does both, and takes the Polak-Ribiere beta, which the half-precision
// iteration needs: with rho' / rho it crawled on the thermalised 16^4 at kappa = 0.1362, 5000
// iterations to 1.4e-6 against 1368 to 1e-7, docs/validation.md). In 16-bit half precision, where each
// correction of defect correction can reduce the residual by 1e-3 at the most, keeping the Krylov space
// is what keeps the iteration count near double precision's. solve_mixed takes this path for every
// Hermitian CG with reliable_delta > 0 (the HMC's solves, the rational monomial's refinement of each
// shift, lqcd bench solver --system normal): a host loop, two host waits per iteration, where defect
// correction's inner CG is stream-resident.
#include <cmath>

#include <fmt/format.h>

#include "solvers/krylov/krylov_detail.hpp"

namespace lqcd {

template <typename Sloppy>
SolverResult solve_cg_reliable(const LinearOperator<double>& A, const LinearOperator<Sloppy>& A_sloppy,
                               SpinorField<double>& x, const SpinorField<double>& b, const SolverParams& p) {
  using solver_detail::kAxpyFlops;
  using solver_detail::kDotFlops;
  using solver_detail::kNorm2Flops;
  solver_detail::check_params(p);
  if (!(p.reliable_delta > 0 && p.reliable_delta < 1))
    fail("solver.reliable_delta: expected a number between 0 and 1 (got {})", p.reliable_delta);
  if (!solver_detail::fits(A, x) || !solver_detail::fits(A, b) || !solver_detail::fits(A_sloppy, b))
    fail("internal: solve_cg_reliable: the fields and both operators must have one shape");
  const double sites = double(b.sites()) * A.geometry().processes();
  solver_detail::MixedPrecisionSolve m(fmt::format("cg (double/{}, reliable updates)", precision_name<Sloppy>()),
                                       SolverType::CG,
                                       is_fixed_point_v<Sloppy> ? SolverPrecision::Half : SolverPrecision::Single, A, x,
                                       b, sites);
  SolverResult& res = m.res;
  if (m.zero_source()) return m.finish(true);
  const double b2 = m.b2(), target = p.tolerance * p.tolerance * b2;
  SpinorField<double> xd = A.make_field();
  const auto true_residual = [&] { return m.true_residual(fmt::format("{} iterations", res.iterations)); };
  double r2 = true_residual();
  res.residual_history = {res.true_residual};
  if (r2 <= target) return m.finish(true);

  SpinorField<Sloppy> rs = A_sloppy.make_field(), ps = A_sloppy.make_field(), xs = A_sloppy.make_field(),
                      qs = A_sloppy.make_field();
  convert_precision(rs, m.r);
  ps.copy_from(rs);
  set_zero(xs);
  double rho = r2;                       // ||r_s||^2 before the current iteration
  double largest = std::sqrt(r2);        // the largest ||r_s|| since the last update
  double best = r2;                      // the smallest true ||r||^2 so far
  int stalls = 0;                        // updates in a row that did not halve the best true residual
  // <p, q>, the fused update (axpbypz_axpy_norm2_dot: three axpys, a norm and a dot, as BiCGStab counts it),
  // the new direction.
  const double per_iteration =
      A_sloppy.flops_per_site() + kDotFlops + (3 * kAxpyFlops + kNorm2Flops + kDotFlops) + kAxpyFlops;
  for (;;) {
    if (res.iterations >= p.max_iterations)
      m.fail_with(fmt::format("not converged in {} iterations (solver.max_iterations): true residual {:.2g}, tolerance "
                              "{:.2g}; raise solver.max_iterations, or kappa may be beyond critical",
                              res.iterations, res.true_residual, p.tolerance));
    const double pq = A_sloppy.apply_and_inner(qs, ps);
    if (!(pq > 0))
      m.fail_with(fmt::format("<p, A p> = {:.3g} <= 0 after {} iterations: the operator is not positive definite "
                              "(check kappa and the gauge field)", pq, res.iterations));
    const double alpha = rho / pq;
    // x_s += alpha p and r_s -= alpha q in one pass, with ||r_s'||^2 and <q, r_s'>.
    const Norm2AndDot rq = axpbypz_axpy_norm2_dot(Complex<double>(alpha), ps, Complex<double>(0.0), rs, xs,
                                                  Complex<double>(-alpha), qs, qs);
    const double rho_new = rq.norm2;
    // Polak-Ribiere: beta = <r', r' - r> / rho with <r', r' - r> = -alpha Re <q, r'> (r' = r - alpha q),
    // which equals rho' / rho in exact arithmetic and keeps the iteration going where rounding has cost
    // the residuals their orthogonality (as QUDA's CG: with rho' where it comes out negative).
    const double sigma = -alpha * rq.dot.re;
    const double beta = (sigma >= 0 ? sigma : rho_new) / rho;
    ++res.iterations;
    m.flops += per_iteration * sites;
    if (!std::isfinite(rho_new))
      m.fail_with(fmt::format("NaN/Inf in the residual after {} iterations", res.iterations));
    res.residual_history.push_back(std::sqrt(rho_new / b2));
    const double rnorm = std::sqrt(rho_new);
    largest = std::max(largest, rnorm);
    if (!(rnorm < p.reliable_delta * largest || rho_new <= target)) {
      xpay(rs, Complex<double>(beta), ps);  // p = r_s + beta p
      rho = rho_new;
      continue;
    }
    // Reliable update.
    convert_precision(xd, xs);
    axpy(Complex<double>(1.0), xd, x);
    set_zero(xs);
    r2 = true_residual();
    ++res.corrections;
    res.residual_history.back() = res.true_residual;
    if (r2 <= target) return m.finish(true);
    if (r2 < 0.25 * best) {
      stalls = 0;
    } else if (++stalls >= solver_detail::kMaxStalls) {
      m.fail_with(fmt::format("the {}-precision iteration stopped reducing the true residual at {:.2g} (tolerance "
                              "{:.2g}); use a looser tolerance or a higher solver.precision",
                              precision_name<Sloppy>(), res.true_residual, p.tolerance));
    }
    best = std::min(best, r2);
    convert_precision(rs, m.r);
    const double rs2 = norm2(rs);
    const Complex<double> rp = dot(rs, ps);
    axpy(Complex<double>(-rp.re / rs2, -rp.im / rs2), rs, ps);  // p orthogonal to the new residual
    xpay(rs, Complex<double>(r2 / rho), ps);                    // p = r_s + beta p
    m.flops += (kNorm2Flops + kDotFlops + 4 * kAxpyFlops) * sites;
    rho = r2;
    largest = std::sqrt(r2);
  }
}

template SolverResult solve_cg_reliable<float>(const LinearOperator<double>&, const LinearOperator<float>&,
                                               SpinorField<double>&, const SpinorField<double>&, const SolverParams&);
template SolverResult solve_cg_reliable<Half>(const LinearOperator<double>&, const LinearOperator<Half>&,
                                              SpinorField<double>&, const SpinorField<double>&, const SolverParams&);

}  // namespace lqcd
