// Conjugate gradients on the normal equations M^dag M x = M^dag b (CGNR): M. R. Hestenes, E. Stiefel,
// "Methods of conjugate gradients for solving linear systems", J. Res. Nat. Bur. Standards 49 (1952)
// 409; in the form of Y. Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed., Alg. 8.4, which
// updates the residual r = b - M x of the original system (and so minimises ||r|| over the Krylov
// space of M^dag M): the stopping criterion sees the residual of M x = b itself.
//
//   z = M^dag r, p = z, gamma = ||z||^2
//   repeat: q = M p, alpha = gamma / ||q||^2, x += alpha p, r -= alpha q,
//           z = M^dag r, gamma' = ||z||^2, p = z + (gamma' / gamma) p
//
// Two operator applications per iteration. The x update waits for beta, so that it and the new
// direction are one pass over memory (axpy_xpay); the residual update carries its norm (axpy_norm2).
// On the device in one process the same iteration runs stream-resident (resident_cg.cpp).
#include "solvers/krylov/krylov_detail.hpp"

namespace lqcd::solver_detail {

template <typename Real>
SolverResult solve_cg(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                      const SolverParams& p) {
  Krylov<Real> k(SolverType::CG, M, b, p);
  SpinorField<Real> r = M.make_field(), z = M.make_field(), dir = M.make_field(), q = M.make_field();
  const std::string hint = "M^dag r = 0 with r != 0: the operator is singular (check kappa and the gauge field)";
  if (stream_resident_solver(M.location(), M.geometry().processes()))
    return drive(k, x, r, hint, [&](double& r2) { return resident_cgnr_cycle(k, M, x, r, z, dir, q, r2); });
  return drive(k, x, r, hint, [&](double& r2) {
    k.apply_dagger(z, r);
    double gamma = k.norm2(z);
    if (!(gamma > 0)) {
      k.breakdown("||M^dag r|| = 0");
      return Stop::Breakdown;
    }
    dir.copy_from(z);
    for (;;) {
      if (k.at_limit()) return Stop::Limit;
      k.apply(q, dir);
      const double qq = k.norm2(q);
      if (!(qq > 0)) {
        k.breakdown("||M p|| = 0");
        return Stop::Breakdown;
      }
      const double alpha = gamma / qq;
      r2 = k.axpy_norm2(-alpha, q, r);
      k.iterate(r2);
      if (k.below(r2)) {
        k.axpy(alpha, dir, x);
        return Stop::Estimate;
      }
      k.apply_dagger(z, r);
      const double gamma_new = k.norm2(z);
      k.axpy_xpay(alpha, dir, x, z, gamma_new / gamma);  // x += alpha p, then p = z + beta p
      gamma = gamma_new;
    }
  });
}

// Plain CG (Hestenes-Stiefel) for a Hermitian positive-definite A:
//   p = r, rho = ||r||^2;  repeat: q = A p, alpha = rho / <p, q>, x += alpha p, r -= alpha q,
//                                  rho' = ||r||^2, p = r + (rho' / rho) p.
// On the device in one process the same iteration runs stream-resident (resident_cg.cpp: no host
// round trip per iteration); below is the host loop, which waits for each reduction.
template <typename Real>
SolverResult solve_cg_hermitian(const LinearOperator<Real>& A, SpinorField<Real>& x, const SpinorField<Real>& b,
                                const SolverParams& p) {
  Krylov<Real> k(SolverType::CG, A, b, p);
  SpinorField<Real> r = A.make_field(), dir = A.make_field(), q = A.make_field();
  const std::string hint = "<p, A p> <= 0: the operator is not positive definite (check kappa and the gauge field)";
  if (stream_resident_solver(A.location(), A.geometry().processes()))
    return drive(k, x, r, hint, [&](double& r2) { return resident_cg_cycle(k, A, x, r, dir, q, r2); });
  return drive(k, x, r, hint, [&](double& r2) {
    dir.copy_from(r);
    double rho = r2;
    for (;;) {
      if (k.at_limit()) return Stop::Limit;
      const double pq = k.apply_and_inner(q, dir);
      if (!(pq > 0)) {
        k.breakdown("<p, A p> <= 0");
        return Stop::Breakdown;
      }
      const double alpha = rho / pq;
      r2 = k.axpy_norm2(-alpha, q, r);
      k.iterate(r2);
      if (k.below(r2)) {
        k.axpy(alpha, dir, x);
        return Stop::Estimate;
      }
      k.axpy_xpay(alpha, dir, x, r, r2 / rho);  // x += alpha p, then p = r + beta p
      rho = r2;
    }
  });
}

template SolverResult solve_cg_hermitian<double>(const LinearOperator<double>&, SpinorField<double>&,
                                                 const SpinorField<double>&, const SolverParams&);
template SolverResult solve_cg_hermitian<float>(const LinearOperator<float>&, SpinorField<float>&,
                                                const SpinorField<float>&, const SolverParams&);
template SolverResult solve_cg_hermitian<Half>(const LinearOperator<Half>&, SpinorField<Half>&,
                                               const SpinorField<Half>&, const SolverParams&);

template SolverResult solve_cg<double>(const LinearOperator<double>&, SpinorField<double>&, const SpinorField<double>&,
                                   const SolverParams&);
template SolverResult solve_cg<float>(const LinearOperator<float>&, SpinorField<float>&, const SpinorField<float>&,
                                  const SolverParams&);

template SolverResult solve_cg<Half>(const LinearOperator<Half>&, SpinorField<Half>&, const SpinorField<Half>&,
                                 const SolverParams&);

}  // namespace lqcd::solver_detail
