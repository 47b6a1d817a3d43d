// BiCGStab: H. A. van der Vorst, "Bi-CGSTAB: a fast and smoothly converging variant of Bi-CG for the
// solution of nonsymmetric linear systems", SIAM J. Sci. Stat. Comput. 13 (1992) 631.
//
//   r0 = r, p = r
//   repeat: v = M p, alpha = <r0, r> / <r0, v>, s = r - alpha v, t = M s, omega = <t, s> / <t, t>,
//           x += alpha p + omega s, r = s - omega t,
//           beta = (<r0, r'> / <r0, r>) (alpha / omega), p = r + beta (p - omega v)
//
// Two operator applications per iteration. A breakdown (<r0, r> or <r0, v> ~ 0, or omega ~ 0) restarts
// the method from the current x with r0 = the true residual, at most kMaxBreakdownRestarts times.
#include <cmath>

#include "solvers/krylov_detail.hpp"

namespace lqcd::solver_detail {

namespace {
// |<a, b>| <= eps ||a|| ||b||, or not finite.
bool negligible(Complex<double> ab, double a2, double b2) {
  const double m = abs(ab);
  return !std::isfinite(m) || m <= kBreakdownEps * std::sqrt(a2 * b2);
}
}  // namespace

template <typename Real>
SolverResult solve_bicgstab(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                      const SolverParams& p) {
  Krylov<Real> k(SolverType::BiCGStab, M, b, p);
  SpinorField<Real> r = M.make_field(), r0 = M.make_field(), dir = M.make_field(), v = M.make_field(),
                      t = M.make_field();
  const std::string hint = "the operator may be far from normal or kappa beyond critical; try solver.type = \"cg\"";
  return drive(k, x, r, hint, [&](double& r2) {
    r0.copy_from(r);
    const double r02 = r2;
    Complex<double> rho(1.0), alpha(1.0), omega(1.0);
    bool first = true;
    for (;;) {
      if (k.at_limit()) return Stop::Limit;
      const Complex<double> rho_new = k.dot(r0, r);
      if (negligible(rho_new, r02, r2)) {
        k.breakdown("rho = <r0, r> ~ 0");
        return Stop::Breakdown;
      }
      if (first) {
        dir.copy_from(r);
        first = false;
      } else {
        const Complex<double> beta = divide(rho_new, rho) * divide(alpha, omega);
        k.axpy(-omega, v, dir);
        k.xpay(r, beta, dir);  // p = r + beta (p - omega v)
      }
      rho = rho_new;
      k.apply(v, dir);
      const Complex<double> r0v = k.dot(r0, v);
      if (negligible(r0v, r02, k.norm2(v))) {
        k.breakdown("<r0, M p> ~ 0");
        return Stop::Breakdown;
      }
      alpha = divide(rho, r0v);
      // r is now s = r - alpha v, the residual of x + alpha p
      const double s2 = k.axpy_norm2(-alpha, v, r);
      if (k.below(s2)) {
        k.axpy(alpha, dir, x);
        r2 = s2;
        k.iterate(r2);
        return Stop::Estimate;
      }
      k.apply(t, r);
      const Complex<double> ts = k.dot(t, r);
      const double tt = k.norm2(t);
      if (negligible(ts, tt, s2)) {
        k.axpy(alpha, dir, x);  // keep the half step: r = s is its residual
        r2 = s2;
        k.iterate(r2);
        k.breakdown("omega = <t, s> / <t, t> ~ 0");
        return Stop::Breakdown;
      }
      omega = ts * (1.0 / tt);
      k.axpy(alpha, dir, x);
      k.axpy(omega, r, x);
      r2 = k.axpy_norm2(-omega, t, r);
      k.iterate(r2);
      if (k.below(r2)) return Stop::Estimate;
    }
  });
}

template SolverResult solve_bicgstab<double>(const LinearOperator<double>&, SpinorField<double>&, const SpinorField<double>&,
                                   const SolverParams&);
template SolverResult solve_bicgstab<float>(const LinearOperator<float>&, SpinorField<float>&, const SpinorField<float>&,
                                  const SolverParams&);

template SolverResult solve_bicgstab<Half>(const LinearOperator<Half>&, SpinorField<Half>&, const SpinorField<Half>&,
                                 const SolverParams&);

}  // namespace lqcd::solver_detail
