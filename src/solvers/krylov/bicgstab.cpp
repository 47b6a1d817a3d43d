// BiCGStab: H. A. van der Vorst, "Bi-CGSTAB: a fast and smoothly converging variant of Bi-CG for the
// solution of nonsymmetric linear systems", SIAM J. Sci. Stat. Comput. 13 (1992) 631.
//
//   r0 = r, p = r
//   repeat: v = M p, alpha = <r0, r> / <r0, v>, s = r - alpha v, t = M s, omega = <t, s> / <t, t>,
//           x += alpha p + omega s, r = s - omega t,
//           beta = (<r0, r'> / <r0, r>) (alpha / omega), p = r + beta (p - omega v)
//
// Two operator applications per iteration. The vector operations are fused into five, each one pass
// over memory, four of them reductions (spinor_blas.hpp; 18 field reads and writes per site where the
// unfused loop made 26): the new direction, <r0, v> with ||v||^2, s = r - alpha v with ||s||^2,
// <t, s> with ||t||^2, and x += alpha p + omega s with r = s - omega t, ||r||^2 and the next <r0, r>.
// A breakdown (<r0, r> or <r0, v> ~ 0, or omega ~ 0) restarts the method from the current x with
// r0 = the true residual, at most kMaxBreakdownRestarts times. On the device in one process the same
// iteration runs stream-resident (resident_bicgstab.cpp); below is the host loop, which waits for
// each reduction.
#include "solvers/krylov/krylov_detail.hpp"

namespace lqcd::solver_detail {

template <typename Real>
SolverResult solve_bicgstab(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                            const SolverParams& p) {
  Krylov<Real> k(SolverType::BiCGStab, M, b, p);
  SpinorField<Real> r = M.make_field(), r0 = M.make_field(), dir = M.make_field(), v = M.make_field(),
                    t = M.make_field();
  const std::string hint = "the operator may be far from normal or kappa beyond critical; try solver.type = \"cg\"";
  if (stream_resident_solver(M.location(), M.geometry().processes()))
    return drive(k, x, r, hint, [&](double& r2) { return resident_bicgstab_cycle(k, M, x, r, r0, dir, v, t, r2); });
  return drive(k, x, r, hint, [&](double& r2) {
    r0.copy_from(r);
    const double r02 = r2;
    Complex<double> rho_new = k.dot(r0, r), rho, alpha, omega;
    for (bool first = true;; first = false) {
      if (k.at_limit()) return Stop::Limit;
      if (negligible(rho_new, r02, r2)) {
        k.breakdown("rho = <r0, r> ~ 0");
        return Stop::Breakdown;
      }
      if (first)
        dir.copy_from(r);
      else  // p = r + beta (p - omega v)
        k.axpy_then_xpay(-omega, v, dir, r, bicgstab_beta(rho_new, rho, alpha, omega));
      rho = rho_new;
      k.apply(v, dir);
      const DotAndNorm2 vr0 = k.dot_norm2(v, r0);  // <r0, v> = conj <v, r0>
      const Complex<double> r0v = conj(vr0.dot);
      if (negligible(r0v, r02, vr0.norm2)) {
        k.breakdown("<r0, M p> ~ 0");
        return Stop::Breakdown;
      }
      alpha = divide_rn(rho, r0v);
      // r is now s = r - alpha v, the residual of x + alpha p
      const double s2 = k.axpy_norm2(-alpha, v, r);
      if (k.below(s2)) {
        k.axpy(alpha, dir, x);
        r2 = s2;
        k.iterate(r2);
        return Stop::Estimate;
      }
      k.apply(t, r);
      const DotAndNorm2 ts = k.dot_norm2(t, r);
      if (negligible(ts.dot, ts.norm2, s2)) {
        k.axpy(alpha, dir, x);  // keep the half step: r = s is its residual
        r2 = s2;
        k.iterate(r2);
        k.breakdown("omega = <t, s> / <t, t> ~ 0");
        return Stop::Breakdown;
      }
      omega = bicgstab_omega(ts.dot, ts.norm2);
      // x += alpha p + omega s, then r = s - omega t, with ||r||^2 and <r0, r>
      const Norm2AndDot rr = k.axpbypz_axpy_norm2_dot(alpha, dir, omega, r, x, -omega, t, r0);
      r2 = rr.norm2;
      rho_new = rr.dot;
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
