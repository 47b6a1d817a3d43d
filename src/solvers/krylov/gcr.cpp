// GCR(m), the generalized conjugate residual method restarted every m iterations: S. C. Eisenstat,
// H. C. Elman, M. H. Schultz, "Variational iterative methods for nonsymmetric systems of linear
// equations", SIAM J. Numer. Anal. 20 (1983) 345. It minimises ||b - M x|| over the search directions
// of the current cycle, solving M x = b directly (no normal equations).
//
//   for k = 0 .. m-1:  p_k = r, q_k = M p_k,
//                      for j < k: beta = <q_j, q_k>, q_k -= beta q_j, p_k -= beta p_j  (modified Gram-Schmidt)
//                      q_k /= ||q_k||, p_k /= ||q_k||,  alpha = <q_k, r>, x += alpha p_k, r -= alpha q_k
//
// One operator application per iteration; 2m work fields. A new direction that is (numerically) in the
// span of the previous ones is a breakdown: the method restarts from the current x.
#include <algorithm>
#include <cmath>
#include <vector>

#include "solvers/krylov/krylov_detail.hpp"

namespace lqcd::solver_detail {

template <typename Real>
SolverResult solve_gcr(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                      const SolverParams& p) {
  Krylov<Real> k(SolverType::GCR, M, b, p);
  const int m = std::max(1, std::min(p.gcr_restart, p.max_iterations));
  SpinorField<Real> r = M.make_field();
  std::vector<SpinorField<Real>> dirs, qs;
  dirs.reserve(std::size_t(m));
  qs.reserve(std::size_t(m));
  for (int i = 0; i < m; ++i) {
    dirs.push_back(M.make_field());
    qs.push_back(M.make_field());
  }
  const std::string hint = "the operator may be indefinite or kappa beyond critical; try solver.type = \"cg\"";
  return drive(k, x, r, hint, [&](double& r2) {
    for (int i = 0; i < m; ++i) {
      if (k.at_limit()) return Stop::Limit;
      SpinorField<Real>& pi = dirs[std::size_t(i)];
      SpinorField<Real>& qi = qs[std::size_t(i)];
      pi.copy_from(r);
      k.apply(qi, pi);
      const double q0 = k.norm2(qi);
      for (int j = 0; j < i; ++j) {
        const Complex<double> beta = k.dot(qs[std::size_t(j)], qi);
        k.axpy(-beta, qs[std::size_t(j)], qi);
        k.axpy(-beta, dirs[std::size_t(j)], pi);
      }
      const double qn2 = k.norm2(qi);
      if (!(qn2 > kBreakdownEps * kBreakdownEps * q0)) {
        k.breakdown("new search direction dependent on the previous ones");
        return Stop::Breakdown;
      }
      const double inv = 1.0 / std::sqrt(qn2);
      k.scale(inv, qi);
      k.scale(inv, pi);
      const Complex<double> alpha = k.dot(qi, r);
      k.axpy(alpha, pi, x);
      r2 = k.axpy_norm2(-alpha, qi, r);
      k.iterate(r2);
      if (k.below(r2)) return Stop::Estimate;
    }
    return Stop::Restart;
  });
}

template SolverResult solve_gcr<double>(const LinearOperator<double>&, SpinorField<double>&, const SpinorField<double>&,
                                   const SolverParams&);
template SolverResult solve_gcr<float>(const LinearOperator<float>&, SpinorField<float>&, const SpinorField<float>&,
                                  const SolverParams&);

template SolverResult solve_gcr<Half>(const LinearOperator<Half>&, SpinorField<Half>&, const SpinorField<Half>&,
                                 const SolverParams&);

}  // namespace lqcd::solver_detail
