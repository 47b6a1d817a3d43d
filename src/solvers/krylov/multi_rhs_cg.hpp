#pragma once
// CG for N right-hand sides at once (issue 4: the 12 spin-colour solves of a propagator): N
// conjugate-gradient solves of the even-odd normal equations M^dag M x_j = b_j run in lock step on a
// block of fields (fields/spinor_block_field.hpp), so that each application of M goes through the
// multi-RHS hopping term, which loads each link once for all N (dirac/wilson_even_odd_multi_rhs.hpp),
// and each vector operation is one pass over the block with N reductions in one
// (fields/spinor_block_blas.hpp). The solves are independent (no shared Krylov space, as in O'Leary's
// block CG): rhs j follows exactly the iteration of the one-field CG on its system (solve_hermitian
// with NormalOperator), up to the rounding of the sums, so its iteration count and residual history
// are those of its own solve; a rhs that has converged is frozen (its coefficients are zero) while the
// others go on.
//
// Stopping criterion per rhs: ||b_j - M^dag M x_j|| / ||b_j|| <= p.tolerance (QUDA's normal-equation
// criterion, lqcd bench solver --system normal), checked on the recomputed true residual; a rhs whose
// iterated residual met it but whose true residual did not restarts from its x_j (reliable update).
// Mixed precision as solve_mixed (solver.hpp): defect correction with the double-precision residual
// of every rhs and inner lock-step solves in single or half precision.

#include <span>

#include "dirac/block_operator.hpp"
#include "solvers/solver.hpp"

namespace lqcd {

// x: the initial guesses on entry (zero, or a previous solve's x), the solutions on return. Real =
// double, float or Half; p.precision must be Double, p.type CG. tolerances: one per rhs in place of
// p.tolerance (empty: p.tolerance for each). Throws SolverError when a rhs does not converge
// (iteration limit, breakdown, stagnation, NaN), naming it.
template <typename Real>
SolverResult solve_normal_multi_rhs(const BlockOperator<Real>& M, SpinorBlockField<Real>& x,
                                    const SpinorBlockField<Real>& b, const SolverParams& p,
                                    std::span<const double> tolerances = {});

// The same with corrections solved by M_sloppy (Sloppy = float or Half) to p.inner_tolerance.
template <typename Sloppy>
SolverResult solve_normal_multi_rhs_mixed(const BlockOperator<double>& M, const BlockOperator<Sloppy>& M_sloppy,
                                          SpinorBlockField<double>& x, const SpinorBlockField<double>& b,
                                          const SolverParams& p, std::span<const double> tolerances = {});

}  // namespace lqcd
